import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startSignedInApp, type TestApp, type TestClient } from '../helpers/test-app.js';

describe.each(testDatabaseKinds())('same-named categories created at once on %s', (kind) => {
  let t: TestApp;
  let client: TestClient;

  beforeAll(async () => {
    ({ t, client } = await startSignedInApp(kind));
  });
  afterAll(async () => t?.close());

  const create = (name: string) => client.post('/api/categories', { name, description: 'Made at the same moment', status: 'active' });

  it('gives 20 concurrent creates of one name 20 distinct slugs, and none a conflict', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => create('Best Use of Social')));
    expect(
      answers.map((a) => a.status),
      JSON.stringify(answers.find((a) => a.status !== 201)?.body),
    ).toEqual(Array(20).fill(201));
    const slugs = answers.map((a) => a.body.data.slug as string).sort();
    expect(new Set(slugs).size).toBe(20);
    expect(slugs).toContain('best-use-of-social');
    expect(slugs).toContain('best-use-of-social-20');
  });

  it('keeps a name that ends in a number apart from the numbered slugs of another name', async () => {
    const answers = await Promise.all([...Array.from({ length: 5 }, () => create('Gold')), create('Gold 2'), create('Gold 3')]);
    expect(answers.map((a) => a.status)).toEqual(Array(7).fill(201));
    expect(new Set(answers.map((a) => a.body.data.slug)).size).toBe(7);
  });
});
