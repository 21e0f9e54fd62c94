// The limits over HTTP: limits.http_rate per token (429 + Retry-After, recovered once the bucket
// refills, another token untouched, the hook route exempt) and the session caps as 429 problems
// naming the limit; every refusal is counted in /metrics.
import { afterEach, describe, expect, it } from 'vitest';
import { deployCall, statusRead } from '../../../test/support/gate.js';
import { rateLimiter } from './rate-limit.js';
import { serveTestApp, type TestServer } from './testing/serve-test-app.js';

const TOKENS = [
  { token: 'alice-token-0123456789', agent: 'alice', sessions: ['alice-*'] },
  { token: 'bob-token-0123456789ab', agent: 'bob', sessions: ['bob-*'] },
];
const as = (token: string) => ({ authorization: `Bearer ${token}` });

describe('rateLimiter', () => {
  it('lets a burst through, then one request per refill, and says how long to wait', () => {
    let now = 0;
    const limiter = rateLimiter({ per_s: 2, burst: 3 }, { now: () => now });
    expect([1, 2, 3].map(() => limiter.take('k').ok)).toEqual([true, true, true]);
    expect(limiter.take('k')).toEqual({ ok: false, retryAfterS: 1 });
    expect(limiter.take('other').ok).toBe(true);
    now += 500; // half a second: one request's worth at 2/s
    expect(limiter.take('k').ok).toBe(true);
    expect(limiter.take('k').ok).toBe(false);
    now += 10_000; // refills to the burst, not beyond
    expect([1, 2, 3, 4].map(() => limiter.take('k').ok)).toEqual([true, true, true, false]);
  });

  it('rounds a slow rate up to whole seconds', () => {
    const limiter = rateLimiter({ per_s: 0.1 }, { now: () => 0 });
    expect(limiter.take('k').ok).toBe(true);
    expect(limiter.take('k')).toEqual({ ok: false, retryAfterS: 10 });
  });
});

describe('limits over HTTP', () => {
  let s: TestServer;
  afterEach(() => s.close());

  it('answers a token past limits.http_rate with 429 and Retry-After, and lets it in again after', async () => {
    s = await serveTestApp({ tokens: TOKENS, rateLimit: { per_s: 1, burst: 2 } });
    const check = (token: string, session: string) =>
      s.call('POST', '/v1/check', { call: { tool: 'list_files', args: {}, session } }, as(token));
    expect((await check(TOKENS[0]!.token, 'alice-1')).status).toBe(200);
    expect((await check(TOKENS[0]!.token, 'alice-1')).status).toBe(200);
    const refused = await check(TOKENS[0]!.token, 'alice-1');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body).toMatchObject({ code: 'rate_limited', status: 429 });
    // Another token has its own bucket; an unauthenticated request is refused before it costs one.
    expect((await check(TOKENS[1]!.token, 'bob-1')).status).toBe(200);
    expect((await s.call('POST', '/v1/check', { call: deployCall('alice-1') })).status).toBe(401);
    s.clock.advance(1);
    expect((await check(TOKENS[0]!.token, 'alice-1')).status).toBe(200);
    const metrics: string = (await s.call('GET', '/metrics')).body;
    expect(metrics).toContain('tollgate_limit_refusals_total{limit="http_rate"} 1');
    expect(metrics).toContain('tollgate_limit{limit="http_rate"} 1');
  });

  it('answers a read past the session cap with 429 limit_exceeded naming the limit', async () => {
    s = await serveTestApp({ limits: { observations: 1 } });
    const post = (session: string) =>
      s.call('POST', '/v1/observations', { session, source: statusRead, output: 'api: running build 41' });
    expect((await post('o-1')).status).toBe(201);
    const refused = await post('o-1');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBeNull();
    expect(refused.body).toMatchObject({ code: 'limit_exceeded', limit: 'session_observations' });
    expect((await post('o-2')).status).toBe(201);
    const metrics: string = (await s.call('GET', '/metrics')).body;
    expect(metrics).toContain('tollgate_limit_refusals_total{limit="session_observations"} 1');
  });

  it('answers a prediction past the pending-ticket cap with 429, and files again once one is used', async () => {
    s = await serveTestApp({ limits: { pendingTickets: 1 } });
    const file = async (service: string) => {
      s.clock.advance(1);
      const source = { tool: 'release_status', args: { service } };
      await s.call('POST', '/v1/observations', { session: 'p-1', source, output: `${service}: build 41` });
      return s.call('POST', '/v1/predictions', {
        call: { tool: 'deploy', args: { service, env: 'production' }, session: 'p-1' },
        prediction: {
          claims: [{ subject: source, op: 'contains', value: 'build 42' }],
          evidence: [{ source, quote: `${service}: build 41` }],
        },
      });
    };
    expect((await file('api')).status).toBe(201);
    const refused = await file('web');
    expect(refused).toMatchObject({ status: 429, body: { limit: 'session_pending_tickets' } });
    s.clock.advance(1);
    const used = await s.call('POST', '/v1/check', {
      call: { tool: 'deploy', args: { service: 'api', env: 'production' }, session: 'p-1' },
    });
    expect(used.body.outcome).toBe('dispatch');
    expect((await file('web')).status).toBe(201);
  });
});
