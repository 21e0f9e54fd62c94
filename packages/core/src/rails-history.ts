// History at the moment of action: when rules refuse a call, the rails carry each one's recent record
// in this project (fires this week, its newest mismatches: predicted beside observed), read through
// Store.ruleHistory. Advisory: a store that cannot answer leaves the rails without it, never fails
// the decision.
import type { Rails } from '@tollgate/contracts';
import type { Store } from './ports.js';

export type RailsHistory = NonNullable<Rails['history']>;

const WEEK_MS = 7 * 86_400_000;
/** The rules (first matched first) and mismatches per rule shown: the rails stay short. */
const MAX_RULES = 2;
const MAX_MISMATCHES = 3;

export async function ruleHistories(
  store: Pick<Store, 'ruleHistory'>,
  rules: readonly string[],
  now: number,
  agent: string | undefined,
): Promise<RailsHistory> {
  try {
    // An agent is shown its own record only: another agent's observed outputs are not its to read.
    const found = await Promise.all(
      rules.slice(0, MAX_RULES).map((rule) => store.ruleHistory(rule, now - WEEK_MS, MAX_MISMATCHES, agent)),
    );
    return found
      .filter((h) => h.fires > 0 || h.mismatches.length > 0)
      .map((h) => ({
        rule: h.rule,
        fires: h.fires,
        ...(h.fires_at_least === true ? { fires_at_least: true } : {}),
        mismatches: h.mismatches.map((m) => ({
          audit_id: m.audit_id,
          at: m.at,
          subject: m.subject as NonNullable<Rails['history']>[number]['mismatches'][number]['subject'],
          op: m.op,
          predicted: (m.predicted ?? null) as string | number | boolean | null,
          observed: m.observed,
        })),
      }));
  } catch {
    return [];
  }
}
