// A review request as adapters show it (the CLI's --json, GET /v1/reviews): its computed state and
// ISO times. A person sees all of it; the agent whose call waits sees only what it needs to follow
// its own request, never the envelope, the rails, who may answer or how a person was notified.
import type { NotificationRecord, ReviewRecord } from './ports.js';
import { type ReviewState, reviewState } from './review.js';

type Times = 'created_at' | 'expires_at' | 'answered_at' | 'consumed_at' | 'notifications';

/** One webhook's delivery of the request (review-notify.ts), with ISO times. */
export interface NotificationView {
  target: string;
  attempts: number;
  next_at?: string;
  last_attempt_at?: string;
  last_error?: string;
  delivered_at?: string;
}

/** Everything the record holds (fields a newer store adds pass through), with state and ISO times. */
export type ReviewView = Omit<ReviewRecord, Times> & {
  state: ReviewState;
  created_at: string;
  expires_at: string;
  answered_at?: string;
  consumed_at?: string;
  notifications?: NotificationView[];
};

/** What the requesting agent may read of its own request. */
export type ReviewStatusView = Pick<
  ReviewView,
  'id' | 'session' | 'rule' | 'call_digest' | 'call' | 'state' | 'created_at' | 'expires_at' | 'answered_at'
> & { answer_reason?: string };

const iso = (ms: number) => new Date(ms).toISOString();

export function reviewView(record: ReviewRecord, now: number): ReviewView {
  const { created_at, expires_at, answered_at, consumed_at, notifications, ...rest } = record;
  return {
    ...rest,
    state: reviewState(record, now),
    created_at: iso(created_at),
    expires_at: iso(expires_at),
    ...(answered_at !== undefined ? { answered_at: iso(answered_at) } : {}),
    ...(consumed_at !== undefined ? { consumed_at: iso(consumed_at) } : {}),
    ...(notifications !== undefined ? { notifications: notifications.map(notificationView) } : {}),
  };
}

function notificationView(n: NotificationRecord): NotificationView {
  return {
    target: n.target,
    attempts: n.attempts,
    ...(n.next_at !== undefined ? { next_at: iso(n.next_at) } : {}),
    ...(n.last_attempt_at !== undefined ? { last_attempt_at: iso(n.last_attempt_at) } : {}),
    ...(n.last_error !== undefined ? { last_error: n.last_error } : {}),
    ...(n.delivered_at !== undefined ? { delivered_at: iso(n.delivered_at) } : {}),
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
