// Splits the app's stylesheet (Radix Themes' styles.css plus the app's own rules, as esbuild
// bundled them) in two, for build.mjs:
// - what the console can use, loaded before the first paint: every rule but those of Radix Themes
//   components no script of the build ever names (a component's class, `rt-TableRoot`, is always
//   a literal in its script), and the colour scales the build and the descriptors name;
// - the other colour scales (a descriptor added later may name one for a badge), in a second
//   stylesheet loaded without blocking the page.
// Rules are only dropped or moved, never rewritten: a kept rule is byte for byte esbuild's.

/** Radix Themes' colour scales (tokens/colors/*.css). */
export const RADIX_COLORS = [
  'amber',
  'blue',
  'bronze',
  'brown',
  'crimson',
  'cyan',
  'gold',
  'grass',
  'gray',
  'green',
  'indigo',
  'iris',
  'jade',
  'lime',
  'mauve',
  'mint',
  'olive',
  'orange',
  'pink',
  'plum',
  'purple',
  'red',
  'ruby',
  'sage',
  'sand',
  'sky',
  'slate',
  'teal',
  'tomato',
  'violet',
  'yellow',
];

/** Where the block that starts at `open` (a `{`) ends (its `}`), skipping strings and comments. */
function blockEnd(css, open) {
  let depth = 0;
  for (let i = open; i < css.length; i++) {
    const c = css[i];
    if (c === '"' || c === "'") {
      i = stringEnd(css, i);
    } else if (c === '/' && css[i + 1] === '*') {
      i = css.indexOf('*/', i + 2) + 1;
      if (i === 0) return css.length;
    } else if (c === '{') {
      depth++;
    } else if (c === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return css.length;
}

function stringEnd(css, start) {
  const quote = css[start];
  for (let i = start + 1; i < css.length; i++) {
    if (css[i] === '\\') i++;
    else if (css[i] === quote) return i;
  }
  return css.length;
}

/** Top-level items of a block's text: `{ prelude, body }` for rules and at-rules with a block, `{ statement }` else. */
function parse(css) {
  const items = [];
  let i = 0;
  while (i < css.length) {
    // Skip white space and comments between items.
    const rest = /^(?:\s+|\/\*[\s\S]*?\*\/)*/.exec(css.slice(i, i + 10_000))[0].length;
    i += rest;
    if (i >= css.length) break;
    let j = i;
    for (; j < css.length; j++) {
      const c = css[j];
      if (c === '"' || c === "'") j = stringEnd(css, j);
      else if (c === '{' || c === ';') break;
    }
    if (css[j] === ';' || j >= css.length) {
      items.push({ statement: css.slice(i, j + 1) });
      i = j + 1;
      continue;
    }
    const end = blockEnd(css, j);
    items.push({ prelude: css.slice(i, j).trim(), body: css.slice(j + 1, end) });
    i = end + 1;
  }
  return items;
}

/** Splits at top-level `sep` (outside parentheses, brackets and strings). */
function splitTop(text, sep) {
  const parts = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") i = stringEnd(text, i);
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === sep && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

const NESTED_AT_RULES = /^@(media|supports|layer|container)\b/;
const COLOR_PROPERTY = new RegExp(`^\\s*--(${RADIX_COLORS.join('|')})-(?:a?\\d+|contrast|surface|indicator|track)\\s*:`);
const COLOR_SELECTOR = /\[data-(?:accent|gray)-color=['"]?([a-z]+)['"]?\]/g;
const COMPONENT_CLASS = /\.(rt-[A-Z][A-Za-z0-9]*)/g;
const BREAKPOINT_CLASS = /\.-?(xs|sm|md|lg|xl)\\:/g;

/**
 * Splits `css` into `{ main, rest }`. `usedClasses`: the `rt-` component classes scripts name;
 * `colors`: the colour scales to keep in `main` (others go to `rest`).
 */
export function subsetCss(css, usedClasses, colors, breakpoints = new Set(['xs', 'sm', 'md', 'lg', 'xl'])) {
  const stats = { droppedRules: 0, movedDeclarations: 0 };
  const unusedColor = (name) => RADIX_COLORS.includes(name) && !colors.has(name);
  const walk = (text) => {
    let main = '';
    let rest = '';
    for (const item of parse(text)) {
      if (item.statement !== undefined) {
        main += `${item.statement}\n`;
        continue;
      }
      const { prelude, body } = item;
      if (prelude.startsWith('@')) {
        if (NESTED_AT_RULES.test(prelude)) {
          const inner = walk(body);
          if (inner.main.trim()) main += `${prelude} {\n${inner.main}}\n`;
          if (inner.rest.trim()) rest += `${prelude} {\n${inner.rest}}\n`;
        } else {
          main += `${prelude} {${body}}\n`;
        }
        continue;
      }
      const selectors = splitTop(prelude, ',')
        .map((s) => s.trim())
        .filter(Boolean);
      const keep = [];
      const later = [];
      for (const selector of selectors) {
        const classes = [...selector.matchAll(COMPONENT_CLASS)].map((m) => m[1]);
        if (classes.some((name) => !usedClasses.has(name))) continue;
        // A responsive class of a breakpoint no script uses (`xl:rt-r-p-3` needs `{ xl: '3' }` in a prop).
        if ([...selector.matchAll(BREAKPOINT_CLASS)].some((m) => !breakpoints.has(m[1]))) continue;
        const named = [...selector.matchAll(COLOR_SELECTOR)].map((m) => m[1]);
        (named.some(unusedColor) ? later : keep).push(selector);
      }
      if (keep.length === 0 && later.length === 0) {
        stats.droppedRules++;
        continue;
      }
      const declarations = splitTop(body, ';');
      const colorDeclarations = declarations.filter((d) => {
        const m = COLOR_PROPERTY.exec(d);
        return m && unusedColor(m[1]);
      });
      if (keep.length > 0) {
        if (colorDeclarations.length === 0) {
          main += `${keep.join(',\n')} {${body}}\n`;
        } else {
          stats.movedDeclarations += colorDeclarations.length;
          const own = declarations.filter((d) => !colorDeclarations.includes(d));
          if (own.some((d) => d.trim())) main += `${keep.join(',\n')} {${own.join(';')}${own.at(-1)?.trim() ? ';' : ''}\n}\n`;
          rest += `${keep.join(',\n')} {${colorDeclarations.join(';')};\n}\n`;
        }
      }
      if (later.length > 0) rest += `${later.join(',\n')} {${body}}\n`;
    }
    return { main, rest };
  };
  return { ...walk(css), stats };
}

/** The Radix breakpoints a source file's responsive props name (`{ initial: '1', md: '3' }`). */
export function breakpointsInSource(text, into = new Set()) {
  for (const [, name] of text.matchAll(/\binitial:[^}]*?\b(xs|sm|md|lg|xl):/g)) into.add(name);
  for (const [, name] of text.matchAll(/=\{\{\s*(xs|sm|md|lg|xl):/g)) into.add(name);
  return into;
}

/** The `rt-` component classes and the colour names a script's text names. */
export function namesInScript(text, into = { classes: new Set(), colors: new Set() }) {
  for (const [, name] of text.matchAll(/\b(rt-[A-Z][A-Za-z0-9]*)/g)) into.classes.add(name);
  for (const [, name] of text.matchAll(/["'`]([a-z]+)["'`]/g)) if (RADIX_COLORS.includes(name)) into.colors.add(name);
  return into;
}
