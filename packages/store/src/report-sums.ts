// The additive figures of the report as SQL aggregates over audit_facts alias `f` (and, for the flags,
// its previous gated decision of the same call, alias `p`). One text for both uses: the report sums
// them over a window's rows, and every append adds the row's own values to the day rollups
// (audit-rollup.ts), so a rollup is by construction this same aggregate over the same rows.
import { PERFUNCTORY_MS } from '@tollgate/core';

// Outcome columns are 0 on decisions.
export const SUMS = `
  sum(case when f.kind = 'decision' and f.dry_run = 0 then 1 else 0 end) as decisions,
  sum(case when f.kind = 'decision' and f.dry_run = 0 and f.outcome = 'pass' then 1 else 0 end) as pass,
  sum(case when f.gated = 1 and f.outcome = 'dispatch' then 1 else 0 end) as dispatch,
  sum(case when f.gated = 1 and f.outcome = 'declined' then 1 else 0 end) as declined,
  sum(case when f.gated = 1 and f.outcome = 'rejected' then 1 else 0 end) as rejected,
  sum(f.dry_run) as dry_runs,
  sum(case when f.dry_run = 0 then f.would_reject else 0 end) as would_reject,
  sum(case when f.gated = 1 then f.escalated else 0 end) as escalations,
  sum(case when f.gated = 1 then f.overridden else 0 end) as overrides,
  sum(f.matched) as matched, sum(f.mismatched) as mismatched, sum(f.unverifiable) as unverifiable,
  sum(case when f.matched + f.mismatched + f.unverifiable > 0 then 1 else 0 end) as observed,
  sum(case when f.matched > 0 and f.mismatched = 0 and f.unverifiable = 0 then 1 else 0 end) as all_matched,
  sum(case when f.unverifiable > 0 and f.matched = 0 and f.mismatched = 0 then 1 else 0 end) as none_checked,
  coalesce(sum(f.brier_sum), 0) as brier_sum, sum(f.brier_n) as brier_n,
  max(case when f.kind = 'decision' and f.dry_run = 0 then f.at_ms end) as last_ms,
  count(*) as row_count`;

export const SUM_KEYS = [
  'decisions',
  'pass',
  'dispatch',
  'declined',
  'rejected',
  'dry_runs',
  'would_reject',
  'escalations',
  'overrides',
  'matched',
  'mismatched',
  'unverifiable',
  'observed',
  'all_matched',
  'none_checked',
  'brier_sum',
  'brier_n',
  'row_count',
] as const;

// The three flags, each of a gated decision (f) and its predecessor (p, absent when none).
export const PERFUNCTORY = `f.gated = 1 and f.outcome = 'dispatch' and f.predicted = 1 and f.overridden = 0
  and p.outcome = 'rejected' and f.at_ms - p.at_ms <= ${PERFUNCTORY_MS}
  and f.evidence_min_ms >= f.at_ms - p.at_ms`;
export const DECLINED_BLIND = `f.gated = 1 and f.outcome = 'declined' and f.decline_attempts = 0`;
export const REPEATED = `f.gated = 1 and f.outcome = 'rejected' and p.outcome = 'declined'`;

/** How many rows raised each flag: perfunctory, declined while queryable, repeated. */
export const FLAG_SUMS = `
  sum(case when ${PERFUNCTORY} then 1 else 0 end) as flag_p,
  sum(case when ${DECLINED_BLIND} then 1 else 0 end) as flag_d,
  sum(case when ${REPEATED} then 1 else 0 end) as flag_r`;

export const FLAG_KEYS = ['flag_p', 'flag_d', 'flag_r'] as const;
