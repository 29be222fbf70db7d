import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every translation key the code can ask for exists in en, id and ms: the keys written whole (any
 * namespace, not only the shell's: `judging.*`, `results.*`, ...) and the keys built at run time
 * from a prefix and a value (`errors.records.${entity}`), whose values this file lists (read from
 * the code where they are declared: a union type, a schema's enum, the entity descriptors, the
 * audit actions). A new built key fails here until its values are listed in {@link BUILT}.
 */

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const LANGUAGES = ['en', 'id', 'ms'] as const;
const PLURAL_SUFFIXES = ['_zero', '_one', '_two', '_few', '_many', '_other'];
type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = '', out = new Set<string>()): Set<string> {
  for (const [key, value] of Object.entries(tree)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.add(full);
    else flatten(value, full, out);
  }
  return out;
}

const trees = Object.fromEntries(LANGUAGES.map((lang) => [lang, JSON.parse(fs.readFileSync(path.join(root, 'locales', lang, 'common.json'), 'utf8')) as Tree]));
const locales = Object.fromEntries(LANGUAGES.map((lang) => [lang, flatten(trees[lang]!)])) as Record<(typeof LANGUAGES)[number], Set<string>>;
/** The namespaces (first segments) of the English file: a literal 'results.columns.rank' is a key, 'results' a word. */
const ROOTS = Object.keys(trees.en!);
const KEY_SHAPE = new RegExp(`^(?:${ROOTS.join('|')})\\.[A-Za-z0-9_-]+(?:\\.[A-Za-z0-9_-]+)*$`);

const hasKey = (lang: (typeof LANGUAGES)[number], key: string) =>
  locales[lang].has(key) || PLURAL_SUFFIXES.some((suffix) => locales[lang].has(`${key}${suffix}`));

const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

function filesUnder(dir: string, pattern: RegExp): string[] {
  const full = path.join(root, dir);
  if (!fs.existsSync(full)) return [];
  return fs.readdirSync(full, { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(rel, pattern);
    return pattern.test(entry.name) && !entry.name.endsWith('.d.ts') ? [rel] : [];
  });
}

/** Source text without its comments (a key named in a comment is no use of it); strings are kept whole. */
function withoutComments(source: string): string {
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < source.length && source[j] !== c) j += source[j] === '\\' ? 2 : 1;
      out += source.slice(i, j + 1);
      i = j;
    } else if (c === '/' && source[i + 1] === '/') {
      while (i < source.length && source[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      i = end < 0 ? source.length : end + 1;
    } else out += c;
  }
  return out;
}

/** The string literals written whole, and the template literals with `${...}` as `*` ('errors.records.*'). */
function literals(source: string): { whole: string[]; built: string[] } {
  const whole: string[] = [];
  const built: string[] = [];
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < source.length && source[j] !== c && source[j] !== '\n') j += source[j] === '\\' ? 2 : 1;
      whole.push(source.slice(i + 1, j));
      i = j;
    } else if (c === '`') {
      let j = i + 1;
      let text = '';
      let holes = 0;
      while (j < source.length && source[j] !== '`') {
        if (source[j] === '\\') {
          text += source[j + 1];
          j += 2;
        } else if (source[j] === '$' && source[j + 1] === '{') {
          let depth = 1;
          j += 2;
          while (j < source.length && depth > 0) {
            if (source[j] === '{') depth++;
            else if (source[j] === '}') depth--;
            else if (source[j] === '`') {
              j++;
              while (j < source.length && source[j] !== '`') j++;
            }
            j++;
          }
          text += '*';
          holes++;
        } else text += source[j++];
      }
      (holes > 0 ? built : whole).push(text);
      i = j;
    }
  }
  return { whole, built };
}

// ---- Where the run-time values come from -------------------------------------------------------

/** The string literals of `type <name> = 'a' | 'b' ...;` in a source file. */
function unionOf(file: string, name: string): string[] {
  const match = new RegExp(`type ${name}\\s*=([^;]+);`).exec(read(file));
  if (!match) throw new Error(`No type ${name} in ${file}`);
  return [...match[1]!.matchAll(/'([^']+)'/g)].map((m) => m[1]!);
}

/** The string literals of `const <name> = [...]` in a source file. */
function arrayOf(file: string, name: string): string[] {
  const match = new RegExp(`const ${name}\\s*=\\s*\\[([^\\]]+)\\]`).exec(read(file));
  if (!match) throw new Error(`No array ${name} in ${file}`);
  return [...match[1]!.matchAll(/'([^']+)'/g)].map((m) => m[1]!);
}

