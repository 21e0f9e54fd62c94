// The additive figures of the report as SQL aggregates over audit_facts alias `f` (and, for the flags,
// its previous gated decision of the same call, alias `p`). One text for both uses: the report sums
// them over a window's rows, and every append adds the row's own values to the day rollups
// (audit-rollup.ts), so a rollup is by construction this same aggregate over the same rows.
import { PERFUNCTORY_MS } from '@tollgate/core';

/**
 * Each figure as its value for one row (f) and how rows' values combine. Outcome columns are 0 on
 * decisions. The report aggregates these; an append's rollup upsert adds one row's values.
 */
const FIGURES: readonly (readonly [name: string, row: string, combine: 'sum' | 'max'])[] = [
  ['decisions', "case when f.kind = 'decision' and f.dry_run = 0 then 1 else 0 end", 'sum'],
  ['pass', "case when f.kind = 'decision' and f.dry_run = 0 and f.outcome = 'pass' then 1 else 0 end", 'sum'],
  ['dispatch', "case when f.gated = 1 and f.outcome = 'dispatch' then 1 else 0 end", 'sum'],
  ['declined', "case when f.gated = 1 and f.outcome = 'declined' then 1 else 0 end", 'sum'],
  ['rejected', "case when f.gated = 1 and f.outcome = 'rejected' then 1 else 0 end", 'sum'],
  ['dry_runs', 'f.dry_run', 'sum'],
  ['would_reject', 'case when f.dry_run = 0 then f.would_reject else 0 end', 'sum'],
  ['escalations', 'case when f.gated = 1 then f.escalated else 0 end', 'sum'],
  ['overrides', 'case when f.gated = 1 then f.overridden else 0 end', 'sum'],
  ['matched', 'f.matched', 'sum'],
  ['mismatched', 'f.mismatched', 'sum'],
  ['unverifiable', 'f.unverifiable', 'sum'],
  ['observed', 'case when f.matched + f.mismatched + f.unverifiable > 0 then 1 else 0 end', 'sum'],
  [
    'all_matched',
    'case when f.matched > 0 and f.mismatched = 0 and f.unverifiable = 0 then 1 else 0 end',
    'sum',
  ],
  [
    'none_checked',
    'case when f.unverifiable > 0 and f.matched = 0 and f.mismatched = 0 then 1 else 0 end',
    'sum',
  ],
  ['brier_sum', 'coalesce(f.brier_sum, 0)', 'sum'],
  ['brier_n', 'f.brier_n', 'sum'],
  ['last_ms', "case when f.kind = 'decision' and f.dry_run = 0 then f.at_ms end", 'max'],
  ['row_count', '1', 'sum'],
];

/** The figures aggregated over the rows selected (aliases as in SUM_KEYS, and last_ms). */
export const SUMS = FIGURES.map(([name, row, combine]) => `${combine}(${row}) as ${name}`).join(',\n  ');
/** One row's own values of the figures, under the same names. */
export const ROW_VALUES = FIGURES.map(([name, row]) => `${row} as ${name}`).join(',\n  ');

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
// Perfunctory: a prediction (dispatched or refused) that cited a read the rule does not accept, or
// that was filed within PERFUNCTORY_MS of its call's refusal while the session's ledger held no read
// newer than that refusal (filed_ms and read_ms are taken when the decision is appended).
export const PERFUNCTORY = `f.gated = 1 and f.predicted = 1 and f.overridden = 0
  and f.outcome in ('dispatch', 'rejected') and (f.unaccepted = 1 or (p.outcome = 'rejected'
    and f.filed_ms >= p.at_ms and f.filed_ms - p.at_ms <= ${PERFUNCTORY_MS}
    and (f.read_ms is null or f.read_ms <= p.at_ms)))`;
// Declined while queryable: a decline whose row records the rules' suggested reads (queryable_unread)
// had one to make and made none; an older decline, recorded without them, keeps the approximation
// it was counted by (a decline citing no attempted read).
export const DECLINED_BLIND = `f.gated = 1 and f.outcome = 'declined'
  and coalesce(f.queryable_unread, case when f.decline_attempts = 0 then 1 else 0 end) = 1`;
export const REPEATED = `f.gated = 1 and f.outcome = 'rejected' and p.outcome = 'declined'`;

const FLAGS = [
  ['flag_p', PERFUNCTORY],
  ['flag_d', DECLINED_BLIND],
  ['flag_r', REPEATED],
] as const;

/** How many rows raised each flag: perfunctory, declined while queryable, repeated. */
export const FLAG_SUMS = FLAGS.map(
  ([name, when]) => `sum(case when ${when} then 1 else 0 end) as ${name}`,
).join(',\n  ');
/** Whether one row raised each flag (1 or 0), under the same names. */
export const FLAG_VALUES = FLAGS.map(([name, when]) => `case when ${when} then 1 else 0 end as ${name}`).join(
  ',\n  ',
);

export const FLAG_KEYS = ['flag_p', 'flag_d', 'flag_r'] as const;
