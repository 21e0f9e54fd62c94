// A review answered at the host's own terminal (host-prompt.ts says when a person is there): the
// text of the host's permission prompt for a call waiting for review, and the record of the
// person's approval once the host reports the call ran. The approval is paired with the refusal's
// decision row by the host's tool-use id (only the host's own pre-tool event wrote it), and used up
// as it is recorded, so it lets no later call through.
import type { Call } from '@tollgate/contracts';
import {
  answerReview,
  callDigest,
  type ReviewRecord,
  reviewState,
  sanitiseText,
  systemClock,
} from '@tollgate/core';
import type { HookDeps } from './deps.js';
import type { HookInput } from './input.js';
import type { HostInfo } from './translate.js';

/** The pending request a refused call waits on, when a person is at the host to be asked about it. */
export async function reviewToAsk(
  reviewId: string,
  input: HookInput,
  deps: HookDeps,
): Promise<ReviewRecord | undefined> {
  if (deps.personAtHost?.(input) !== true) return undefined;
  const review = await deps.store.getReview(reviewId);
  const now = (deps.clock ?? systemClock).now();
  return review !== undefined && reviewState(review, now) === 'pending' ? review : undefined;
}

/** What the person reads in the host's prompt (not the model). */
export function askText(review: ReviewRecord, host: HostInfo): string {
  const rails = Array.isArray(review.rails) ? (review.rails as { code?: unknown; message?: unknown }[]) : [];
  const why = rails
    .filter((r) => r.code !== 'review_required')
    .map((r) => `[${sanitiseText(String(r.code ?? ''), 64)}] ${sanitiseText(String(r.message ?? ''), 300)}`);
  return [
    `Tollgate review ${review.id} [${sanitiseText(review.rule, 128)}]: this call needs a person's approval.`,
    `Call: ${callSummary(review.call)}`,
    ...why,
    `Approve to let it run once (recorded in the audit as approved by you in ${host.label}, review ${review.id}); otherwise the request stays pending until ${new Date(review.expires_at).toISOString()} and can be answered with tollgate review approve|deny ${review.id} --reason …`,
  ].join('\n');
}

function callSummary(call: unknown): string {
  const c = (call ?? {}) as { tool?: unknown; args?: { command?: unknown } };
  if (c.tool === 'shell' && typeof c.args?.command === 'string') return sanitiseText(c.args.command, 600);
  return sanitiseText(`${String(c.tool ?? '?')} ${JSON.stringify(c.args ?? {})}`, 600);
}

/**
 * The post-tool event of a call the gate refused for review and the person was asked about: it ran,
 * so they approved it in the host's prompt. Recorded as an answer by host:<agent>, used up at once.
 * Nothing without a person at the host, a tool-use id, or a refused decision row carrying it.
 */
export async function hostApproval(
  input: HookInput,
  call: Call,
  deps: HookDeps,
  host: HostInfo,
): Promise<string | undefined> {
  // A failure event also means the host ran the call (it failed, or the user interrupted it).
  const ran = input.hook_event_name === 'PostToolUse' || input.hook_event_name === 'PostToolUseFailure';
  if (!ran || !input.tool_use_id) return undefined;
  if (deps.personAtHost?.(input) !== true || deps.attested === false) return undefined;
  const rows = await deps.store.recentDecisions(input.session_id, callDigest(call), 8);
  const row = rows.find(
    (r) => r.host_ref === input.tool_use_id && r.outcome === 'rejected' && r.review_id !== undefined,
  );
  if (row?.review_id === undefined) return undefined;
  const answered = await answerReview(deps.store, deps.clock ?? systemClock, {
    id: row.review_id,
    answer: 'approved',
    person: `host:${host.agent}`,
    reason: `approved in ${host.label}'s permission prompt; the call ran (tool_use_id ${sanitiseText(input.tool_use_id, 128)}, decision ${row.id})`,
    consumed: true,
  });
  return answered.ok
    ? `Tollgate recorded that the user approved this call in ${host.label}'s prompt (review ${row.review_id}, audit ${answered.audit.id}).`
    : undefined;
}
