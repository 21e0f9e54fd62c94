// Reviews: a call a rule (or the deny ceiling) wants a person to answer. The gate files a request and
// refuses the call naming it; a person approves or denies it once; an approval lets exactly that call
// (same digest, same session) through once, used up atomically with the decision's audit row. Waiting
// never approves: an unanswered request expires into a refusal.
import type { Call, Reason } from '@tollgate/contracts';
import type { GateContext } from './context.js';
import type { Decision } from './decide.js';
import type { CheckOptions } from './gate.js';
import type { ReviewRecord, ReviewStatus } from './ports.js';
import type { Channel } from './rails.js';
import { reason } from './reasons.js';
import type { Requirements } from './requirements.js';

/** How long a request waits for a person before it expires into a refusal (a rule may say less). */
export const REVIEW_TIMEOUT_S = 24 * 3600;
/** How long an approval stays usable once given. */
export const APPROVAL_TTL_S = 3600;
/** The rule named by a request the deny ceiling filed. */
export const CEILING_REVIEW_RULE = 'deny_ceiling';

/** Where a request stands at `now`: expired and used are computed, never stored. */
export type ReviewState = ReviewStatus | 'expired' | 'used';

export function reviewState(record: ReviewRecord, now: number): ReviewState {
  if (record.consumed_at !== undefined) return 'used';
  if (record.status === 'denied') return 'denied';
  return record.expires_at <= now ? 'expired' : record.status;
}

export interface ReviewNeed {
  rule: string;
  timeout_s?: number;
}

/** The command a person runs to answer, for the agent to pass on; over HTTP, where to poll too. */
export function approveHint(id: string, channel?: Channel): string {
  if (channel === 'http')
    return `poll GET /v1/reviews/${id} for the answer (an operator approves with POST /v1/reviews/${id}/approve or \`tollgate review approve ${id} --reason …\`), then retry the same call`;
  return `a person approves it with \`tollgate review approve ${id} --reason …\` (or denies it with \`tollgate review deny ${id} --reason …\`), then retry the same call`;
}

/**
 * The decision for a call that needs a person: the approval to use up, or a refusal naming the
 * request — the open one, or one filed now (not on a dry look or in observe mode, which file nothing).
 */
export async function reviewDecision(
  ctx: GateContext,
  call: Call,
  digest: string,
  need: ReviewNeed,
  base: { gated: boolean; requirements: Requirements; reasons?: Reason[] },
  opts: CheckOptions,
): Promise<Decision> {
  const { store } = ctx;
  const now = ctx.clock.now();
  const carried = base.reasons ?? [];
  const refuse = (message: string, reviewId?: string): Decision => ({
    outcome: 'rejected',
    reasons: [...carried, reason('review_required', message, '/review')],
    requirements: base.requirements,
    ...(reviewId !== undefined ? { reviewId } : {}),
  });
  const latest = await store.latestReview(call.session, digest);
  const state = latest === undefined ? undefined : reviewState(latest, now);
  if (latest !== undefined && state === 'approved') {
    const by = latest.answered_by ?? 'a person';
    return {
      outcome: base.gated ? 'dispatch' : 'pass',
      reasons: [
        reason('review_approved', `${by} approved review ${latest.id}: ${latest.answer_reason ?? ''}`),
      ],
      requirements: base.requirements,
      reviewId: latest.id,
      ...(opts.dryRun ? {} : { consume: { kind: 'review' as const, id: latest.id } }),
    };
  }
  const until = (t: number) => new Date(t).toISOString();
  if (latest !== undefined && state === 'pending')
    return refuse(
      `this call waits for a person: review ${latest.id} [${latest.rule}] is pending until ${until(latest.expires_at)}; ${approveHint(latest.id, opts.channel)}`,
      latest.id,
    );
  if (latest !== undefined && state === 'denied' && latest.expires_at > now)
    return refuse(
      `${latest.answered_by ?? 'a person'} denied review ${latest.id} [${latest.rule}]: ${latest.answer_reason ?? ''} — the denial is final for this call until ${until(latest.expires_at)}; do not retry it`,
      latest.id,
    );
  const before =
    latest === undefined
      ? ''
      : state === 'expired'
        ? `review ${latest.id} expired unanswered at ${until(latest.expires_at)}, so it was refused; `
        : state === 'used'
          ? `review ${latest.id} was approved once and is used up; `
          : '';
  if (opts.dryRun || ctx.mode === 'observe')
    return refuse(
      `${before}this call needs a person's review [${need.rule}]; a request is filed when it is made`,
    );
  const timeout = Math.min(need.timeout_s ?? REVIEW_TIMEOUT_S, REVIEW_TIMEOUT_S);
  const id = ctx.newId();
  const record: ReviewRecord = {
    id,
    session: call.session,
    ...(call.agent !== undefined ? { agent: call.agent } : {}),
    call_digest: digest,
    rule: need.rule,
    call: { tool: call.tool, ...(call.action !== undefined ? { action: call.action } : {}), args: call.args },
    ...(opts.envelope !== undefined ? { envelope: opts.envelope } : {}),
    rails: carried,
    approvers: ['operator'],
    status: 'pending',
    created_at: now,
    expires_at: now + timeout * 1000,
  };
  await store.insertReview(record);
  // Announcing it (webhooks) never changes the answer: the call is refused whatever happens there.
  try {
    await ctx.onReviewFiled?.(record);
  } catch {
    // the adapter records and logs its own failures
  }
  return refuse(
    `${before}this call needs a person's review [${need.rule}]: filed review ${id} (expires ${until(record.expires_at)}); ${approveHint(id, opts.channel)}`,
    id,
  );
}
