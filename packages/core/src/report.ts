// The calibration report: how decisions ended, how often agents declined, how their predictions
// fared, which rules earn their friction. The store aggregates in SQL (Store.report); this module adds
// what only core knows (the policy's rules that never fired) and the clock. `tollgate audit report`,
// `GET /v1/report` and the dashboard all read this one document.
import type { Store } from './ports.js';
import type { CalibrationReport, ReportQuery } from './report-types.js';

export interface ReportOptions {
  /** Now, for generated_at (default the system clock). */
  now?: number;
  /** The rule ids of the policy in force: those that matched nothing in the window are `never_fired`. */
  ruleIds?: readonly string[];
}

export async function buildReport(
  store: Pick<Store, 'report'>,
  query: ReportQuery = {},
  options: ReportOptions = {},
): Promise<CalibrationReport> {
  const data = await store.report(query);
  const fired = new Set(data.rules.filter((r) => r.fires > 0).map((r) => r.rule));
  const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
  return {
    schema: 'tollgate.report/v1',
    generated_at: new Date(options.now ?? Date.now()).toISOString(),
    window: { since: iso(query.since), until: iso(query.until) },
    ...data,
    never_fired: [...new Set(options.ruleIds ?? [])].filter((id) => !fired.has(id)).sort(),
  };
}
