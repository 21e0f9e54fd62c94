// Reviews over HTTP (issue 13): a call a rule sends to a person is refused naming the request and where
// to poll it; the agent polls its own request only; an operator token answers it once (audited, 409 on
// a second answer); the approved call passes exactly once, the next needs a new review; a denial is
// final; no agent token — nor the operator token that made the call — answers a request.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveTestApp, type TestServer } from '../packages/http/src/testing/serve-test-app.js';

const POLICY = join(import.meta.dirname, 'fixtures/review.policy.yaml');
const BOT = 'bot-token-0123456789abcdef';
const CI = 'ci-token-0123456789abcdef0';
const OPS = 'ops-token-0123456789abcdef';
const OPS2 = 'ops2-token-0123456789abcde';
const as = (token: string) => ({ authorization: `Bearer ${token}` });
const rotate = (session = 's1') => ({ tool: 'rotate_keys', args: { env: 'production' }, session });

let s: TestServer;
beforeAll(async () => {
  s = await serveTestApp({
    policies: [POLICY],
    tokens: [
      { token: BOT, agent: 'bot' },
      { token: CI, agent: 'ci', sessions: ['release-*'] },
      { token: OPS, agent: 'ops', operator: true },
      { token: OPS2, agent: 'ops2', operator: true },
    ],
  });
});
afterAll(() => s?.close());

const check = (token: string, call = rotate()) => s.call('POST', '/v1/check', { call }, as(token));
const answer = (token: string, id: string, action: 'approve' | 'deny', body: unknown) =>
  s.call('POST', `/v1/reviews/${id}/${action}`, body, as(token));