/** The values of `const <name>: Record<...> = { a: 'x', ... }` in a source file. */
function recordValuesOf(file: string, name: string): string[] {
  const match = new RegExp(`const ${name}[^=]*=\\s*\\{([^}]+)\\}`).exec(read(file));
  if (!match) throw new Error(`No record ${name} in ${file}`);
  return [...match[1]!.matchAll(/:\s*'([^']+)'/g)].map((m) => m[1]!);
}

/** The keys of `const <name>: Record<...> = { a: ..., ... }` in a source file. */
function recordKeysOf(file: string, name: string): string[] {
  const source = read(file);
  const match = new RegExp(`const ${name}[^=]*=\\s*\\{([\\s\\S]*?)\\n\\};`).exec(source) ?? new RegExp(`const ${name}[^=]*=\\s*\\{([^\\n]*?)\\}`).exec(source);
  if (!match) throw new Error(`No record ${name} in ${file}`);
  return [...match[1]!.matchAll(/(?:^|[{,])\s*'?([A-Za-z_][\w]*)'?:/gm)].map((m) => m[1]!);
}

const entityFiles = () => filesUnder('entities', /\.json$/).map((file) => JSON.parse(read(file)) as { name?: string; schema?: string });
/** Every entity's name (`errors.records.<name>`: the in-use count of a delete names the entity that holds the record). */
const entityNames = () => entityFiles().map((d, i) => d.name ?? path.basename(filesUnder('entities', /\.json$/)[i]!, '.json'));

/** A schema property's enum (`schemas/<entity>.schema.json`). */
function schemaEnum(entity: string, property: string): string[] {
  const schema = JSON.parse(read(`schemas/${entity}.schema.json`)) as { properties: Record<string, { enum?: unknown[]; items?: { enum?: unknown[] } }> };
  const values = schema.properties[property]?.enum ?? schema.properties[property]?.items?.enum;
  if (!values) throw new Error(`No enum ${entity}.${property}`);
  return values.filter((v): v is string | number => typeof v === 'string' || typeof v === 'number').map(String);
}

/**
 * Every audit action the code writes (`action: 'x.y'` in a file that writes audit rows, and the
 * declared action unions): the audit log and a record's history name each by `history.actions.<action>`.
 */
function auditActions(): string[] {
  const found = new Set<string>();
  for (const file of filesUnder('src', /\.(ts|tsx)$/)) {
    const source = withoutComments(read(file));
    if (!/writeAudit|\.audit\(|audit\(|AuditAction/.test(source)) continue;
    for (const m of source.matchAll(/\baction:\s*'([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)*)'/g)) found.add(m[1]!);
    for (const m of source.matchAll(/type \w*AuditAction\s*=([^;]+);/g)) for (const v of m[1]!.matchAll(/'([^']+)'/g)) found.add(v[1]!);
    for (const m of source.matchAll(/action:\s*\w+\s*===\s*'[^']+'\s*\?\s*'([^']+)'\s*:\s*'([^']+)'/g)) {
      found.add(m[1]!);
      found.add(m[2]!);
    }
  }
  // Not audit actions: the list's bulk request ({ action: 'delete' | 'set' }) and the accounts screen's buttons.
  for (const notAudit of ['set', 'disable', 'enable', 'resend', 'reset-two-factor']) found.delete(notAudit);
  return [...found].sort();
}

/** Every mail template the code sends by name (`template: 'x'`: `emails.x.subject` and `emails.x.body`). */
function mailTemplates(): string[] {
  const found = new Set<string>();
  for (const file of filesUnder('src', /\.(ts|tsx)$/))
    for (const m of withoutComments(read(file)).matchAll(/\btemplate:\s*'([A-Za-z][\w]*)'/g)) found.add(m[1]!);
  return [...found];
}

/**
 * The keys built from a prefix and a run-time value (`*` marks the value), with the values, or
 * `optional` (with why) where the code gives a fallback text: `t([built, fallback])` or a `defaultValue`.
 */
type Built = { values: () => string[] } | { optional: string };
const J = 'src/features/judging';
const BUILT: Record<string, Built> = {
  'errors.records.*': { values: entityNames },
  'history.actions.*': { values: auditActions },
  // The audit log names a row's record type: every entity, and the system's own rows (accounts, settings).
  'history.entities.*': { values: () => [...entityNames(), 'user', 'settings'] },
  'emails.*.subject': { values: mailTemplates },
  'emails.*.body': { values: mailTemplates },
  'accounts.portal.outcome.*': { values: () => unionOf('src/features/accounts/server/record-accounts.ts', 'InviteOutcome') },
  'accounts.portal.skipped.*': { values: () => unionOf('src/features/accounts/server/record-accounts.ts', 'SkipReason') },
  'accounts.portal.states.*': { values: () => unionOf('src/features/accounts/server/record-accounts.ts', 'RecordAccountState') },
  'common.currencies.*': { values: () => unionOf('src/engine/widgets/currencies.ts', 'CurrencyCode') },
  'common.filters.typedId.*': { values: () => unionOf('src/engine/list/typed-id.ts', 'TypedIdProblem') },
  'common.relative.*_ago': { values: () => ['days', 'hours', 'minutes'] },
  'common.status.*': { optional: "the fallback of an entity's own enum text, itself with a defaultValue" },
  'common.entity.*': { optional: 'entityTextKeys: the generic text of each EntityTexts key, checked by tests/unit/entity-texts' },
  'dataio.import.entities.*': { optional: "after entities.<name>.label_plural, with the entity's label as defaultValue" },
  'dataio.import.errors.*': { values: () => ['cancelled', 'invalid_rows', 'interrupted'] },
  'dataio.import.phase.*': { values: () => ['reading', 'checking', 'writing'] },
  'entities.*.*': { optional: "a descriptor's texts: the entity's own, else common.entity.*" },
  'entities.*.columns.*': { optional: 'after the field label' },
  'entities.*.edit_button': { optional: 'after common.entity.edit_button' },
  'entities.*.edit_page_title': { optional: 'after the entity edit title' },
  'entities.*.enum.*.*': { optional: 'after common.status.* and a defaultValue (the value itself)' },
  'entities.*.fields.*': { optional: 'the field label falls back to the schema title / the field name' },
  'entities.*.filters.*': { optional: 'after the field label' },
  'entities.*.help.*': { optional: 'help is shown only where written' },
  'entities.*.label': { optional: "defaultValue: the descriptor's label" },
  'entities.*.label_plural': { optional: 'defaultValue: the label' },
  'entities.*.not_found_back': { optional: 'defaultValue: the back link' },
  'entities.*.not_found_hint': { optional: "defaultValue: ''" },
  'entities.*.sorts.*': { optional: 'after the field label' },
  'entities.applicant.enum.country.*': { optional: 'after entities.jury.countries.*' },
  'entities.jury.countries.*': { values: () => schemaEnum('applicant', 'country') },
  'entities.applicant.enum.status.*': { values: () => schemaEnum('applicant', 'status') },
  'entities.assignment.statuses.*': { values: () => schemaEnum('assignment', 'status') },
  'entities.contest.enum.status.*': { values: () => schemaEnum('contest', 'status') },
  'entities.contest.fields.*': { optional: 'defaultValue: the field name' },
  'entities.exam.statuses.*': { values: () => schemaEnum('exam', 'status') },
  // The jury schema's round: an integer from 1 to 2.
  'entities.jury.rounds.*': { values: () => ['1', '2'] },
  'judging.actions.*': { values: () => [...recordValuesOf(`${J}/client/exam-judging-screen.tsx`, 'ACTION_KEY'), 'reopen'] },
  'judging.conflicts.by.*': { values: () => ['admin', 'juror'] },
  'judging.conflicts.kinds.*': { values: () => ['company', 'entry', 'brand'] },
  'judging.criteria.errors.*': {
    values: () => [...read(`${J}/shared/criteria-rules.ts`).matchAll(/problem\('([a-z_]+)'/g)].map((m) => m[1]!),
  },
  'judging.portal.fields.*': { values: () => arrayOf(`${J}/client/jury-portal-screen.tsx`, 'TEXT_FIELDS') },
  'judging.portal.statuses.*': { values: () => schemaEnum('assignment', 'status') },
  'judging.rules.*': { values: () => unionOf(`${J}/shared/assignment-rules.ts`, 'AssignmentRule') },
  'judging.screen.reason_*': { values: () => unionOf(`${J}/server/auto-assign.ts`, 'ShortReason') },
  'nav.groups.*': {
    values: () => [
      ...new Set([
        'overview',
        'setup',
        ...entityFiles().flatMap((d) => ((d as { menu?: { group?: string } }).menu?.group ? [(d as { menu: { group: string } }).menu.group] : [])),
      ]),
    ],
  },
  'outbox.*Done': { values: () => ['retry', 'cancel'] },
  'outbox.statuses.*': { values: () => unionOf('src/features/notifications/index.ts', 'OutboxStatus') },
  'outbox.languages.*': { optional: 'defaultValue: the language code' },
  'outbox.templates.*': { optional: 'defaultValue: the template name' },
  'pages.accounts.done.*': { values: () => ['disable', 'enable', 'resend', 'resetTwoFactor'] },
  'pages.accounts.endings.*': { optional: 'defaultValue: the ending itself' },
  'pages.accounts.roles.*': { values: () => ['admin', 'juror', 'entrant'] },
  'pages.accounts.statuses.*': { values: () => recordKeysOf('src/features/accounts/client/accounts-page.tsx', 'STATUS_COLOR') },
  'pages.dashboard.judging.*': { values: () => unionOf(`${J}/shared/dashboard-contract.ts`, 'JudgingStatus') },
  'pages.sandbox.states.*': { values: () => unionOf('src/app/pages/sandbox-page.tsx', 'State') },
  'pages.sandbox.sample.*.label': { values: () => Object.keys((trees.en as { pages: { sandbox: { sample: Tree } } }).pages.sandbox.sample) },
  'pages.sandbox.sample.*.description': { values: () => Object.keys((trees.en as { pages: { sandbox: { sample: Tree } } }).pages.sandbox.sample) },
  'results.basis.*': { values: () => unionOf('src/features/results/shared/aggregate.ts', 'RankingBasis') },
  'results.columns.*': { values: () => arrayOf('src/features/results/client/results-screen.tsx', 'columns') },
  'results.moderation.statuses.*': { values: () => ['draft', 'submitted'] },
  'results.rawNote.*': { values: () => unionOf('src/features/results/shared/aggregate.ts', 'RawReason') },
  'validation.*': {
    values: () => ['required', 'minLength', 'maxLength', 'pattern', 'format', 'type', 'enum', 'minimum', 'maximum', 'additionalProperties'],
  },
};

/** The keys a built pattern stands for, with its values put in (every `*` takes each value). */
const expand = (pattern: string, values: string[]) => values.map((value) => pattern.replaceAll('*', value));

interface Use {
  key: string;
  file: string;
}

function scan(): { whole: Use[]; built: Use[] } {
  const whole: Use[] = [];
  const built: Use[] = [];
  for (const file of filesUnder('src', /\.(ts|tsx)$/)) {
    const source = withoutComments(read(file));
    const found = literals(source);
    for (const key of found.whole) if (KEY_SHAPE.test(key)) whole.push({ key, file });
    for (const key of found.built) if (KEY_SHAPE.test(key.replace(/\*/g, 'x')) && /^[A-Za-z0-9_.*-]+$/.test(key)) built.push({ key, file });
  }
  return { whole, built };
}

describe('translation key coverage', () => {
  const { whole, built } = scan();
  const actions = new Set(auditActions());

  it('reads keys the way the code writes them, not in comments', () => {
    const source = withoutComments(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source text read by the scanner, not a template
      "// t('pages.gone')\nt('pages.login.submit'); /* 'nav.old' */ t(`errors.records.${e}`); const u = 'https://x.test'; t(`judging.screen.reason_${s.reason}`)",
    );
    expect(literals(source)).toEqual({ whole: ['pages.login.submit', 'https://x.test'], built: ['errors.records.*', 'judging.screen.reason_*'] });
  });

  it('knows where every built key gets its values', () => {
    const unknown = [...new Set(built.filter((use) => !BUILT[use.key]).map((use) => `${use.key} (built in ${use.file})`))];
    expect(unknown).toEqual([]);
  });

  it('finds the run-time values it lists', () => {
    expect(entityNames()).toEqual(expect.arrayContaining(['assignment', 'contest', 'exam', 'jury']));
    expect(auditActions()).toEqual(expect.arrayContaining(['create', 'results.award_override', 'auth.login', 'exam.status', 'data.import']));
    for (const [pattern, source] of Object.entries(BUILT)) if ('values' in source) expect(source.values().length, pattern).toBeGreaterThan(0);
  });

  it('has every key written whole in src/ in en, id and ms', () => {
    const missing = whole
      // An audit action ('results.award_override') is a value, not a key: its text is history.actions.<action>.
      .filter((use) => !actions.has(use.key))
      .flatMap((use) => LANGUAGES.filter((lang) => !hasKey(lang, use.key)).map((lang) => `${lang}: ${use.key} (used in ${use.file})`));
    expect([...new Set(missing)]).toEqual([]);
  });

  it('has every key built from a prefix and a listed value in en, id and ms', () => {
    const missing: string[] = [];
    for (const pattern of new Set(built.map((use) => use.key))) {
      const source = BUILT[pattern];
      if (!source || !('values' in source)) continue;
      for (const key of expand(pattern, source.values()))
        for (const lang of LANGUAGES) if (!hasKey(lang, key)) missing.push(`${lang}: ${key} (from ${pattern})`);
    }
    expect([...new Set(missing)]).toEqual([]);
  });

  it('names every audit action in the audit log and the record history', () => {
    const missing = auditActions().flatMap((action) =>
      LANGUAGES.filter((lang) => !hasKey(lang, `history.actions.${action}`)).map((lang) => `${lang}: ${action}`),
    );
    expect(missing).toEqual([]);
  });
});
