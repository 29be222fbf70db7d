import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { hashPassword } from '../../src/server/auth/password.js';
import { TestClient } from './test-app.js';

export const JUROR_PASSWORD = 'juror-password-42';

/** The criteria the judging suites' exams use: two criteria, weights 3 : 1. */
export const CRITERIA = [
  { key: 'idea', label: 'Idea', weight: 3, maximum: 10 },
  { key: 'craft', label: 'Craft', weight: 1, maximum: 5 },
];

/** Inserts a category and returns its id. */
export async function addCategory(app: FastifyInstance, name: string): Promise<number> {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return (
    await sql<{
      id: number;
    }>`insert into categories (name, description, slug, status) values (${name}, ${`${name} category description`}, ${slug}, 'active') returning id`.execute(
      app.db,
    )
  ).rows[0]!.id;
}

/** Inserts a submittor of `company` and returns its id. */
export async function addCustomer(app: FastifyInstance, n: number, company: string | null, extra: { name?: string; phone?: string } = {}): Promise<number> {
  return (
    await sql<{ id: number }>`insert into customers (name, email, phone, company, job_title, is_active, max_entries, password_hash)
      values (${extra.name ?? `Submittor ${n}`}, ${`submittor${n}@entrant.test`}, ${extra.phone ?? `+60 12-000 ${String(n).padStart(4, '0')}`}, ${company}, 'Director', true, 100, 'x') returning id`.execute(
      app.db,
    )
  ).rows[0]!.id;
}

/** Inserts `count` entries of a customer in a category; returns their ids in order. */
export async function addContests(app: FastifyInstance, customerId: number, categoryId: number, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    ids.push(
      (
        await sql<{ id: number }>`insert into contests (customer_id, category_id, status, strategy, insight, creative_idea, other)
        values (${customerId}, ${categoryId}, 'approved', ${`Strategy ${i}`}, ${`Insight ${i}`}, ${`Idea ${i}`}, 'Case study by the agency') returning id`.execute(
          app.db,
        )
      ).rows[0]!.id,
    );
  }
  return ids;
}

/** Inserts a juror and returns its id. */
export async function addJuror(app: FastifyInstance, n: number, company: string | null, round = 1, active = true): Promise<number> {
  return (
    await sql<{ id: number }>`insert into juries (name, email, company, country, round, is_active)
      values (${`Juror ${n}`}, ${`juror${n}@jury.test`}, ${company}, 'MY', ${round}, ${active}) returning id`.execute(app.db)
  ).rows[0]!.id;
}

/** Creates a juror's sign-in account linked to `juryId` and returns a client signed in with it. */
export async function jurorClient(app: FastifyInstance, juryId: number): Promise<TestClient> {
  const email = `juror-account-${juryId}@jury.test`;
  await sql`insert into users (email, name, password_hash, role, jury_id) values (${email}, ${`Juror account ${juryId}`}, ${await hashPassword(JUROR_PASSWORD, { N: 2 ** 10, r: 8, p: 1 })}, 'juror', ${juryId})`.execute(
    app.db,
  );
  const client = await new TestClient(app).init();
  await client.signIn(email, JUROR_PASSWORD);
  return client;
}

/**
 * Creates an exam through the API (draft) and opens it unless `open` is false; `extra` adds fields
 * (`parallel_panel: true` for a second Round 1 exam of a category and edition).
 */
export async function addExam(client: TestClient, categoryId: number, round = 1, open = true, extra: Record<string, unknown> = {}): Promise<number> {
  const res = await client.post('/api/exams', {
    name: `Exam ${categoryId}-${round}`,
    category_id: categoryId,
    round,
    max_score: 100,
    criteria: CRITERIA,
    ...extra,
  });
  if (res.status !== 201) throw new Error(`exam: ${res.status} ${JSON.stringify(res.body)}`);
  if (open) {
    const opened = await client.post(`/api/exams/${res.body.data.id}/status`, { status: 'open' });
    if (opened.status !== 200) throw new Error(`open exam: ${opened.status} ${JSON.stringify(opened.body)}`);
  }
  return res.body.data.id;
}
