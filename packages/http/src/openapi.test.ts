// The served OpenAPI document is the checked-in packages/http/openapi.json (regenerate with
// TOLLGATE_WRITE_OPENAPI=1 npx vitest run --project http openapi); every $ref resolves; every route
// the app serves is described, and every described path is served.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openApiDocument } from './openapi.js';
import { serveTestApp, type TestServer } from './testing/serve-test-app.js';

const FILE = join(import.meta.dirname, '..', 'openapi.json');

let s: TestServer;
beforeAll(async () => {
  s = await serveTestApp();
});
afterAll(() => s.close());

test('the served document is the checked-in one', async () => {
  const served = await s.call('GET', '/openapi.json');
  expect(served.status).toBe(200);
  if (process.env.TOLLGATE_WRITE_OPENAPI === '1')
    writeFileSync(FILE, `${JSON.stringify(served.body, null, 2)}\n`);
  const checkedIn = JSON.parse(readFileSync(FILE, 'utf8'));
  expect(served.body, 'openapi.json drifted: regenerate it (see the header of this test)').toEqual(checkedIn);
});

test('every $ref points at something in the document', () => {
  const doc = openApiDocument();
  const refs: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object')
      for (const [k, v] of Object.entries(node))
        k === '$ref' && typeof v === 'string' ? refs.push(v) : walk(v);
  };
  walk(doc);
  expect(refs.length).toBeGreaterThan(30);
  for (const ref of refs) {
    expect(ref.startsWith('#/'), ref).toBe(true);
    let at: unknown = doc;
    for (const part of ref.slice(2).split('/')) at = (at as Record<string, unknown>)?.[part];
    expect(at, ref).toBeDefined();
  }
});

test('the document and the app describe the same routes', async () => {
  const doc = openApiDocument() as { paths: Record<string, Record<string, unknown>> };
  for (const [path, methods] of Object.entries(doc.paths)) {
    const concrete = path.replace(/\{[^}]+\}/g, '01ARZ3NDEKTSV4RRFFQ69G5FAV');
    for (const method of Object.keys(methods)) {
      const r = await s.call(method.toUpperCase(), concrete, method === 'post' ? {} : undefined);
      expect(
        [404, 405].includes(r.status) && ['route_not_found', 'method_not_allowed'].includes(r.body?.code),
        `${method} ${path}`,
      ).toBe(false);
    }
  }
  const described = new Set(Object.keys(doc.paths).map((p) => p.replace(/\{([^}]+)\}/g, ':$1')));
  const routes = (await import('./app.js')).createApp({ gate: s.gate, store: s.store }).routes;
  for (const route of routes)
    if (!route.path.includes('*')) expect(described.has(route.path), route.path).toBe(true);
});
