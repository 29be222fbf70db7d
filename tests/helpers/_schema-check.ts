// TEMPORARY (helper verification, not to commit): compares each JSON answer as the handler gave it
// (JSON round trip) with the answer the response schema serialised.
import fs from 'node:fs';
import fp from 'fastify-plugin';
import { registerServerFeature } from '../../src/server/index.js';

const OUT = '/tmp/schemacheck/mismatch.jsonl';
const seen = '/tmp/schemacheck/seen.jsonl';

function diff(a: unknown, b: unknown, path: string, out: string[]) {
  if (out.length > 20) return;
  if (a === b) return;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') {
    out.push(`${path}: ${JSON.stringify(a)?.slice(0, 80)} → ${JSON.stringify(b)?.slice(0, 80)}`);
    return;
  }
  if (Array.isArray(a) !== Array.isArray(b)) return void out.push(`${path}: array mismatch`);
  const keys = new Set([...Object.keys(a as object), ...Object.keys(b as object)]);
  for (const k of keys) diff((a as any)[k], (b as any)[k], `${path}.${k}`, out);
}

registerServerFeature({
  name: 'zz-schema-check',
  setup: fp(async (app) => {
    const raw = new WeakMap<object, unknown>();
    app.addHook('preSerialization', async (request, _reply, payload) => {
      if (payload && typeof payload === 'object' && !Buffer.isBuffer(payload)) raw.set(request, JSON.parse(JSON.stringify(payload)));
      return payload;
    });
    app.addHook('onSend', async (request, reply, payload) => {
      const before = raw.get(request);
      if (before === undefined || typeof payload !== 'string') return payload;
      const route = `${request.method} ${request.routeOptions.url}`;
      fs.appendFileSync(seen, `${JSON.stringify({ route, status: reply.statusCode })}\n`);
      let after: unknown;
      try {
        after = JSON.parse(payload);
      } catch {
        return payload;
      }
      const out: string[] = [];
      diff(before, after, '', out);
      if (out.length) fs.appendFileSync(OUT, `${JSON.stringify({ route, status: reply.statusCode, out })}\n`);
      return payload;
    });
  }),
});
