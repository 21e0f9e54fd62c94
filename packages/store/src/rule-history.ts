// A rule's recent record for the rails at the moment of refusal: how often it fired in the window
// and its last mismatches, predicted beside observed. The SQL differs per store (SQLite runs it as
// prepared statements so a hook process never loads kysely); turning rows into the record is here.
import type { AuditRow } from '@tollgate/contracts';
import type { RuleHistory } from '@tollgate/core';

export function ruleHistoryOf(
  rule: string,
  fires: number,
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
  return { rule, fires, mismatches };
}

/**
 * How many of a rule's newest outcome rows are searched for its mismatches. The rails need its latest
 * few; searching every outcome it ever had grew with the store (10 ms for a rule with 12,000 rows,
 * none mismatched, in a 1,000,000-row store) and ran on every refusal.
 */
export const RECENT_OUTCOMES = 256;

/** The same two queries as report-sql.ts's ruleHistoryQuery, for better-sqlite3 (named parameters). */
export const SQLITE_RULE_HISTORY = {
  fires: `select count(*) from audit_rules r cross join audit_facts f
          where r.rule = @rule and r.at_ms >= @since and r.kind = 'decision' and f.seq = r.seq
            and (@agent is null or f.agent = @agent)`,
  mismatched: `select a.doc from (select seq, at_ms from audit_rules where rule = @rule and kind = 'outcome'
                 order by at_ms desc limit ${RECENT_OUTCOMES}) r
               cross join audit_facts f join audit a on a.seq = r.seq
               where f.seq = r.seq and f.mismatched > 0 and (@agent is null or f.agent = @agent)
               order by r.at_ms desc limit @limit`,
};
