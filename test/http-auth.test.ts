// Bearer tokens over a real server: no token → 401; an agent cannot read, cite or consume another
// agent's observations or predictions, nor read or complete its audit rows; operators see across
// agents and alone may override; tokens never reach the log.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { serveTestApp, type TestServer } from '../packages/http/src/testing/serve-test-app.js';
import { deployCall, statusRead } from './support/gate.js';

const ALICE = 'alice-token-0123456789abcdef';
const BOB = 'bob-token-0123456789abcdef00';
const CAROL = 'carol-token-0123456789abcdef';
const OPS = 'ops-token-0123456789abcdef000';
const as = (token: string) => ({ authorization: `Bearer ${token}` });
const prediction = {
  claims: [{ subject: statusRead, op: 'contains', value: 'build 42' }],
  evidence: [{ source: statusRead, quote: 'build 41' }],
};
const codes = (body: { reasons: { code: string }[] }) => body.reasons.map((r) => r.code);

let s: TestServer;
const logs: string[] = [];
beforeAll(async () => {
  s = await serveTestApp({
    logs,
    tokens: [
      { token: ALICE, agent: 'alice' },
      { token: BOB, agent: 'bob' },
      { token: CAROL, agent: 'carol', sessions: ['release-*'] },
      { token: OPS, agent: 'ops', operator: true },
    ],
  });
});
afterAll(() => s.close());

describe('authentication', () => {
  test('no token or a wrong one → 401 problem JSON with WWW-Authenticate', async () => {
    for (const headers of [{}, as('not-a-token-at-all-000000'), { authorization: ALICE }]) {
      const r = await s.call('POST', '/v1/check', { call: deployCall('s1') }, headers);
      expect(r.status).toBe(401);
      expect(r.type).toContain('application/problem+json');
      expect(r.body).toMatchObject({ code: 'unauthorized', status: 401 });
      expect(r.headers.get('www-authenticate')).toContain('Bearer');
    }
    expect((await s.call('GET', '/v1/audit')).status).toBe(401);
  });

  test('health, metrics, openapi and the dashboard shell stay public', async () => {
    for (const path of ['/healthz', '/metrics', '/openapi.json', '/'])
      expect((await s.call('GET', path)).status).toBe(200);
  });
});

