// A review request as adapters show it (the CLI's --json, GET /v1/reviews): its computed state and
// ISO times. A person sees all of it; the agent whose call waits sees only what it needs to follow
// its own request, never the envelope, the rails, who may answer or how a person was notified.
import type { ReviewRecord } from './ports.js';
import { type ReviewState, reviewState } from './review.js';

type Times = 'created_at' | 'expires_at' | 'answered_at' | 'consumed_at';

/** Everything the record holds (fields a newer store adds pass through), with state and ISO times. */
export type ReviewView = Omit<ReviewRecord, Times> & {
  state: ReviewState;
  created_at: string;
  expires_at: string;
  answered_at?: string;
  consumed_at?: string;
};

/** What the requesting agent may read of its own request. */
export type ReviewStatusView = Pick<
  ReviewView,
  'id' | 'session' | 'rule' | 'call_digest' | 'call' | 'state' | 'created_at' | 'expires_at' | 'answered_at'
> & { answer_reason?: string };

const iso = (ms: number) => new Date(ms).toISOString();

export function reviewView(record: ReviewRecord, now: number): ReviewView {
  const { created_at, expires_at, answered_at, consumed_at, ...rest } = record;
  return {
    ...rest,
    state: reviewState(record, now),
    created_at: iso(created_at),
    expires_at: iso(expires_at),
    ...(answered_at !== undefined ? { answered_at: iso(answered_at) } : {}),
    ...(consumed_at !== undefined ? { consumed_at: iso(consumed_at) } : {}),
  };
}

export function reviewStatusView(record: ReviewRecord, now: number): ReviewStatusView {
  const full = reviewView(record, now);
  return {
    id: full.id,
    session: full.session,
    rule: full.rule,
    call_digest: full.call_digest,
    call: full.call,
    state: full.state,
    created_at: full.created_at,
    expires_at: full.expires_at,
    ...(full.answered_at !== undefined ? { answered_at: full.answered_at } : {}),
    ...(full.answer_reason !== undefined ? { answer_reason: full.answer_reason } : {}),
  };
}
