import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const LANGUAGES = ['en', 'id', 'ms'] as const;
/** The allowed key roots (plus `emails`, the server's mail texts). */
const KEY = /^(?:common|nav|pages|entities|validation|errors|toasts|emails)\.[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;
const PLURAL_SUFFIXES = ['_zero', '_one', '_two', '_few', '_many', '_other'];

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = '', out = new Map<string, string>()): Map<string, string> {
  for (const [key, value] of Object.entries(tree)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(full, value);
    else flatten(value, full, out);
  }
  return out;
}

const locales = Object.fromEntries(
  LANGUAGES.map((lang) => [lang, flatten(JSON.parse(fs.readFileSync(path.join(root, 'locales', lang, 'common.json'), 'utf8')) as Tree)]),
) as Record<(typeof LANGUAGES)[number], Map<string, string>>;

function hasKey(lang: (typeof LANGUAGES)[number], key: string): boolean {
  const keys = locales[lang];
  return keys.has(key) || PLURAL_SUFFIXES.some((suffix) => keys.has(`${key}${suffix}`));
}

function filesUnder(dir: string, pattern: RegExp): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(full, pattern);
    return pattern.test(entry.name) ? [full] : [];
  });
}

/** Every string literal in the code that has the shape of a translation key ('pages.login.submit'). */
function keysInCode(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/'([^'\\\n]*)'|"([^"\\\n]*)"|`([^`\\$]*)`/g)) {
    const literal = match[1] ?? match[2] ?? match[3] ?? '';
    if (KEY.test(literal)) found.push(literal);
  }
  return found;
}

/** Every string value of a descriptor that has the shape of a translation key. */
function keysInJson(value: unknown): string[] {
  if (typeof value === 'string') return KEY.test(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(keysInJson);
  if (value && typeof value === 'object') return Object.values(value).flatMap(keysInJson);
  return [];
}

function usedKeys(): Map<string, string> {
  const used = new Map<string, string>();
  for (const file of filesUnder(path.join(root, 'src'), /\.(ts|tsx)$/)) {
    for (const key of keysInCode(fs.readFileSync(file, 'utf8'))) used.set(key, path.relative(root, file));
  }
  for (const file of filesUnder(path.join(root, 'entities'), /\.json$/)) {
    for (const key of keysInJson(JSON.parse(fs.readFileSync(file, 'utf8')))) used.set(key, path.relative(root, file));
  }
  return used;
}

const variables = (text: string) => [...text.matchAll(/\{\{\s*(\w+)/g)].map((match) => match[1]).sort();

describe('translations', () => {
  it('finds keys in code and descriptors the way they are written', () => {
    expect(keysInCode(`t('pages.login.submit'); t("nav.faq"); const k = \`toasts.loginSuccess\`; t(\`pages.\${x}\`); 'not a key'; 'e.g.'`)).toEqual([
      'pages.login.submit',
      'nav.faq',
      'toasts.loginSuccess',
    ]);
    expect(keysInJson({ title: 'entities.category.title', columns: [{ label: 'entities.category.fields.name' }], field: 'name' })).toEqual([
      'entities.category.title',
      'entities.category.fields.name',
    ]);
  });

  it('has every key used in src/ or named in entities/*.json in en, id and ms', () => {
    const missing: string[] = [];
    for (const [key, where] of usedKeys()) {
      for (const lang of LANGUAGES) if (!hasKey(lang, key)) missing.push(`${lang}: ${key} (used in ${where})`);
    }
    expect(missing).toEqual([]);
  });

  it('has the same keys in every language', () => {
    const all = new Set(LANGUAGES.flatMap((lang) => [...locales[lang].keys()]));
    const gaps = [...all].flatMap((key) => LANGUAGES.filter((lang) => !locales[lang].has(key)).map((lang) => `${lang}: ${key}`));
    expect(gaps).toEqual([]);
  });

  it('has no empty value', () => {
    const empty = LANGUAGES.flatMap((lang) => [...locales[lang]].filter(([, text]) => text.trim() === '').map(([key]) => `${lang}: ${key}`));
    expect(empty).toEqual([]);
  });

  it('uses the same interpolation variables in every language', () => {
    const differing = [...locales.en].flatMap(([key, text]) =>
      LANGUAGES.filter((lang) => locales[lang].has(key) && variables(locales[lang].get(key)!).join() !== variables(text).join()).map(
        (lang) => `${lang}: ${key}`,
      ),
    );
    expect(differing).toEqual([]);
  });
});