describe('agents are isolated', () => {
  test("bob cannot cite alice's read, nor consume alice's prediction", async () => {
    const read = await s.call(
      'POST',
      '/v1/observations',
      { session: 'shared', source: statusRead, output: 'api: build 41' },
      as(ALICE),
    );
    expect(read.status).toBe(201);
    expect(read.body).toMatchObject({ session: 'alice/shared', agent: 'alice' });

    const bobCites = await s.call(
      'POST',
      '/v1/check',
      { call: deployCall('shared'), envelope: { prediction } },
      as(BOB),
    );
    expect(codes(bobCites.body)).toEqual(['evidence_not_observed']);
    const bobById = await s.call(
      'POST',
      '/v1/predictions',
      {
        call: deployCall('shared'),
        prediction: { ...prediction, evidence: [{ observation: read.body.id, quote: 'build 41' }] },
      },
      as(BOB),
    );
    expect(bobById.status).toBe(422);
    expect(bobById.body.code).toBe('evidence_not_observed');

    const filed = await s.call(
      'POST',
      '/v1/predictions',
      { call: deployCall('shared'), prediction },
      as(ALICE),
    );
    expect(filed.status).toBe(201);
    const bobConsumes = await s.call('POST', '/v1/check', { call: deployCall('shared') }, as(BOB));
    expect(codes(bobConsumes.body)).toEqual(['prediction_missing']);
    const aliceUses = await s.call('POST', '/v1/check', { call: deployCall('shared') }, as(ALICE));
    expect(aliceUses.body).toMatchObject({ outcome: 'dispatch', prediction_id: filed.body.id });

    const bobReads = await s.call('GET', `/v1/audit/${aliceUses.body.audit_id}`, undefined, as(BOB));
    expect(bobReads.status).toBe(404);
    const bobCompletes = await s.call(
      'POST',
      `/v1/calls/${aliceUses.body.audit_id}/outcome`,
      { status: 'ok' },
      as(BOB),
    );
    expect(bobCompletes.status).toBe(404);
    const bobList = await s.call('GET', '/v1/audit?session=shared', undefined, as(BOB));
    expect(bobList.body.every((r: { agent: string }) => r.agent === 'bob')).toBe(true);
    const bobAsks = await s.call('GET', '/v1/audit?agent=alice', undefined, as(BOB));
    expect(bobAsks.status).toBe(403);
    const bobReport = await s.call('GET', '/v1/report', undefined, as(BOB));
    expect(Object.keys(bobReport.body.by_agent)).toEqual(['bob']);

    const aliceReads = await s.call('GET', `/v1/audit/${aliceUses.body.audit_id}`, undefined, as(ALICE));
    expect(aliceReads.status).toBe(200);
    const aliceCompletes = await s.call(
      'POST',
      `/v1/calls/${aliceUses.body.audit_id}/outcome`,
      { status: 'ok' },
      as(ALICE),
    );
    expect(aliceCompletes.status).toBe(201);
  });

  test('a token acts only for its own agent and its granted sessions', async () => {
    const other = await s.call(
      'POST',
      '/v1/check',
      { call: { ...deployCall('s'), agent: 'alice' } },
      as(BOB),
    );
    expect(other.status).toBe(403);
    expect(other.body.code).toBe('forbidden');
    const slash = await s.call('POST', '/v1/check', { call: deployCall('alice/shared') }, as(BOB));
    expect(slash.status).toBe(403);
    const outside = await s.call(
      'POST',
      '/v1/observations',
      { session: 'ci', source: statusRead, output: 'x' },
      as(CAROL),
    );
    expect(outside.status).toBe(403);
    const inside = await s.call(
      'POST',
      '/v1/observations',
      { session: 'release-9', source: statusRead, output: 'x' },
      as(CAROL),
    );
    expect(inside.body.session).toBe('release-9');
  });

  test('operators read across agents and alone may override', async () => {
    const all = await s.call('GET', '/v1/audit?limit=1000', undefined, as(OPS));
    const agents = new Set(all.body.map((r: { agent?: string }) => r.agent));
    expect(agents.has('alice') && agents.has('bob')).toBe(true);
    expect((await s.call('GET', '/v1/audit/verify', undefined, as(BOB))).status).toBe(403);
    expect((await s.call('GET', '/v1/audit/verify', undefined, as(OPS))).body.ok).toBe(true);

    const body = { reason: 'incident 12: hotfix deploy', ttl_s: 600, session: 'bob/hotfix' };
    expect((await s.call('POST', '/v1/overrides', body, as(BOB))).status).toBe(403);
    const override = await s.call('POST', '/v1/overrides', body, as(OPS));
    expect(override.status).toBe(201);
    expect(override.body).toMatchObject({ operator: 'ops', session: 'bob/hotfix', reason: body.reason });
    const let_through = await s.call('POST', '/v1/check', { call: deployCall('hotfix') }, as(BOB));
    expect(let_through.body).toMatchObject({ outcome: 'dispatch', override: override.body.id });
    expect(codes(let_through.body)).toEqual(['override_applied']);
    const unscoped = await s.call('POST', '/v1/overrides', { reason: 'everything', ttl_s: 60 }, as(OPS));
    expect(unscoped.status).toBe(422);
  });

  test('tokens and bodies never reach the log; request ids do', async () => {
    await s.call(
      'POST',
      '/v1/check',
      { call: deployCall('logged') },
      { ...as(ALICE), 'x-request-id': 'req-abc.1' },
    );
    const text = logs.join('');
    for (const token of [ALICE, BOB, CAROL, OPS]) expect(text).not.toContain(token);
    expect(text).not.toContain('production');
    expect(text).toContain('"req_id":"req-abc.1"');
  });
});
