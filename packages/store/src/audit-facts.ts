// The report columns of one audit row, derived from the row when it is appended (and backfilled from
// `doc` by migration 0004): narrow, typed columns the report aggregates in SQL instead of parsing
// JSON. The chain still covers only `audit.doc`; these tables are an index over it, like any other.
import type { AuditRow } from '@tollgate/contracts';
import type { AuditFactsTable, Dialect } from './schema.js';

/** The facts of a row, except those the insert statement looks up in SQL. */
export type AuditFacts = Omit<AuditFactsTable, 'ref_seq' | 'prev_seq' | 'filed_ms' | 'read_ms'>;

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
    queryable_unread: outcome === 'declined' ? queryableUnread(row) : null,
    directive_ms: decision && typeof row.directive_latency_ms === 'number' ? row.directive_latency_ms : null,
    matched: tally.matched,
    mismatched: tally.mismatched,
    unverifiable: tally.unverifiable,
    brier_sum: brierN > 0 ? brierSum : null,
    brier_n: brierN,
    unaccepted: decision && row.prediction !== undefined && citesUnaccepted(row) ? 1 : 0,
  };
}

/** A decline with a suggested read to make and none made; null when the row does not record them. */
function queryableUnread(row: AuditRow): number | null {
  const suggested = row.suggested_reads;
  if (suggested === undefined) return null;
  return suggested.length > 0 && suggested.every((s) => !s.attempted) ? 1 : 0;
}

/** The prediction cited a read the rule does not accept (the gate refused it for that, among others). */
function citesUnaccepted(row: AuditRow): boolean {
  return (row.reasons ?? []).includes('evidence_not_accepted');
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
  'unaccepted',
  'queryable_unread',
] as const satisfies readonly (keyof AuditFacts)[];

/** The columns migration 0004 created and backfills; the rest come with later migrations. */
const COLUMNS_0004 = FACT_COLUMNS.filter((c) => c !== 'unaccepted' && c !== 'queryable_unread');

// An entry of the session's ledger that is a read (absent kind means read), in each dialect.
const IS_READ: Record<Dialect, string> = {
  sqlite: "coalesce(json_extract(o.doc, '$.kind'), 'read') = 'read'",
  postgres: "coalesce(o.doc::json ->> 'kind', 'read') = 'read'",
};

/** When a prediction was filed: its stored ticket's creation, else (inline) the decision itself. */
const filedSql = (id: string, at: string) =>
  `coalesce((SELECT created_at FROM predictions WHERE id = ${id}), ${at})`;

/**
 * filed_ms and read_ms of a decision carrying a prediction — when it was filed, and the newest read
 * the session's ledger held at that moment (observations_by_time: one seek) — from parameters
 * p(i) … p(i + 4): prediction id, decision time, session, prediction id, decision time (all NULL
 * for a row without a prediction). Both dialects bind in order of appearance.
 */
export function filedAndReadSql(p: (i: number) => string, i: number, dialect: Dialect): [string, string] {
  const read = `(SELECT o.observed_ms FROM observations o WHERE o.session = ${p(i + 2)}
      AND o.observed_ms <= ${filedSql(p(i + 3), p(i + 4))} AND ${IS_READ[dialect]}
      ORDER BY o.observed_ms DESC LIMIT 1)`;
  return [filedSql(p(i), p(i + 1)), read];
}

/** The parameters of filedAndReadSql for a row. */
export function filedAndReadValues(row: AuditRow, facts: AuditFacts): unknown[] {
  if (facts.predicted !== 1) return [null, null, null, null, null];
  const id = row.prediction_id ?? null;
  return [id, facts.at_ms, row.session, id, facts.at_ms];
}

/**
 * The facts insert, with `p(i)` rendering the i-th (1-based) placeholder. After the columns come
 * three more parameters: the ref id (an outcome's decision, looked up to its seq) and the session and
 * call digest of a gated decision (the previous gated decision of the same call in the session); then
 * (unless `legacy`: migration 0004's columns only) the five of filedAndReadSql.
 */
export function factsInsertSql(p: (i: number) => string, dialect: Dialect, legacy = false): string {
  const columns = legacy ? COLUMNS_0004 : FACT_COLUMNS;
  const n = columns.length;
  const values = columns.map((_, i) => p(i + 1)).join(', ');
  const [filed, read] = legacy ? [] : filedAndReadSql(p, n + 4, dialect);
  return `INSERT INTO audit_facts (${columns.join(', ')}, ref_seq, prev_seq${legacy ? '' : ', filed_ms, read_ms'})
    VALUES (${values},
      (SELECT seq FROM audit WHERE id = ${p(n + 1)}),
      (SELECT seq FROM audit_facts WHERE gated = 1 AND session = ${p(n + 2)} AND call_digest = ${p(n + 3)}
         ORDER BY seq DESC LIMIT 1)${legacy ? '' : `,\n      ${filed},\n      ${read}`})`;
}

/** The positional values for factsInsertSql. */
export function factsValues(row: AuditRow, facts: AuditFacts, legacy = false): unknown[] {
  const values: unknown[] = (legacy ? COLUMNS_0004 : FACT_COLUMNS).map((c) => facts[c]);
  values.push(row.kind === 'outcome' ? (row.ref ?? null) : null);
  values.push(facts.gated === 1 ? row.session : null, facts.gated === 1 ? (row.call_digest ?? null) : null);
  if (!legacy) values.push(...filedAndReadValues(row, facts));
  return values;
}

/** Copies a decision's rules onto its outcome row: p(1) outcome seq, p(2) at_ms, p(3) decision id. */
export function outcomeRulesSql(p: (i: number) => string): string {
  return `INSERT INTO audit_rules (seq, rule, kind, at_ms)
    SELECT CAST(${p(1)} AS bigint), rule, 'outcome', CAST(${p(2)} AS bigint) FROM audit_rules
    WHERE seq = (SELECT seq FROM audit WHERE id = ${p(3)}) AND kind = 'decision'`;
}
