// Verifies stored audit rows with core's chain rules, plus checks only the store can make: the
// indexed columns must agree with the row they were taken from, or an edit to a column (say, moving
// a row to another session) would hide it from filtered listings without touching the chain; and the
// newest row must be the one the chain head names, or the newest rows were cut off.
import type { AuditRow } from '@tollgate/contracts';
import { type ChainCheck, ChainWalker, GENESIS_HASH } from '@tollgate/core';
import type { AuditTable } from './schema.js';

/** An audit table row as read back for verification (`at` is in the JSON; at_ms may come back as text). */
export type StoredAudit = Omit<AuditTable, 'at' | 'at_ms'> & { at_ms: number | string | null };

/** The chain head as stored: the newest row's seq and hash. */
export interface AuditHead {
  seq: number | string;
  hash: string;
}

/** Feeds stored rows to core's chain walker; `push` returns the first break, `done` the verdict. */
export class StoredChainWalker {
  private readonly walker = new ChainWalker();
  private last: { seq: number; id: string; hash: string } | undefined;

  push(s: StoredAudit): Extract<ChainCheck, { ok: false }> | undefined {
    const parsed = mismatch(s);
    if (typeof parsed === 'string') return this.walker.fail(Number(s.seq), s.id, parsed);
    const broken = this.walker.push(parsed);
    if (!broken) this.last = { seq: parsed.seq, id: parsed.id, hash: parsed.hash };
    return broken;
  }

  /** The verdict once every row was pushed, checked against the chain head when there is one. */
  done(head?: AuditHead): ChainCheck {
    const result = this.walker.done();
    if (head === undefined) return result;
    const headSeq = Number(head.seq);
    const lastSeq = this.last?.seq ?? 0;
    if (headSeq > lastSeq) {
      return {
        ok: false,
        rows: result.rows,
        broken_at: {
          seq: lastSeq + 1,
          problem: `the newest rows were deleted (the chain head says seq ${headSeq}, the newest row is seq ${lastSeq})`,
        },
      };
    }
    const lastHash = this.last?.hash ?? GENESIS_HASH;
    if (headSeq < lastSeq || head.hash !== lastHash) {
      const problem = `the chain head (seq ${headSeq}) does not name the newest row (seq ${lastSeq}); the head or the newest rows were altered`;
      return {
        ok: false,
        rows: result.rows,
        broken_at: this.last ? { seq: lastSeq, id: this.last.id, problem } : { seq: lastSeq, problem },
      };
    }
    return result;
  }
}

export function verifyStored(stored: Iterable<StoredAudit>, head?: AuditHead): ChainCheck {
  const walker = new StoredChainWalker();
  for (const s of stored) {
    const broken = walker.push(s);
    if (broken) return broken;
  }
  return walker.done(head);
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
  const at = Date.parse(row.at);
  const atMs = s.at_ms === null ? null : Number(s.at_ms);
  if (atMs !== (Number.isFinite(at) ? at : null)) {
    return 'the indexed time column does not match the stored row (a column was edited)';
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
