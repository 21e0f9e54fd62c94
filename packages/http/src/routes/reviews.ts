// GET /v1/reviews (the queue, newest first; filters as `tollgate review list`), GET /v1/reviews/{id}
// (an operator sees the whole request; the agent whose call waits polls its state, its own sessions
// only), POST /v1/reviews/{id}/approve|deny (operator tokens only, at most once, audited) — through
// core's answerReview, the function `tollgate review approve|deny` uses.
import { answerReview, type ReviewRecord, reviewStatusView, reviewView } from '@tollgate/core';
import type { Context, Hono } from 'hono';
import type { Principal } from '../auth.js';
import { readJson } from '../body.js';
import type { Deps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { requireOperator } from '../operator.js';
import { httpProblem, problemFor, sendProblem, shapeProblem } from '../problem.js';
import { isUlid } from '../query.js';
import { checkShape } from '../request-shape.js';
import { parseReviewQuery } from '../review-query.js';
import { reachesSession, scopeQuery } from '../sessions.js';

interface AnswerRequest {
  reason: string;
  operator?: string;
}

/** A person (operator or open mode) reads everything; an agent only its own requests in its sessions. */
function mayFollow(principal: Principal, review: ReviewRecord): boolean {
  if (principal.agent === undefined || principal.operator) return true;
  return review.agent === principal.agent && reachesSession(principal, review.session);
}

const isPerson = (p: Principal) => p.agent === undefined || p.operator;

export function reviewRoutes(app: Hono<AppEnv>, deps: Deps): void {
  app.get('/v1/reviews', async (c) => {
    const parsed = parseReviewQuery(c.req.query());
    if (!parsed.ok) return shapeProblem(c, parsed.problems);
    const principal = c.get('principal');
    const scoped = scopeQuery(principal, parsed.query);
    if (!scoped.ok) return httpProblem(c, 'forbidden', scoped.detail);
    const now = deps.clock.now();
    const rows = await deps.store.listReviews(scoped.query);
    if (isPerson(principal)) return c.json(rows.map((r) => reviewView(r, now)));
    return c.json(rows.filter((r) => mayFollow(principal, r)).map((r) => reviewStatusView(r, now)));
  });

  app.get('/v1/reviews/:id', async (c) => {
    const found = await findReview(c, deps);
    if (!found.ok) return found.response;
    const now = deps.clock.now();
    const view = isPerson(c.get('principal'))
      ? reviewView(found.review, now)
      : reviewStatusView(found.review, now);
    return c.json(view);
  });

  for (const action of ['approve', 'deny'] as const) {
    app.post(`/v1/reviews/:id/${action}`, async (c) => {
      const operator = requireOperator(c, 'answers to reviews', `tollgate review ${action} ID --reason …`);
      if (!operator.ok) return operator.response;
      const found = await findReview(c, deps);
      if (!found.ok) return found.response;
      // Whoever made the call does not answer for it, even with an operator token.
      if (found.review.agent === operator.operator)
        return httpProblem(
          c,
          'forbidden',
          `review ${found.review.id} waits on a call of agent ${JSON.stringify(operator.operator)}, the agent this token names: another operator answers it`,
        );
      const body = await readJson(c, deps.maxBodyBytes);
      if (!body.ok) return body.response;
      const shape = checkShape<AnswerRequest>('ReviewAnswerRequest', body.value);
      if (!shape.ok) return shapeProblem(c, shape.problems);
      const { reason, operator: named } = shape.value;
      const answered = await answerReview(deps.store, deps.clock, {
        id: found.review.id,
        answer: action === 'approve' ? 'approved' : 'denied',
        person: named === undefined ? operator.operator : `${named} (token ${operator.operator})`,
        reason,
      });
      if (!answered.ok) {
        const [code, status] =
          answered.code === 'not_pending'
            ? (['conflict', 409] as const)
            : answered.code === 'not_found'
              ? (['not_found', 404] as const)
              : (['input_invalid', 422] as const);
        return sendProblem(c, problemFor(code, status, answered.message));
      }
      return c.json({ review: reviewView(answered.review, deps.clock.now()), audit_id: answered.audit.id });
    });
  }
}

async function findReview(
  c: Context<AppEnv>,
  deps: Deps,
): Promise<{ ok: true; review: ReviewRecord } | { ok: false; response: Response }> {
  const id = c.req.param('id') ?? '';
  if (!isUlid(id))
    return {
      ok: false,
      response: httpProblem(c, 'invalid_id', `${JSON.stringify(id.slice(0, 64))} is not a ULID`),
    };
  const review = await deps.store.getReview(id);
  if (review === undefined || !mayFollow(c.get('principal'), review))
    return { ok: false, response: sendProblem(c, problemFor('not_found', 404, `no review ${id}`)) };
  return { ok: true, review };
}
