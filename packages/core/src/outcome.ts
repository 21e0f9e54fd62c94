// After a dispatch: the result of the call and the observed post-state per claim, appended as an
// outcome row that refers to its decision row (the chain stays append-only).
import type { AuditRow, ClaimResult, Outcome } from '@tollgate/contracts';
import { validate } from '@tollgate/contracts';
import { sourceKey } from './call.js';
import { evaluateClaim, type ObservedOutput } from './claims.js';
import type { GateContext } from './context.js';
import { TollgateFault } from './faults.js';

export interface OutcomeResult {
  row: AuditRow;
  claims: ClaimResult[];
}

const OBSERVED_CAP = 4096;

export async function recordOutcomeFor(
  ctx: GateContext,
  auditId: string,
  input: unknown,
  id: string,
): Promise<OutcomeResult> {
  const parsed = validate<Outcome>('outcome', input);
  if (!parsed.valid) {
    const first = parsed.problems[0];
    throw new TollgateFault(
      'input_invalid',
      `outcome ${first?.path || '/'}: ${first?.message ?? 'invalid'}`,
      { problems: parsed.problems },
    );
  }
  const outcome = parsed.data;
  const decision = await ctx.store.getAudit(auditId);
  if (decision?.kind !== 'decision')
    throw new TollgateFault('not_found', `no decision row ${auditId}`, { audit_id: auditId });
  if (decision.outcome !== 'dispatch' && !(decision.outcome === 'pass' && decision.class !== 'unmatched')) {
    throw new TollgateFault(
      'not_found',
      `decision ${auditId} was ${decision.outcome ?? 'not a dispatch'}; only dispatched calls have outcomes`,
      { audit_id: auditId },
    );
  }
  // One outcome per decision: a late `ok` on an old dispatch must not rewrite it or reset the streak.
  if ((await ctx.store.listAudit({ ref: auditId, kind: 'outcome', limit: 1 })).length > 0)
    throw conflict(auditId);
  const observed = new Map<string, ObservedOutput>();
  for (const o of outcome.observed ?? []) {
    observed.set(
      sourceKey(o.subject),
      o.exit_code === undefined ? { output: o.output } : { output: o.output, exit_code: o.exit_code },
    );
  }
  const claims: ClaimResult[] = (decision.prediction?.claims ?? []).map((claim) => {
    const seen = observed.get(sourceKey(claim.subject));
    const result: ClaimResult = { claim, result: evaluateClaim(claim, seen) };
    if (seen !== undefined) result.observed = seen.output.slice(0, OBSERVED_CAP);
    return result;
  });
  const draft: Omit<AuditRow, 'seq' | 'prev_hash' | 'hash'> = {
    id,
    at: new Date(ctx.clock.now()).toISOString(),
    kind: 'outcome',
    session: decision.session,
    ref: auditId,
    result: {
      status: outcome.status,
      ...(outcome.exit_code !== undefined ? { exit_code: outcome.exit_code } : {}),
      ...(outcome.summary !== undefined ? { summary: outcome.summary } : {}),
    },
    claims,
  };
  for (const key of ['agent', 'tool', 'action', 'call_digest'] as const) {
    const value = decision[key];
    if (value !== undefined) draft[key] = value;
  }
  let row: AuditRow | undefined;
  try {
    [row] = await ctx.store.appendAudit([draft]);
  } catch (error) {
    // Another outcome for the same decision won the race (the store keeps one per decision).
    if ((error as { code?: unknown } | null)?.code === 'duplicate') throw conflict(auditId);
    throw error;
  }
  // Errors and indeterminate outcomes count toward the deny ceiling of this call; success ends the streak.
  if (decision.call_digest !== undefined) {
    if (outcome.status === 'ok') await ctx.store.resetRejections(decision.session, decision.call_digest);
    else await ctx.store.bumpRejections(decision.session, decision.call_digest);
  }
  if (!row) throw new TollgateFault('store_unavailable', 'the store returned no row for the outcome');
  return { row, claims };
}

function conflict(auditId: string): TollgateFault {
  return new TollgateFault('conflict', `decision ${auditId} already has its outcome; each decision has one`, {
    audit_id: auditId,
  });
}
