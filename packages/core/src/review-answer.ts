// A person's answer to a review request: approve (the call may pass once, within APPROVAL_TTL_S) or
// deny (final for that request). Stored and audited in one transaction, at most once per request.
import type { AuditRow } from '@tollgate/contracts';
import { ulid } from 'ulid';
import type { Clock, ReviewRecord, Store } from './ports.js';
import { APPROVAL_TTL_S, reviewState } from './review.js';

export interface ReviewAnswerInput {
  id: string;
  answer: 'approved' | 'denied';
  /** Who answered: the person at the terminal, or the operator token's identity. */
  person: string;
  reason: string;
  /**
   * The call already ran: a person approved it in the host's own prompt and the host reports it ran
   * (a PostToolUse paired with the refused call). The approval is recorded used up, so it lets no
   * later call through.
   */
  consumed?: boolean;
}

export type ReviewAnswerResult =
  | { ok: true; review: ReviewRecord; audit: AuditRow }
  | { ok: false; code: 'not_found' | 'not_pending' | 'input_invalid'; message: string };

export async function answerReview(
  store: Pick<Store, 'getReview' | 'answerReview'>,
  clock: Clock,
  input: ReviewAnswerInput,
): Promise<ReviewAnswerResult> {
  if (input.reason.trim() === '' || input.person.trim() === '')
    return { ok: false, code: 'input_invalid', message: 'an answer needs a person and a reason' };
  const review = await store.getReview(input.id);
  if (review === undefined) return { ok: false, code: 'not_found', message: `no review ${input.id}` };
  const now = clock.now();
  const state = reviewState(review, now);
  if (state !== 'pending')
    return {
      ok: false,
      code: 'not_pending',
      message: `review ${input.id} is ${state}: it was answered or expired`,
    };
  // An approval lapses unused after APPROVAL_TTL_S; a denial keeps the request's own expiry.
  const expires = input.answer === 'approved' ? now + APPROVAL_TTL_S * 1000 : review.expires_at;
  const draft: Omit<AuditRow, 'seq' | 'prev_hash' | 'hash'> = {
    id: ulid(now),
    at: new Date(now).toISOString(),
    kind: 'review',
    session: review.session,
    ...(review.agent !== undefined ? { agent: review.agent } : {}),
    call_digest: review.call_digest,
    rules: [review.rule],
    review: {
      id: review.id,
      answer: input.answer,
      person: input.person,
      reason: input.reason,
      call_digest: review.call_digest,
      rule: review.rule,
      expires_at: new Date(expires).toISOString(),
    },
  };
  const audit = await store.answerReview(
    {
      id: review.id,
      status: input.answer,
      person: input.person,
      reason: input.reason,
      at: now,
      expires_at: expires,
      ...(input.consumed === true ? { consumed_at: now } : {}),
    },
    draft,
  );
  if (audit === undefined)
    return {
      ok: false,
      code: 'not_pending',
      message: `review ${input.id} was answered or expired meanwhile`,
    };
  const answered: ReviewRecord = {
    ...review,
    status: input.answer,
    answered_at: now,
    answered_by: input.person,
    answer_reason: input.reason,
    expires_at: expires,
    ...(input.consumed === true ? { consumed_at: now } : {}),
  };
  return { ok: true, review: answered, audit };
}
