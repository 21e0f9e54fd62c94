// Fuzzing every HTTP route in-process (createApp(...).request, a real SQLite store, tokens configured
// and open mode): bodies of random bytes, arbitrary JSON and near-valid requests, hostile query
// strings and path ids, wrong methods and content types. Properties: no request is answered 500; every
// error is a problem document with a catalogued code and the status it carries; a refusal carrying reasons
// names codes from the catalogue; no text the gate writes (problems, reasons, rails, hook answers) holds a
// control, bidi or line-separator character (stored records, such as a read's output, come back as given).
import { createGate, loadPolicy, REASONS, type Store } from '@tollgate/core';
import { createApp, FAULT_STATUS, HTTP_PROBLEMS } from '@tollgate/http';
import { openStore } from '@tollgate/store';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusRead, TOOLS_POLICY, tempDir } from '../support/gate.js';
import { anyText, forbiddenIn, holds, nastyJson, nastyString } from './support.js';

const TOKENS = [
  { token: 'fuzz-agent-token-0123', agent: 'fuzzer', sessions: ['fuzz-*'] },
  { token: 'fuzz-operator-token-01', agent: 'root', operator: true },
  { token: 'fuzz-hook-token-012345', agent: 'hooker', hook: true },
];

let store: Store;
let apps: { name: string; request: (path: string, init: RequestInit) => Promise<Response> }[];
beforeAll(async () => {
  store = await openStore(`${tempDir('tollgate-fuzz-http-')}/gate.db`);
  const gate = createGate({
    policy: loadPolicy([TOOLS_POLICY, 'builtin:shell', 'builtin:mcp']),
    store,
    channel: 'http',
  });
  const secured = createApp({ gate, store, tokens: TOKENS, maxBodyBytes: 64 * 1024 });
  const open = createApp({ gate, store, rateLimit: { per_s: 1000, burst: 1000 } });
  apps = [
    { name: 'tokens', request: async (p, i) => secured.request(p, i) },
    { name: 'open', request: async (p, i) => open.request(p, i) },
  ];
});
afterAll(async () => {
  await store.close();
});

const ROUTES: [string, string][] = [
  ['POST', '/v1/check'],
  ['POST', '/v1/observations'],
  ['POST', '/v1/predictions'],
  ['POST', '/v1/declines'],
  ['POST', '/v1/calls/{id}/outcome'],
  ['GET', '/v1/audit'],
  ['GET', '/v1/audit/verify'],
  ['GET', '/v1/audit/{id}'],
  ['POST', '/v1/audit/replay'],
  ['GET', '/v1/report'],
  ['GET', '/v1/rules'],
  ['POST', '/v1/overrides'],
  ['POST', '/v1/hooks/claude-code'],
  ['GET', '/healthz'],
  ['GET', '/openapi.json'],
  ['GET', '/'],
];

const call = fc.record(
  {
    tool: fc.oneof(fc.constantFrom('deploy', 'shell', 'release_status', 'db_execute'), anyText),
    args: fc.oneof(
      fc.record({ command: anyText }),
      fc.record({ service: anyText, env: fc.constantFrom('production', 'dev') }),
      fc.dictionary(anyText, nastyJson, { maxKeys: 3 }),
    ),
    session: fc.oneof(fc.constantFrom('fuzz-1', 'other'), anyText),
    agent: anyText,
  },
  { requiredKeys: ['tool'] },
);
const doc = fc.oneof(
  nastyJson,
  fc.record({
    claims: fc.array(fc.record({ subject: fc.constant(statusRead), op: anyText, value: nastyJson }), {
      maxLength: 2,
    }),
    evidence: fc.array(fc.record({ source: fc.constant(statusRead), quote: anyText }), { maxLength: 2 }),
  }),
);
const body = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ call, envelope: fc.record({ prediction: doc }) }, { requiredKeys: [] }),
  },
  { weight: 2, arbitrary: fc.record({ call, prediction: doc, decline: doc }, { requiredKeys: [] }) },
  {
    weight: 2,
    arbitrary: fc.record(
      {
        session: anyText,
        source: fc.oneof(anyText, fc.constant(statusRead)),
        output: anyText,
        agent: anyText,
      },
      { requiredKeys: [] },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record(
      { reason: anyText, session: anyText, rule: anyText, call_digest: anyText, ttl_s: fc.integer() },
      { requiredKeys: [] },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        hook_event_name: fc.constantFrom('PreToolUse', 'PostToolUse'),
        session_id: anyText,
        tool_name: anyText,
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 2, arbitrary: nastyJson },
);
const rawBody = fc.oneof(
  { weight: 5, arbitrary: body.map((b) => JSON.stringify(b) ?? 'null') },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('', '{', '[[[[[[[[[[', '{"call":', `${'['.repeat(5000)}${']'.repeat(5000)}`),
  },
  { weight: 1, arbitrary: fc.integer({ min: 60_000, max: 80_000 }).map((n) => `{"x":"${'a'.repeat(n)}"}`) },
);
const id = fc.oneof(
  fc.constantFrom('01ARZ3NDEKTSV4RRFFQ69G5FAV', 'x', '%00', '..%2F..', '%E2%80%AE'),
  nastyString(30).map(encoded),
);
const query = fc
  .dictionary(
    fc.constantFrom('session', 'agent', 'since', 'until', 'limit', 'kind', 'by', 'ref', 'rule', 'x'),
    fc.oneof(anyText, fc.integer().map(String), fc.constantFrom('-1', '1e309', 'NaN', '2026-11-22')),
    { maxKeys: 4 },
  )
  .map((q) => new URLSearchParams(q).toString());
