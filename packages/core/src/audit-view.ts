// One decision as people and dashboards want to read it: the decision row merged with the outcome
// rows that completed it and the latest predicted-vs-observed claim results. `tollgate audit show`
// and `GET /v1/audit/{id}` both return this, so it lives here and not in an adapter.
import type { AuditRow, ClaimResult } from '@tollgate/contracts';
import type { Store } from './ports.js';

export type AuditView = AuditRow & {
  /** Outcome rows that refer to this decision, oldest first. */
  outcomes: AuditRow[];
  /** The newest outcome's result, when the call was dispatched and reported back. */
  result?: NonNullable<AuditRow['result']>;
  /** The newest outcome's claim results: each claim, what was observed, matched/mismatched/unverifiable. */
  claims?: ClaimResult[];
};

/**
 * The view of a decision row. An id naming an outcome row resolves to the decision it completes;
 * an override row is returned as it is, with no outcomes. Undefined when no row has that id.
 */
export async function auditView(
  store: Pick<Store, 'getAudit' | 'listAudit'>,
  id: string,
): Promise<AuditView | undefined> {
  let row = await store.getAudit(id);
  if (row?.kind === 'outcome' && row.ref !== undefined) row = await store.getAudit(row.ref);
  if (row === undefined) return undefined;
  if (row.kind !== 'decision') return { ...row, outcomes: [] };
  const outcomes = await store.listAudit({ ref: row.id, kind: 'outcome' });
  return mergeOutcomes(row, outcomes);
}

/** Pure merge, for callers that already hold the rows. */
export function mergeOutcomes(decision: AuditRow, outcomes: readonly AuditRow[]): AuditView {
  const view: AuditView = { ...decision, outcomes: [...outcomes] };
  const latest = outcomes.at(-1);
  if (latest?.result !== undefined) view.result = latest.result;
  if (latest?.claims !== undefined) view.claims = latest.claims;
  return view;
}
