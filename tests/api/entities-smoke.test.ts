import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TestClient, type TestApp } from '../helpers/test-app.js';

describe('smoke', () => {
  let t: TestApp;
  let client: TestClient;
  beforeAll(async () => {
    t = await startTestApp('pglite');
    client = await new TestClient(t.app).init();
    await client.signIn();
  });
  afterAll(async () => t?.close());
  it('works', async () => {
    const meta = await client.get('/api/meta/entities');
    console.log(meta.status, JSON.stringify(meta.body).slice(0, 300));
    let res = await client.post('/api/categories', { name: 'Best Use of Social', description: 'A long description', status: 'active' });
    console.log(res.status, res.body, res.headers.etag);
    res = await client.post('/api/categories', { name: 'Best Use of Social', description: 'A long description' });
    console.log(res.status, res.body);
    res = await client.post('/api/categories', { name: '', description: 'short', constructor: 'x', extra: 1 });
    console.log(res.status, JSON.stringify(res.body));
    res = await client.get('/api/categories?sort=name&q[x]=1');
    console.log(res.status, JSON.stringify(res.body));
    res = await client.get('/api/categories?sort=name');
    console.log(res.status, JSON.stringify(res.body));
    res = await client.put('/api/categories/1', { name: 'Renamed', description: 'A long description', status: 'inactive' }, { 'if-match': 'W/"1-0"' });
    console.log(res.status, JSON.stringify(res.body));
    res = await client.put('/api/categories/1', { name: 'Renamed', description: 'A long description', status: 'inactive' });
    console.log(res.status, JSON.stringify(res.body));
    res = await client.get('/api/companies?status=active&search=x');
    console.log(res.status, JSON.stringify(res.body));
    res = await client.get('/api/companies/abc');
    console.log(res.status, JSON.stringify(res.body));
    res = await client.delete('/api/categories/1');
    console.log(res.status, JSON.stringify(res.body));
    expect(1).toBe(1);
  });
});