const request = fc.record({
  route: fc.constantFrom(...ROUTES),
  method: fc.oneof(fc.constant(undefined), fc.constantFrom('GET', 'POST', 'PUT', 'DELETE')),
  id,
  query,
  body: rawBody,
  type: fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    '',
    'application/x+json',
  ),
  auth: fc.constantFrom(undefined, ...TOKENS.map((t) => `Bearer ${t.token}`), 'Bearer nope', 'Basic x'),
  app: fc.integer({ min: 0, max: 1 }),
});

describe('fuzz: every HTTP route', () => {
  it('answers every request without a 500, errors as coded problems, in clean text', async () => {
    const known = new Set<string>([
      ...Object.keys(REASONS),
      ...Object.keys(HTTP_PROBLEMS),
      ...Object.keys(FAULT_STATUS),
    ]);
    await holds(
      'http routes',
      fc.asyncProperty(request, async (r) => {
        const app = apps[r.app];
        if (!app) throw new Error('no app');
        const method = r.method ?? r.route[0];
        const path = `${r.route[1].replace('{id}', r.id)}${r.query ? `?${r.query}` : ''}`;
        const headers: Record<string, string> = {};
        if (r.type) headers['content-type'] = r.type;
        if (r.auth) headers.authorization = r.auth;
        const init: RequestInit = { method, headers };
        if (method !== 'GET' && method !== 'HEAD') init.body = r.body as NonNullable<RequestInit['body']>;
        const res = await app.request(path, init);
        const text = await res.text();
        expect(res.status, `${method} ${path} → ${res.status}: ${text.slice(0, 300)}`).toBeLessThan(500);
        const type = res.headers.get('content-type') ?? '';
        // What the gate writes (problems, verdicts' reasons and rails, hook answers) is clean on the
        // wire and once parsed; records the client stored (an observation's output) come back as given.
        const written = res.status >= 400 || (method === 'POST' && /check|hooks/.test(path));
        if (written) expect(FORBIDDEN_RAW.test(text), text.slice(0, 300)).toBe(false);
        if (res.status >= 400 && type.includes('json')) {
          const problem = JSON.parse(text);
          expect(typeof problem.code, text.slice(0, 300)).toBe('string');
          expect(problem.status).toBe(res.status);
          expect(known.has(problem.code), problem.code).toBe(true);
          for (const reason of problem.reasons ?? []) expect(Object.keys(REASONS)).toContain(reason.code);
        }
        if (written && type.includes('json')) {
          const doc = JSON.parse(text);
          const gateText =
            res.status >= 400 || path.includes('hooks') ? doc : { r: doc.reasons, x: doc.rails };
          expect(forbiddenIn(gateText), text.slice(0, 300)).toBeUndefined();
        }
      }),
      250,
    );
  });
});

/** The text as a path segment; a lone surrogate becomes its (invalid) UTF-8 bytes, %ED%A0%80. */
function encoded(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
}

/** A raw control or separator character on the wire (JSON escapes them; the body must too). */
const FORBIDDEN_RAW =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
