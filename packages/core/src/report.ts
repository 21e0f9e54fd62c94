// The calibration report: per agent and per rule, how decisions ended, how often agents declined,
// and how their predictions fared once the gate observed the post-state. `tollgate audit report`
// and `GET /v1/report` both return this shape.
import type { AuditRow } from '@tollgate/contracts';
import type { AuditQuery, Store } from './ports.js';

type Outcome = 'pass' | 'dispatch' | 'declined' | 'rejected';
type ClaimVerdict = 'matched' | 'mismatched' | 'unverifiable';

export interface CalibrationGroup {
  /** Decision rows, dry looks (`tollgate check`) excluded. */
  decisions: number;
  by_outcome: Record<Outcome, number>;
  /** Declined ÷ gated decisions (dispatch + declined + rejected); null when nothing was gated. */
  decline_rate: number | null;
  /** Predicted vs observed, over the outcome rows of dispatched calls. */
  claims: Record<ClaimVerdict, number>;
  /** Matched ÷ (matched + mismatched); null when no claim could be checked. */
  accuracy: number | null;
  /** The most frequent reason codes, most frequent first (at most five). */
  top_reasons: { code: string; count: number }[];
  /** `tollgate check` looks: counted apart because nothing was consumed or dispatched. */
  dry_runs: number;
}

export interface CalibrationReport {
  generated_at: string;
  rows: number;
  totals: CalibrationGroup;
  by_agent: Record<string, CalibrationGroup>;
  by_rule: Record<string, CalibrationGroup>;
}

/** The name rows without an agent are grouped under. */
export const NO_AGENT = '(none)';

const TOP_REASONS = 5;

interface Tally {
  decisions: number;
  by_outcome: Record<Outcome, number>;
  claims: Record<ClaimVerdict, number>;
  reasons: Map<string, number>;
  dry_runs: number;
}

function tally(): Tally {
  return {
    decisions: 0,
    by_outcome: { pass: 0, dispatch: 0, declined: 0, rejected: 0 },
    claims: { matched: 0, mismatched: 0, unverifiable: 0 },
    reasons: new Map(),
    dry_runs: 0,
  };
}

/** Pure: the report over rows as the store returns them (any order; outcome rows find their decision by ref). */
export function calibrationReport(rows: readonly AuditRow[], now: number = Date.now()): CalibrationReport {
  const totals = tally();
  const agents = new Map<string, Tally>();
  const rules = new Map<string, Tally>();
  const decisions = new Map<string, AuditRow>();
  for (const row of rows) if (row.kind === 'decision') decisions.set(row.id, row);

  const groupsOf = (row: AuditRow): Tally[] => {
    const agent = row.agent ?? NO_AGENT;
    const groups = [totals, entry(agents, agent)];
    for (const rule of row.rules ?? []) groups.push(entry(rules, rule));
    return groups;
  };

  for (const row of rows) {
    if (row.kind === 'decision') {
      for (const t of groupsOf(row)) addDecision(t, row);
    } else if (row.kind === 'outcome') {
      const decision = row.ref === undefined ? undefined : decisions.get(row.ref);
      for (const t of groupsOf(decision ?? row)) {
        for (const c of row.claims ?? []) t.claims[c.result]++;
      }
    }
  }
  return {
    generated_at: new Date(now).toISOString(),
    rows: rows.length,
    totals: finish(totals),
    by_agent: finishAll(agents),
    by_rule: finishAll(rules),
  };
}

/** Reads the rows matching `query` from the store and reports on them. */
export async function buildReport(
  store: Pick<Store, 'listAudit'>,
  query: Omit<AuditQuery, 'kind' | 'ref' | 'limit'> = {},
  now?: number,
): Promise<CalibrationReport> {
  return calibrationReport(await store.listAudit(query), now);
}

function entry(map: Map<string, Tally>, key: string): Tally {
  let t = map.get(key);
  if (!t) {
    t = tally();
    map.set(key, t);
  }
  return t;
}

function addDecision(t: Tally, row: AuditRow): void {
  if (row.dry_run === true) {
    t.dry_runs++;
    return;
  }
  t.decisions++;
  if (row.outcome !== undefined) t.by_outcome[row.outcome]++;
  for (const code of row.reasons ?? []) t.reasons.set(code, (t.reasons.get(code) ?? 0) + 1);
}

function finish(t: Tally): CalibrationGroup {
  const gated = t.by_outcome.dispatch + t.by_outcome.declined + t.by_outcome.rejected;
  const checked = t.claims.matched + t.claims.mismatched;
  return {
    decisions: t.decisions,
    by_outcome: t.by_outcome,
    decline_rate: gated === 0 ? null : round(t.by_outcome.declined / gated),
    claims: t.claims,
    accuracy: checked === 0 ? null : round(t.claims.matched / checked),
    top_reasons: [...t.reasons]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, TOP_REASONS)
      .map(([code, count]) => ({ code, count })),
    dry_runs: t.dry_runs,
  };
}

function finishAll(map: Map<string, Tally>): Record<string, CalibrationGroup> {
  const out: Record<string, CalibrationGroup> = {};
  for (const key of [...map.keys()].sort()) out[key] = finish(map.get(key) as Tally);
  return out;
}

function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}
