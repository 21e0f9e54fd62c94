// A rule's recent record for the rails at the moment of refusal: how often it fired in the window
// and its last mismatches, predicted beside observed. The SQL differs per store (SQLite runs it as
// prepared statements so a hook process never loads kysely); turning rows into the record is here.
import type { AuditRow } from '@tollgate/contracts';
import type { RuleHistory } from '@tollgate/core';

export function ruleHistoryOf(
  rule: string,
  fires: { n: number; scanned: number },
  rows: readonly AuditRow[],
  limit: number,
): RuleHistory {
  const mismatches: RuleHistory['mismatches'] = [];
  for (const row of rows) {
    for (const c of row.claims ?? []) {
      if (c.result !== 'mismatched' || mismatches.length >= limit) continue;
      mismatches.push({
        audit_id: row.ref ?? row.id,
        at: row.at,
        subject: c.claim.subject,
        op: c.claim.op,
        predicted: 'value' in c.claim ? c.claim.value : null,
        observed: c.observed ?? null,
      });
    }
  }
  // Every row read was a fire of the rule in the window: there may be more than were read.
  return fires.scanned >= FIRES_SCANNED
    ? { rule, fires: fires.n, fires_at_least: true, mismatches }
    : { rule, fires: fires.n, mismatches };
}

/**
 * How many of a rule's newest outcome rows are searched for its mismatches. The rails need its latest
 * few; searching every outcome it ever had grew with the store (10 ms for a rule with 12,000 rows,
 * none mismatched, in a 1,000,000-row store) and ran on every refusal.
 */
export const RECENT_OUTCOMES = 256;

/**
 * The rule's fires in the window are read newest first, at most this many; when all of them were
 * fires, the count is a lower bound. Counting an agent's fires looks up each fire's facts row:
 * 22,562 of them took 59 ms in a 10,000,000-row store, on every refusal.
 */
export const FIRES_SCANNED = 2000;

/** The same two queries as report-sql.ts's ruleHistoryQuery, for better-sqlite3 (named parameters). */
export const SQLITE_RULE_HISTORY = {
  // The rule's newest fires in the window (at most FIRES_SCANNED), and how many were this agent's.
  fires: `select count(*) as scanned,
            coalesce(sum(case when @agent is null or f.agent = @agent then 1 else 0 end), 0) as n
          from (select seq from audit_rules where rule = @rule and at_ms >= @since and kind = 'decision'
                order by at_ms desc limit ${FIRES_SCANNED}) r
          cross join audit_facts f where f.seq = r.seq`,
  mismatched: `select a.doc from (select seq, at_ms from audit_rules where rule = @rule and kind = 'outcome'
                 order by at_ms desc limit ${RECENT_OUTCOMES}) r
               cross join audit_facts f join audit a on a.seq = r.seq
               where f.seq = r.seq and f.mismatched > 0 and (@agent is null or f.agent = @agent)
               order by r.at_ms desc limit @limit`,
};
