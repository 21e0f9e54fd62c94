// PostToolUse has no audit id: it finds the decision row its PreToolUse wrote, by session and call
// digest, newest first, among the dispatched decisions that have no outcome yet.
import type { AuditRow } from '@tollgate/contracts';
import type { Store } from '@tollgate/core';

const LOOKBACK = 200;

export async function openDispatch(
  store: Pick<Store, 'listAudit'>,
  session: string,
  digest: string,
): Promise<AuditRow | undefined> {
  const rows = await store.listAudit({ session, limit: LOOKBACK });
  const completed = new Set(rows.filter((r) => r.kind === 'outcome').map((r) => r.ref));
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i] as AuditRow;
    if (row.kind !== 'decision' || row.call_digest !== digest || row.dry_run === true) continue;
    const tracked = row.outcome === 'dispatch' || (row.outcome === 'pass' && row.would_reject === true);
    if (tracked && !completed.has(row.id)) return row;
  }
  return undefined;
}
