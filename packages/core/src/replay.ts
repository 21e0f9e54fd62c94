// What-if over history: the recorded calls (each decision row keeps `call` {tool, action, args})
// classified again under another policy, and the decisions that would change — newly gated, no longer
// gated, gated by other rules — per rule. `tollgate audit replay` and POST /v1/audit/replay return it;
// the rows come from Store.exportAudit, so memory holds only the listed examples.
import type { AuditRow } from '@tollgate/contracts';
import { type Classification, isGated } from './classify.js';

export interface ReplayRow {
  audit_id: string;
  at: string;
  session: string;
  agent: string | null;
  tool: string;
  /** The recorded decision's outcome. */
  outcome: string | null;
  class_before: string | null;
  class_after: string;
  rules_before: string[];
  rules_after: string[];
}

export interface ReplayChange {
  count: number;
  /** The first `limit` of them, oldest first. */
  rows: ReplayRow[];
}

export interface ReplayResult {
  schema: 'tollgate.replay/v1';
  window: { since: string | null; until: string | null };
  /** Decision rows classified again (dry looks excluded). */
  calls: number;
  /** Recorded calls that cannot be classified again (their arguments were truncated in the audit). */
  skipped: number;
  unchanged: number;
  newly_gated: ReplayChange;
  no_longer_gated: ReplayChange;
  /** Still gated, by another set of rules. */
  rules_changed: ReplayChange;
  /** Per rule: calls it would start or stop matching, and gated decisions gained or lost through it. */
  by_rule: Record<
    string,
    { matched_more: number; matched_fewer: number; newly_gated: number; no_longer_gated: number }
  >;
}

export interface ReplayOptions {
  since?: number;
  until?: number;
  /** How many example rows each change lists (default 50). */
  limit?: number;
}

export type Reclassify = (call: {
  tool: string;
  action?: string;
  args: Record<string, unknown>;
  cwd?: string;
}) => Classification;

export async function replayAudit(
  pages: AsyncIterable<string[]>,
  classify: Reclassify,
  options: ReplayOptions = {},
): Promise<ReplayResult> {
  const limit = Math.max(0, Math.floor(options.limit ?? 50));
  const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
  const change = (): ReplayChange => ({ count: 0, rows: [] });
  const result: ReplayResult = {
    schema: 'tollgate.replay/v1',
    window: { since: iso(options.since), until: iso(options.until) },
    calls: 0,
    skipped: 0,
    unchanged: 0,
    newly_gated: change(),
    no_longer_gated: change(),
    rules_changed: change(),
    by_rule: {},
  };
  const rule = (id: string) => {
    result.by_rule[id] ??= { matched_more: 0, matched_fewer: 0, newly_gated: 0, no_longer_gated: 0 };
    return result.by_rule[id];
  };
  for await (const page of pages) {
    for (const doc of page) {
      const row = JSON.parse(doc) as AuditRow;
      if (row.kind !== 'decision' || row.dry_run === true) continue;
      const call = recordedCall(row);
      if (call === undefined) {
        result.skipped++;
        continue;
      }
      result.calls++;
      let after: Classification;
      try {
        after = classify(call);
      } catch {
        result.skipped++;
        result.calls--;
        continue;
      }
      const before = new Set(row.rules ?? []);
      const now = new Set(after.rules);
      for (const id of now) if (!before.has(id)) rule(id).matched_more++;
      for (const id of before) if (!now.has(id)) rule(id).matched_fewer++;
      const wasGated = row.class !== undefined && isGated(row.class);
      const isNowGated = isGated(after.class);
      const sameRules = before.size === now.size && [...now].every((id) => before.has(id));
      let bucket: ReplayChange | undefined;
      if (!wasGated && isNowGated) {
        bucket = result.newly_gated;
        for (const id of now) rule(id).newly_gated++;
      } else if (wasGated && !isNowGated) {
        bucket = result.no_longer_gated;
        for (const id of before) rule(id).no_longer_gated++;
      } else if (wasGated && isNowGated && !sameRules) bucket = result.rules_changed;
      if (bucket === undefined) {
        result.unchanged++;
        continue;
      }
      bucket.count++;
      if (bucket.rows.length < limit)
        bucket.rows.push({
          audit_id: row.id,
          at: row.at,
          session: row.session,
          agent: row.agent ?? null,
          tool: call.tool,
          outcome: row.outcome ?? null,
          class_before: row.class ?? null,
          class_after: after.class,
          rules_before: [...before].sort(),
          rules_after: [...now].sort(),
        });
    }
  }
  result.by_rule = Object.fromEntries(Object.entries(result.by_rule).sort(([a], [b]) => a.localeCompare(b)));
  return result;
}

/** The call as recorded, or undefined when the audit kept only a preview of it. */
function recordedCall(row: AuditRow): Parameters<Reclassify>[0] | undefined {
  const call = row.call as
    | { tool?: unknown; action?: unknown; args?: unknown; truncated?: unknown }
    | undefined;
  if (call === undefined || call.truncated === true || typeof call.tool !== 'string') return undefined;
  if (call.args === null || typeof call.args !== 'object' || Array.isArray(call.args)) return undefined;
  const args = call.args as Record<string, unknown>;
  const out: Parameters<Reclassify>[0] = { tool: call.tool, args };
  if (typeof call.action === 'string') out.action = call.action;
  if (typeof args.cwd === 'string') out.cwd = args.cwd;
  return out;
}
