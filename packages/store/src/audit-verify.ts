// Verifies stored audit rows with core's chain rules, plus one check only the store can make: the
// indexed columns must agree with the row they were taken from, or an edit to a column (say, moving
// a row to another session) would hide it from filtered listings without touching the chain.
import type { AuditRow } from '@tollgate/contracts';
import { type ChainCheck, ChainWalker } from '@tollgate/core';

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

/** Feeds stored rows to core's chain walker; `push` returns the first break, `done` the verdict. */
export class StoredChainWalker {
  private readonly walker = new ChainWalker();

  push(s: StoredAudit): Extract<ChainCheck, { ok: false }> | undefined {
    const parsed = mismatch(s);
    if (typeof parsed === 'string') return this.walker.fail(Number(s.seq), s.id, parsed);
    return this.walker.push(parsed);
  }

  done(): ChainCheck {
    return this.walker.done();
  }
}

export function verifyStored(stored: Iterable<StoredAudit>): ChainCheck {
  const walker = new StoredChainWalker();
  for (const s of stored) {
    const broken = walker.push(s);
    if (broken) return broken;
  }
  return walker.done();
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
