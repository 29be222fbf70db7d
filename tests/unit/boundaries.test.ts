import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * The boundary rules of .dependency-cruiser.cjs, run by the dependency-cruiser CLI (as
 * `npm run lint:boundaries` runs it on src/) on two small trees: tests/boundaries/wrong, where each
 * rule is broken once, and tests/boundaries/right, the same layout with every import allowed. The
 * live src/ is checked by `npm run lint:boundaries`, not here.
 */
const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL('../..', import.meta.url));
const config = path.join(root, '.dependency-cruiser.cjs');
const cli = path.join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const ruleNames: string[] = (require(config) as { forbidden: Array<{ name: string }> }).forbidden.map((rule) => rule.name);

interface CruiseResult {
  modules: Array<{ source: string }>;
  summary: { violations: Array<{ rule: { name: string }; from: string; to: string }>; error: number };
}

/** Cruises `src` of a fixture tree with the project's config, its cwd the fixture's root. */
async function cruise(fixture: string): Promise<CruiseResult> {
  const cwd = path.join(root, 'tests/boundaries', fixture);
  const args = [cli, 'src', '--config', config, '--output-type', 'json', '--no-progress'];
  let stdout: string;
  try {
    ({ stdout } = await promisify(execFile)(process.execPath, args, { cwd, maxBuffer: 16 * 1024 * 1024 }));
  } catch (error) {
    // depcruise exits with the number of errors it found; its report is still on stdout.
    stdout = (error as { stdout?: string }).stdout ?? '';
    if (!stdout) throw error;
  }
  return JSON.parse(stdout) as CruiseResult;
}

/** The fixture's own modules that a cruise found (npm packages left out). */
const cruised = (result: CruiseResult) =>
  result.modules
    .map((m) => m.source)
    .filter((source) => source.startsWith('src/'))
    .sort();

/** Every .ts and .tsx file of a fixture's src, relative to the fixture's root. */
function sourcesOf(fixture: string): string[] {
  const base = path.join(root, 'tests/boundaries', fixture);
  return (fs.readdirSync(path.join(base, 'src'), { recursive: true }) as string[])
    .map((file) => path.join('src', file).split(path.sep).join('/'))
    .filter((file) => /\.tsx?$/.test(file))
    .sort();
}

describe('boundary rules (dependency-cruiser)', () => {
  it('finds each rule broken in the wrong tree, at the import that breaks it', async () => {
    const result = await cruise('wrong');
    // Every file is parsed, .tsx included (JSX through the config's swc wrapper).
    expect(cruised(result)).toEqual(sourcesOf('wrong'));
    const found = result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
    expect(found).toEqual([
      'app-not-to-server: src/app/shell.tsx → src/server/index.ts',
      'app-registry-only-from-entries: src/app/shell.tsx → src/registry/client.ts',
      'engine-imports-only-shared: src/engine/deep.ts → src/app/shell.tsx',
      'extensions-only-from-registry: src/features/judging/server/grades.ts → src/extensions/hooks.ts',
      'extensions-only-shared-and-engine-entry: src/extensions/hooks.ts → src/server/index.ts',
      'feature-client-not-to-server: src/features/judging/client/panel.tsx → src/features/judging/server/grades.ts',
      'feature-contract-is-neutral: src/features/judging/shared/contract.ts → src/server/index.ts',
      'feature-engine-only-through-entry: src/features/judging/client/panel.tsx → src/engine/list/table.ts',
      'feature-not-to-app-or-registry: src/features/judging/client/panel.tsx → src/app/format.ts',
      'feature-other-feature-only-through-faces: src/features/judging/server/grades.ts → src/features/results/server/service.ts',
      'feature-server-not-to-client: src/features/judging/server/grades.ts → src/features/judging/client/format.ts',
      'feature-server-only-through-entry: src/features/judging/server/grades.ts → src/server/db/pool.ts',
      'features-only-from-registry: src/engine/deep.ts → src/features/judging/client/panel.tsx',
      expect.stringMatching(/^no-circular: src\/shared\/cycle-[ab]\.ts → src\/shared\/cycle-[ab]\.ts$/),
      'not-to-unresolvable: src/server/routes.ts → ./missing.js',
      'server-not-to-client: src/server/routes.ts → src/engine/index.ts',
      'server-registry-only-from-entries: src/server/routes.ts → src/registry/server.ts',
      'shared-imports-no-layer: src/shared/types.ts → src/engine/index.ts',
    ]);
    // The list above names every rule of the config: none is left untested.
    expect(new Set(result.summary.violations.map((v) => v.rule.name))).toEqual(new Set(ruleNames));
  });

  it('passes the right tree, whose imports are all allowed', async () => {
    const result = await cruise('right');
    expect(cruised(result)).toEqual(sourcesOf('right'));
    expect(result.summary.violations).toEqual([]);
    expect(result.summary.error).toBe(0);
  });
});
