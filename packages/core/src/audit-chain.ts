// The audit hash chain: each row's hash covers its content and the previous row's hash, so an edit,
// a deletion or a reordering breaks the chain at the first row it touches. Stores call these; the
// chain rules live only here.
import type { AuditRow } from '@tollgate/contracts';
import { canonicalJson, sha256Hex } from './canonical.js';
import type { AuditDraft, ChainCheck } from './ports.js';

export const GENESIS_HASH = '0'.repeat(64);

export function chainRow(draft: AuditDraft, seq: number, prevHash: string): AuditRow {
  const unhashed = { ...draft, seq, prev_hash: prevHash };
  return { ...unhashed, hash: rowHash(unhashed) };
}

export function rowHash(row: Omit<AuditRow, 'hash'>): string {
  return sha256Hex(row.prev_hash + canonicalJson(row));
}

/** Checks rows given in seq order, starting from the genesis. */
export function verifyChain(rows: Iterable<AuditRow>): ChainCheck {
  let prev = GENESIS_HASH;
  let expectedSeq = 1;
  let count = 0;
  for (const row of rows) {
    count++;
    const broken = (problem: string): ChainCheck => ({
      ok: false,
      rows: count,
      broken_at: { seq: row.seq, id: row.id, problem },
    });
    if (row.seq !== expectedSeq)
      return broken(`expected seq ${expectedSeq}, found ${row.seq} (a row was deleted or reordered)`);
    if (row.prev_hash !== prev)
      return broken('prev_hash does not match the previous row (a row was deleted, inserted or reordered)');
    const { hash, ...rest } = row;
    if (rowHash(rest) !== hash) return broken('content does not match its hash (the row was edited)');
    prev = hash;
    expectedSeq++;
  }
  return { ok: true, rows: count };
}
