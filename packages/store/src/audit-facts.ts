// The report columns of one audit row, derived from the row when it is appended (and backfilled from
// `doc` by migration 0004): narrow, typed columns the report aggregates in SQL instead of parsing
// JSON. The chain still covers only `audit.doc`; these tables are an index over it, like any other.
import type { AuditRow } from '@tollgate/contracts';
import type { AuditFactsTable } from './schema.js';

/** The facts of a row, except ref_seq and prev_seq, which the insert statement looks up in SQL. */
export type AuditFacts = Omit<AuditFactsTable, 'ref_seq' | 'prev_seq'>;

export function auditFacts(row: AuditRow, atMs: number | null): AuditFacts {
  const decision = row.kind === 'decision';
  const dry = row.dry_run === true;
  const outcome = decision ? (row.outcome ?? null) : null;
  const gated = decision && !dry && outcome !== null && outcome !== 'pass';
  const ages = (decision ? (row.evidence ?? []) : []).map((e) => Math.round(e.age_s * 1000));
  const claims = row.kind === 'outcome' ? (row.claims ?? []) : [];
  let brierSum = 0;
  let brierN = 0;
  const tally = { matched: 0, mismatched: 0, unverifiable: 0 };
  for (const c of claims) {
    tally[c.result]++;
    const p = c.claim.confidence;
    if (typeof p === 'number' && c.result !== 'unverifiable') {
      brierSum += (p - (c.result === 'matched' ? 1 : 0)) ** 2;
      brierN++;
    }
  }
  return {
    seq: row.seq,
    at_ms: atMs ?? 0,
    kind: row.kind,
    session: row.session,
    agent: row.agent ?? null,
    tool: row.tool ?? null,
    call_digest: row.call_digest ?? null,
    outcome,
    gated: gated ? 1 : 0,
    dry_run: dry ? 1 : 0,
    would_reject: decision && row.would_reject === true ? 1 : 0,
    escalated: decision && row.escalation !== undefined ? 1 : 0,
    overridden: decision && row.override_id !== undefined ? 1 : 0,
    predicted: decision && row.prediction !== undefined ? 1 : 0,
    reason: decision ? (row.reasons?.[0] ?? null) : null,
    evidence_max_ms: ages.length > 0 ? Math.max(...ages) : null,
    evidence_min_ms: ages.length > 0 ? Math.min(...ages) : null,
    decline_attempts: outcome === 'declined' ? (row.evidence?.length ?? 0) : null,
    directive_ms: decision && typeof row.directive_latency_ms === 'number' ? row.directive_latency_ms : null,
    matched: tally.matched,
    mismatched: tally.mismatched,
    unverifiable: tally.unverifiable,
    brier_sum: brierN > 0 ? brierSum : null,
    brier_n: brierN,
  };
}

/** The rules a decision row names, once each; outcome rows copy their decision's in SQL. */
export function ruleKind(row: AuditRow): 'decision' | 'dry' | undefined {
  if (row.kind !== 'decision') return undefined;
  return row.dry_run === true ? 'dry' : 'decision';
}

export function uniqueRules(row: AuditRow): string[] {
  return [...new Set(row.rules ?? [])];
}

/** Column order of the facts insert (both dialects bind positionally in this order). */
export const FACT_COLUMNS = [
  'seq',
  'at_ms',
  'kind',
  'session',
  'agent',
  'tool',
  'call_digest',
  'outcome',
  'gated',
  'dry_run',
  'would_reject',
  'escalated',
  'overridden',
  'predicted',
  'reason',
  'evidence_max_ms',
  'evidence_min_ms',
  'decline_attempts',
  'directive_ms',
  'matched',
  'mismatched',
  'unverifiable',
  'brier_sum',
  'brier_n',
] as const satisfies readonly (keyof AuditFacts)[];

/**
 * The facts insert, with `p(i)` rendering the i-th (1-based) placeholder. After the columns come
 * three more parameters: the ref id (an outcome's decision, looked up to its seq) and the session and
 * call digest of a gated decision (the previous gated decision of the same call in the session).
 */
export function factsInsertSql(p: (i: number) => string): string {
  const n = FACT_COLUMNS.length;
  const values = FACT_COLUMNS.map((_, i) => p(i + 1)).join(', ');
  return `INSERT INTO audit_facts (${FACT_COLUMNS.join(', ')}, ref_seq, prev_seq)
    VALUES (${values},
      (SELECT seq FROM audit WHERE id = ${p(n + 1)}),
      (SELECT seq FROM audit_facts WHERE gated = 1 AND session = ${p(n + 2)} AND call_digest = ${p(n + 3)}
         ORDER BY seq DESC LIMIT 1))`;
}

/** The positional values for factsInsertSql. */
export function factsValues(row: AuditRow, facts: AuditFacts): unknown[] {
  const values: unknown[] = FACT_COLUMNS.map((c) => facts[c]);
  values.push(row.kind === 'outcome' ? (row.ref ?? null) : null);
  values.push(facts.gated === 1 ? row.session : null, facts.gated === 1 ? (row.call_digest ?? null) : null);
  return values;
}

/** Copies a decision's rules onto its outcome row: p(1) outcome seq, p(2) at_ms, p(3) decision id. */
export function outcomeRulesSql(p: (i: number) => string): string {
  return `INSERT INTO audit_rules (seq, rule, kind, at_ms)
    SELECT CAST(${p(1)} AS bigint), rule, 'outcome', CAST(${p(2)} AS bigint) FROM audit_rules
    WHERE seq = (SELECT seq FROM audit WHERE id = ${p(3)}) AND kind = 'decision'`;
}
