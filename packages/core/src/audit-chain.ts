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

/**
 * Walks a chain one row at a time, so a store can feed it page by page without holding the whole
 * audit in memory.
 */
export class ChainWalker {
  private prev = GENESIS_HASH;
  private rows = 0;

  /** Feeds the next row in seq order: the break, or undefined while the chain holds. */
  push(row: AuditRow): Extract<ChainCheck, { ok: false }> | undefined {
    this.rows++;
    const expectedSeq = this.rows;
    const broken = (problem: string) => ({
      ok: false as const,
      rows: this.rows,
      broken_at: { seq: row.seq, id: row.id, problem },
    });
    if (row.seq !== expectedSeq)
      return broken(`expected seq ${expectedSeq}, found ${row.seq} (a row was deleted or reordered)`);
    if (row.prev_hash !== this.prev) {
      return broken('prev_hash does not match the previous row (a row was deleted, inserted or reordered)');
    }
    const { hash, ...rest } = row;
    if (rowHash(rest) !== hash) return broken('content does not match its hash (the row was edited)');
    this.prev = hash;
    return undefined;
  }

  /** Reports a break found outside the chain rules (e.g. by the store) at the next row. */
  fail(seq: number, id: string, problem: string): Extract<ChainCheck, { ok: false }> {
    return { ok: false, rows: this.rows + 1, broken_at: { seq, id, problem } };
  }

  done(): ChainCheck {
    return { ok: true, rows: this.rows };
  }
}

/** Checks rows given in seq order, starting from the genesis. */
export function verifyChain(rows: Iterable<AuditRow>): ChainCheck {
  const walker = new ChainWalker();
  for (const row of rows) {
    const broken = walker.push(row);
    if (broken) return broken;
  }
  return walker.done();
}