describe('a review over HTTP', () => {
  it('refused with the id and where to poll; an operator approves once; the call passes exactly once', async () => {
    const refused = await check(BOT);
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ outcome: 'rejected', reasons: [{ code: 'review_required' }] });
    const id: string = refused.body.review_id;
    expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(refused.body.reasons[0].message).toContain(`GET /v1/reviews/${id}`);
    expect(refused.body.rails.text).toContain(`Poll GET /v1/reviews/${id}`);
    expect(refused.body.rails.text).not.toContain('Attach a prediction');
    // Retrying while it waits names the same request.
    expect((await check(BOT)).body.review_id).toBe(id);

    // The agent polls its own request and sees its state, not the person-side fields.
    const polled = await s.call('GET', `/v1/reviews/${id}`, undefined, as(BOT));
    expect(polled.status).toBe(200);
    expect(polled.body).toMatchObject({
      id,
      state: 'pending',
      rule: 'keys.rotate.review',
      session: 'bot/s1',
    });
    for (const hidden of ['envelope', 'rails', 'approvers', 'answered_by', 'agent', 'status'])
      expect(polled.body).not.toHaveProperty(hidden);
    // Another agent neither polls nor lists it.
    expect((await s.call('GET', `/v1/reviews/${id}`, undefined, as(CI))).status).toBe(404);
    expect((await s.call('GET', '/v1/reviews', undefined, as(CI))).body).toEqual([]);
    expect((await s.call('GET', '/v1/reviews?agent=bot', undefined, as(CI))).status).toBe(403);
    const mine = await s.call('GET', '/v1/reviews', undefined, as(BOT));
    expect(mine.body.map((r: { id: string }) => r.id)).toEqual([id]);

    // The agent cannot approve its own request.
    const self = await answer(BOT, id, 'approve', { reason: 'trust me' });
    expect(self.status).toBe(403);
    expect(self.body).toMatchObject({ code: 'forbidden' });
    expect(self.type).toContain('application/problem+json');
    expect(await s.store.listAudit({ kind: 'review' })).toEqual([]);

    // An operator answers, with a reason; a second answer of either kind is a 409.
    expect((await answer(OPS, id, 'approve', {})).status).toBe(422);
    const approved = await answer(OPS, id, 'approve', { reason: 'rotation window is open' });
    expect(approved.status).toBe(200);
    expect(approved.body.review).toMatchObject({ id, state: 'approved', answered_by: 'ops' });
    const rows = await s.store.listAudit({ kind: 'review' });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: approved.body.audit_id,
      review: { id, answer: 'approved', person: 'ops', reason: 'rotation window is open' },
    });
    for (const action of ['approve', 'deny'] as const) {
      const again = await answer(OPS2, id, action, { reason: 'second opinion' });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ code: 'conflict' });
    }
    expect(await s.store.listAudit({ kind: 'review' })).toHaveLength(1);
    expect((await s.call('GET', `/v1/reviews/${id}`, undefined, as(BOT))).body.state).toBe('approved');

    // The same call passes once; the approval is used up; the next attempt files a new request.
    const passed = await check(BOT);
    expect(passed.body).toMatchObject({
      outcome: 'dispatch',
      review_id: id,
      reasons: [{ code: 'review_approved' }],
    });
    expect((await s.call('GET', `/v1/reviews/${id}`, undefined, as(BOT))).body.state).toBe('used');
    const next = await check(BOT);
    expect(next.body.outcome).toBe('rejected');
    expect(next.body.review_id).not.toBe(id);
  });

  it('a denial is final for the request, and the agent reads why', async () => {
    const call = rotate('s-deny');
    const id: string = (await check(BOT, call)).body.review_id;
    const denied = await answer(OPS, id, 'deny', { reason: 'not during the freeze', operator: 'alice' });
    expect(denied.status).toBe(200);
    expect(denied.body.review).toMatchObject({ state: 'denied', answered_by: 'alice (token ops)' });
    const after = await check(BOT, call);
    expect(after.body).toMatchObject({ outcome: 'rejected', review_id: id });
    expect(after.body.reasons[0].message).toContain('denied');
    const polled = (await s.call('GET', `/v1/reviews/${id}`, undefined, as(BOT))).body;
    expect(polled).toMatchObject({ state: 'denied', answer_reason: 'not during the freeze' });
    expect((await answer(OPS, id, 'approve', { reason: 'changed my mind' })).status).toBe(409);
  });

  it('two operators answering at once: exactly one answer is recorded', async () => {
    const id: string = (await check(BOT, rotate('s-race'))).body.review_id;
    const replies = await Promise.all([
      answer(OPS, id, 'approve', { reason: 'go' }),
      answer(OPS2, id, 'deny', { reason: 'stop' }),
      answer(OPS2, id, 'approve', { reason: 'go too' }),
    ]);
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const rows = (await s.store.listAudit({ kind: 'review' })).filter((r) => r.review?.id === id);
    expect(rows).toHaveLength(1);
  });

  it('an expired request cannot be answered: waiting never approves', async () => {
    const call = rotate('s-late');
    const id: string = (await check(BOT, call)).body.review_id;
    s.clock.advance(24 * 3600 + 1);
    expect((await s.call('GET', `/v1/reviews/${id}`, undefined, as(BOT))).body.state).toBe('expired');
    const late = await answer(OPS, id, 'approve', { reason: 'sorry, was away' });
    expect(late.status).toBe(409);
    expect(late.body.detail).toContain('expired');
    const retried = await check(BOT, call);
    expect(retried.body.outcome).toBe('rejected');
    expect(retried.body.review_id).not.toBe(id);
  });

  it('the operator token that made the call does not answer its review; another operator does', async () => {
    const id: string = (await check(OPS, rotate('ops-own'))).body.review_id;
    const own = await answer(OPS, id, 'approve', { reason: 'mine' });
    expect(own.status).toBe(403);
    expect(own.body.detail).toContain('another operator');
    expect((await answer(OPS2, id, 'approve', { reason: 'checked' })).status).toBe(200);
  });

  it('an operator lists the queue with the filters of tollgate review list', async () => {
    const all = await s.call('GET', '/v1/reviews?limit=500', undefined, as(OPS));
    expect(all.status).toBe(200);
    expect(all.body.length).toBeGreaterThanOrEqual(4);
    const pending = await s.call('GET', '/v1/reviews?status=pending', undefined, as(OPS));
    expect(pending.body.every((r: { status: string }) => r.status === 'pending')).toBe(true);
    const bySession = await s.call('GET', '/v1/reviews?session=bot/s-deny&agent=bot', undefined, as(OPS));
    expect(bySession.body).toHaveLength(1);
    expect(bySession.body[0]).toMatchObject({ agent: 'bot', state: 'denied', approvers: ['operator'] });
    expect((await s.call('GET', '/v1/reviews?limit=1', undefined, as(OPS))).body).toHaveLength(1);
  });

  it('bad input gets a problem naming it', async () => {
    const bad = await s.call('GET', '/v1/reviews?status=maybe&limit=0', undefined, as(OPS));
    expect(bad.status).toBe(422);
    expect(bad.body.problems.map((p: { path: string }) => p.path).sort()).toEqual([
      '/query/limit',
      '/query/status',
    ]);
    const notUlid = await s.call('GET', '/v1/reviews/../../etc', undefined, as(OPS));
    expect(notUlid.status).toBeGreaterThanOrEqual(400);
    expect((await s.call('GET', '/v1/reviews/not-a-ulid', undefined, as(OPS))).body.code).toBe('invalid_id');
    const missing = await answer(OPS, '01ARZ3NDEKTSV4RRFFQ69G5FAV', 'approve', { reason: 'x' });
    expect(missing).toMatchObject({ status: 404, body: { code: 'not_found' } });
    const id: string = (await check(BOT, rotate('s-bad'))).body.review_id;
    const text = await s.call('POST', `/v1/reviews/${id}/approve`, 'reason=ok', {
      ...as(OPS),
      'content-type': 'text/plain',
    });
    expect(text.status).toBe(415);
    const extra = await answer(OPS, id, 'approve', { reason: 'ok', approve_all: true });
    expect(extra.status).toBe(422);
    expect((await answer(OPS, id, 'approve', { reason: '   ' })).body.code).toBe('input_invalid');
    expect((await answer(OPS, id, 'approve', { reason: 7 })).status).toBe(422);
    expect((await s.call('GET', `/v1/reviews/${id}`, undefined, as(BOT))).body.state).toBe('pending');
    expect((await s.call('GET', '/v1/reviews')).status).toBe(401);
  });
});

describe('open mode (no tokens)', () => {
  it('lists and shows reviews, but grants no approval: the agent on this machine would approve itself', async () => {
    const open = await serveTestApp({ policies: [POLICY] });
    try {
      const id: string = (await open.call('POST', '/v1/check', { call: rotate() })).body.review_id;
      expect((await open.call('GET', `/v1/reviews/${id}`)).body).toMatchObject({ id, state: 'pending' });
      const refused = await open.call('POST', `/v1/reviews/${id}/approve`, { reason: 'me' });
      expect(refused.status).toBe(403);
      expect(refused.body.detail).toContain('open mode');
      expect(refused.body.detail).toContain('tollgate review approve ID');
      expect((await open.call('GET', `/v1/reviews/${id}`)).body.state).toBe('pending');
      expect(await open.store.listAudit({ kind: 'review' })).toEqual([]);
    } finally {
      await open.close();
    }
  });
});
