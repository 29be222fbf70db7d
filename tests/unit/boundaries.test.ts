import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles, importsOf, readImportGraph, wrongWayImports } from '../helpers/import-graph.js';

/**
 * The layers keep their direction: shared → engine → app and shared → server, extensions on shared
 * and the engine only; and no module imports itself round a cycle.
 */
describe('import boundaries of src/', () => {
  const graph = readImportGraph('src');

  it('reads static, type-only, re-export and dynamic imports', () => {
    expect(
      importsOf(`import a from './a.js';\nimport type { B } from '../b.js';\nexport { c } from './c.js';\nconst d = () => import('./d.js');\nimport 'x';`),
    ).toEqual(['./a.js', '../b.js', './c.js', './d.js']);
    expect(graph.size).toBeGreaterThan(200);
  });

  it('has no import against the layers', () => {
    expect(wrongWayImports(graph)).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(importCycles(graph)).toEqual([]);
  });

  it('fails on a deliberate wrong-way import and on a cycle, written to a temporary tree', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'boundaries-'));
    try {
      const write = (file: string, text: string) => {
        fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
        fs.writeFileSync(path.join(root, file), text);
      };
      write('shared/rule.ts', `import { screen } from '../engine/screen.js';\nexport const rule = screen;\n`);
      write('engine/screen.ts', `export const screen = 1;\n`);
      write('extensions/hooks/hook.ts', `import { conflict } from '../../server/errors.js';\nexport const hook = conflict;\n`);
      write('server/errors.ts', `export const conflict = 1;\n`);
      write('server/list.ts', `import { count } from './count/counts.js';\nexport const list = count;\n`);
      write('server/count/counts.ts', `import { list } from '../list.js';\nexport const count = () => list;\n`);
      const bad = readImportGraph(root);
      expect(wrongWayImports(bad)).toEqual(['extensions/hooks/hook.ts → server/errors.ts', 'shared/rule.ts → engine/screen.ts']);
      expect(importCycles(bad)).toEqual(['server/count/counts.ts → server/list.ts → server/count/counts.ts']);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
