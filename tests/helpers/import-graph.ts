import fs from 'node:fs';
import path from 'node:path';

/** The layers of src/ and what each may import besides itself (DESIGN's shared → engine → app, shared → server). */
export const LAYER_RULES: Readonly<Record<string, readonly string[]>> = {
  shared: [],
  engine: ['shared'],
  app: ['shared', 'engine', 'extensions'],
  server: ['shared', 'extensions'],
  // Extensions build on the shared rules and the engine's parts, and register with the app and the
  // server through their registries; they never reach into the server or the app.
  extensions: ['shared', 'engine'],
};

/** One import of a module: the file it names (resolved under the same root, `a/b.ts`), and whether only types come through it. */
export interface ImportEdge {
  target: string;
  typeOnly: boolean;
}

/** Every module's relative imports. */
export type ImportGraph = ReadonlyMap<string, readonly ImportEdge[]>;

const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(type\s+)?(?:[^'"`;]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** The relative module specifiers of a source file, static and dynamic (`import('./x.js')`), `import type` marked. */
export function importEdgesOf(source: string): Array<{ specifier: string; typeOnly: boolean }> {
  return [...source.matchAll(IMPORT)].map((match) => ({ specifier: (match[2] ?? match[3])!, typeOnly: match[1] !== undefined }));
}

/** The relative module specifiers of a source file. */
export function importsOf(source: string): string[] {
  return importEdgesOf(source).map((edge) => edge.specifier);
}

function resolve(from: string, specifier: string, exists: (file: string) => boolean): string {
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier.replace(/\?.*$/, '')));
  const candidates = [joined, joined.replace(/\.js$/, '.ts'), joined.replace(/\.js$/, '.tsx'), `${joined}.ts`, `${joined}/index.ts`];
  return candidates.find(exists) ?? joined;
}

/** The import graph of every .ts/.tsx file under `root` (paths relative to it, with `/`). */
export function readImportGraph(root: string): ImportGraph {
  const files = (fs.readdirSync(root, { recursive: true, encoding: 'utf8' }) as string[])
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts'));
  const known = new Set(files);
  return new Map(
    files.map((file) => [
      file,
      importEdgesOf(fs.readFileSync(path.join(root, file), 'utf8')).map(({ specifier, typeOnly }) => ({
        target: resolve(file, specifier, (f) => known.has(f)),
        typeOnly,
      })),
    ]),
  );
}

const layerOf = (file: string) => file.split('/')[0]!;

/**
 * Every import that goes against {@link LAYER_RULES}, as `from → to`, sorted. Data files outside
 * the tree (`../locales/en/common.json`, `../schemas/descriptor.schema.json`) may be read by any layer;
 * code outside it may not.
 */
export function wrongWayImports(graph: ImportGraph, rules = LAYER_RULES): string[] {
  const found = new Set<string>();
  for (const [file, edges] of graph) {
    const from = layerOf(file);
    for (const { target } of edges) {
      const to = layerOf(target);
      if (to === from) continue;
      if (target.startsWith('../') && !/\.tsx?$|\.js$/.test(target)) continue;
      if (!(to in rules) || !(rules[from] ?? []).includes(to)) found.add(`${file} → ${target}`);
    }
  }
  return [...found].sort();
}

/**
 * The import cycles of the graph, each as its modules in order (`a → b → a`), each cycle once.
 * `import type` edges are left out: they are gone once compiled, so they cannot make modules
 * load half-initialised.
 */
export function importCycles(graph: ImportGraph): string[] {
  const cycles = new Set<string>();
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const { target, typeOnly } of graph.get(file) ?? []) {
      if (typeOnly || !graph.has(target)) continue;
      if (state.get(target) === 'open') {
        const loop = stack.slice(stack.indexOf(target));
        // The same cycle found from another of its modules is written from its smallest one.
        const start = loop.indexOf([...loop].sort()[0]!);
        const turned = [...loop.slice(start), ...loop.slice(0, start)];
        cycles.add([...turned, turned[0]].join(' → '));
      } else if (!state.has(target)) visit(target);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return [...cycles];
}
