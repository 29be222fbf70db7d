import { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';
import { HOT_AFTER, isStalePreparedStatement, PreparedStatements } from '../../src/server/db/prepared-statements.js';
import { createRegistry } from '../../src/server/operations/context.js';
import type { CountStrategy } from '../../src/server/operations/count.js';
import { parseListQuery } from '../../src/server/operations/list-query.js';
import { templatedStatement } from '../../src/server/operations/list-templates.js';
import { loadConfiguredEntities } from '../../src/server/plugins/entities.js';
import { containsPattern } from '../../src/shared/sql-text.js';

const registry = createRegistry(loadConfiguredEntities(loadConfig({})));
const contest = registry.byName.get('contest')!;
const parsed = (query: Record<string, string>) => parseListQuery(contest, registry, query);

describe('list statement templates', () => {
  // A stand-in for the list's builder: a statement whose parameters are the values, raw or as a
  // contains pattern, like the real one's.
  const build = (of: ReturnType<typeof parsed>) => {
    const parameters = of.filters.map((applied) => (applied.filter.operator === 'ilike' ? containsPattern(String(applied.value)) : applied.value));
    return { compiled: CompiledQuery.raw(`select ${of.filters.map((_, i) => `$${i + 1}`).join(', ')} -- ${of.sort}`, parameters), extra: of.sort };
  };

  it('builds a shape once and fills its template with each later request’s values', () => {
    const strategy: CountStrategy = { count: async () => 0 };
    let builds = 0;
    const counted = (of: ReturnType<typeof parsed>) => {
      builds++;
      return build(of);
    };
    const first = templatedStatement(strategy, contest, parsed({ 'q[customer_id]': '7', 'q[agency_name]': 'a%b' }), counted);
    expect(first?.parameters).toEqual([7, '%a\\%b%']);
    expect(builds).toBe(2); // with its own values, and with stand-ins
    const second = templatedStatement(strategy, contest, parsed({ 'q[customer_id]': '12', 'q[agency_name]': 'rimba' }), counted);
    expect(builds).toBe(2);
    expect(second).toEqual({ sql: first!.sql, parameters: [12, '%rimba%'], extra: 'created_at' });
    // Another shape (another sort) is built again.
    templatedStatement(strategy, contest, parsed({ 'q[customer_id]': '12', 'q[agency_name]': 'rimba', sort: 'status' }), counted);
    expect(builds).toBe(4);
  });

  it('never keeps a template when the statement depends on a value in another way', () => {
    const strategy: CountStrategy = { count: async () => 0 };
    let builds = 0;
    // The statement's text holds the value: a stand-in would give another text.
    const valueInText = (of: ReturnType<typeof parsed>) => {
      builds++;
      return { compiled: CompiledQuery.raw(`select '${String(of.filters[0]!.value)}'`, []), extra: null };
    };
    for (const status of ['approved', 'pending', 'approved']) {
      const statement = templatedStatement(strategy, contest, parsed({ status }), valueInText);
      expect(statement?.sql).toBe(`select '${status}'`);
    }
    // Built with the stand-ins once (and refused), then with each request's own values only.
    expect(builds).toBe(4);
    // A parameter that holds a value in a form the template cannot redo (upper-cased).
    const upper = (of: ReturnType<typeof parsed>) => ({ compiled: CompiledQuery.raw('select $1', [String(of.filters[0]!.value).toUpperCase()]), extra: null });
    for (const status of ['approved', 'pending']) {
      expect(templatedStatement(strategy, contest, parsed({ status, sort: 'status' }), upper)?.parameters).toEqual([status.toUpperCase()]);
    }
  });
});

describe('prepared statements', () => {
  it('names a select once it is seen again, keeps its name, and stops at the cap', () => {
    const statements = new PreparedStatements(2);
    const select = 'select id from contests where id = $1';
    for (let i = 1; i < HOT_AFTER; i++) expect(statements.nameOf(select)).toBeUndefined();
    const name = statements.nameOf(select);
    expect(name).toMatch(/^ac_\d+$/);
    expect(statements.nameOf(select)).toBe(name);
    // Writes are never named, nor a text that may hold several statements.
    for (let i = 0; i < 3; i++) expect(statements.nameOf('insert into audit_log (action) values ($1)')).toBeUndefined();
    for (let i = 0; i < 3; i++) expect(statements.nameOf('select 1; select 2')).toBeUndefined();
    for (let i = 0; i < HOT_AFTER; i++) statements.nameOf('with x as (select 1) select * from x');
    expect(statements.size).toBe(2);
    for (let i = 0; i < HOT_AFTER + 1; i++) expect(statements.nameOf('select 3')).toBeUndefined();
    // DB_PREPARED_STATEMENTS=false: none at all.
    const off = new PreparedStatements(0);
    for (let i = 0; i < HOT_AFTER + 1; i++) expect(off.nameOf(select)).toBeUndefined();
  });

  it('stops naming a text PostgreSQL refused to run prepared again', () => {
    const statements = new PreparedStatements();
    const select = 'select * from contests';
    for (let i = 0; i < HOT_AFTER; i++) statements.nameOf(select);
    expect(statements.nameOf(select)).toBeDefined();
    statements.refuse(select);
    for (let i = 0; i < HOT_AFTER + 1; i++) expect(statements.nameOf(select)).toBeUndefined();
    expect(isStalePreparedStatement({ code: '0A000', message: 'cached plan must not change result type' })).toBe(true);
    expect(isStalePreparedStatement({ code: '0A000', message: 'other' })).toBe(false);
  });
});
