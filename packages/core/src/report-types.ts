// The calibration report's shapes: what the store aggregates in SQL (Store.report) and what
// `tollgate audit report --json`, `GET /v1/report` and the dashboard read. Shared by core's report
// module, the store port and both stores, so it lives apart from any of them.

/** What a report can be grouped by besides the fixed per-agent, per-rule and per-day views. */
export type ReportDimension = 'agent' | 'rule' | 'tool' | 'session' | 'day';
export const REPORT_DIMENSIONS: readonly ReportDimension[] = ['agent', 'rule', 'tool', 'session', 'day'];

export interface ReportQuery {
  /** Epoch ms: rows at or after it. */
  since?: number;
  /** Epoch ms: rows before it. */
  until?: number;
  agent?: string;
  session?: string;
  tool?: string;
  /** Only decisions this rule matched (and the outcomes completing them). */
  rule?: string;
  /** Adds `groups`, one per value of this dimension. */
  by?: ReportDimension;
  /** How many mismatches and flagged rows to list (default 20, at most 200). */
  limit?: number;
}

export type Outcome = 'pass' | 'dispatch' | 'declined' | 'rejected';

/** A value's spread: how many, the median and the 90th percentile (nearest rank); null when none. */
export interface Spread {
  n: number;
  median: number | null;
  p90: number | null;
}

export interface ReportFigures {
  /** Decision rows, dry looks (`tollgate check`) excluded. */
  decisions: number;
  by_outcome: Record<Outcome, number>;
  /** Dry looks, counted apart: nothing was consumed or dispatched. */
  dry_runs: number;
  /** Observe mode: calls enforce mode would have refused. */
  would_reject: number;
  /** Refusals that reached the deny ceiling. */
  escalations: number;
  /** Calls let through by an operator override. */
  overrides: number;
  /** Each ÷ gated decisions (dispatch + declined + rejected); null when nothing was gated. */
  rates: {
    decline: number | null;
    rejection: number | null;
    override: number | null;
    escalation: number | null;
  };
  /** Predicted vs observed, over the outcome rows of dispatched calls. */
  claims: { matched: number; mismatched: number; unverifiable: number };
  /** Matched ÷ (matched + mismatched); null when no claim could be checked. */
  accuracy: number | null;
  /** Predictions observed (outcome rows with claims); the share whose claims all matched; the share with none checkable. */
  predictions: { observed: number; all_matched: number | null; unverifiable: number | null };
  /** Mean (confidence − result)² over checked claims that carried a confidence; null when none did. */
  brier: { score: number | null; claims: number };
}

export interface ReportGroup extends ReportFigures {
  key: string;
}

export interface RuleRecord extends ReportFigures {
  rule: string;
  /** Non-dry decisions the rule matched in the window, and the newest one's time. */
  fires: number;
  last_fired: string | null;
  /** Its refusals, and what the next decision of the same call in the session was. */
  refusals: number;
  ended: { prediction: number; decline: number; override: number; again: number; nothing: number };
}

/** One claim that did not hold: what was predicted beside what the gate observed. */
export interface MismatchEntry {
  /** The decision row (its drill-down) and the outcome row holding the observation. */
  audit_id: string;
  outcome_id: string;
  link: string;
  at: string;
  session: string;
  agent: string | null;
  tool: string | null;
  rules: string[];
  subject: unknown;
  op: string;
  predicted: unknown;
  observed: string | null;
  confidence: number | null;
}

export interface FlaggedRow {
  audit_id: string;
  link: string;
  at: string;
  session: string;
  agent: string | null;
  tool: string | null;
  rules: string[];
  /** perfunctory: seconds between the refusal and the filing of the prediction that followed it. */
  seconds_after_rejection?: number;
}

export interface Flag {
  count: number;
  /** The newest ones, newest first. */
  rows: FlaggedRow[];
}

/** What Store.report computes in the database. */
export interface StoreReport {
  /** Audit rows (decisions and outcomes) the window and filters cover. */
  rows: number;
  totals: ReportFigures;
  by_agent: Record<string, ReportFigures>;
  by_rule: Record<string, ReportFigures>;
  groups?: ReportGroup[];
  /** One entry per UTC day that has rows, oldest first. */
  series: ReportGroup[];
  top_reasons: { code: string; count: number }[];
  latency: {
    /** Age of the oldest evidence a dispatched prediction cited, in seconds. */
    evidence_age_s: Spread;
    /** From a refusal to the prediction that dispatched the same call next, in seconds. */
    rejection_to_prediction_s: Spread;
    /** From the directive in force to the decision, in milliseconds. */
    directive_to_action_ms: Spread;
  };
  rules: RuleRecord[];
  mismatches: MismatchEntry[];
  flags: {
    /**
     * A prediction (dispatched or refused, not overridden) that cited a read the rule does not accept,
     * or that was filed (its ticket's creation, else its decision) within 10 s of its call's refusal
     * while the session's ledger held no read newer than that refusal.
     */
    perfunctory: Flag;
    /**
     * A decline naming no read it attempted that the ledger confirms. An approximation of "the rule's
     * suggested read was available and never attempted": the audit row does not record the reads
     * the rule suggested for that call.
     */
    declined_while_queryable: Flag;
    /** The same call refused again in the session after it was declined. */
    repeated: Flag;
  };
}

export interface CalibrationReport extends StoreReport {
  schema: 'tollgate.report/v1';
  generated_at: string;
  window: { since: string | null; until: string | null };
  /** Rules of the policy in force that matched no decision in the window. */
  never_fired: string[];
}

/** A rule's recent record, shown in the rails when it refuses a call. */
export interface RuleHistory {
  rule: string;
  /** Non-dry decisions it matched since `since`. */
  fires: number;
  /** The count stopped at a bound (store's choice): `fires` is a lower bound. */
  fires_at_least?: boolean;
  /** Its newest mismatched claims, newest first. */
  mismatches: {
    audit_id: string;
    at: string;
    subject: unknown;
    op: string;
    predicted: unknown;
    observed: string | null;
  }[];
}

/** The name rows without an agent are grouped under. */
export const NO_AGENT = '(none)';

/** A perfunctory prediction follows its refusal within this many milliseconds. */
export const PERFUNCTORY_MS = 10_000;
