// Verifies stored audit rows with core's chain rules, plus one check only the store can make: the
// indexed columns must agree with the row they were taken from, or an edit to a column (say, moving
// a row to another session) would hide it from filtered listings without touching the chain.
import type { AuditRow } from '@tollgate/contracts';
import { type ChainCheck, verifyChain } from '@tollgate/core';

export interface StoredAudit {
  seq: number;
  id: string;
  session: string;
  agent: string | null;
  kind: string;
  ref: string | null;
  call_digest: string | null;
  hash: string;
  doc: string;
}

export function verifyStored(stored: Iterable<StoredAudit>): ChainCheck {
  let seen = 0;
  let stop: { seq: number; id: string; problem: string } | undefined;
  function* rows(): Generator<AuditRow> {
    for (const s of stored) {
      const problem = mismatch(s);
      if (typeof problem === 'string') {
        stop = { seq: Number(s.seq), id: s.id, problem };
        return;
      }
      seen++;
      yield problem;
    }
  }
  const check = verifyChain(rows());
  if (!check.ok || stop === undefined) return check;
  return { ok: false, rows: seen + 1, broken_at: stop };
}

/** The parsed row, or what is wrong with it. */
function mismatch(s: StoredAudit): AuditRow | string {
  let row: AuditRow;
  try {
    row = JSON.parse(s.doc) as AuditRow;
  } catch {
    return 'the stored row is not valid JSON (the row was edited)';
  }
  if (row.seq !== Number(s.seq)) {
    return `the row was written as seq ${row.seq} but is stored at seq ${s.seq} (rows were reordered)`;
  }
  const same =
    row.id === s.id &&
    row.session === s.session &&
    (row.agent ?? null) === s.agent &&
    row.kind === s.kind &&
    (row.ref ?? null) === s.ref &&
    (row.call_digest ?? null) === s.call_digest &&
    row.hash === s.hash;
  return same ? row : 'indexed columns do not match the stored row (a column was edited)';
}
