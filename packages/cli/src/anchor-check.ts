// Taking an anchor (the chain head, recorded outside the store) and checking a store against one. The
// chain alone cannot tell an older copy of the whole store, or a chain rewritten and re-hashed from
// some row on, from the real thing: every such chain verifies. An anchor can: the store must still be
// the same store (id), hold at least the anchored seq, and hold exactly the anchored hash there.
import type { Store } from '@tollgate/core';
import type { AnchorRecord } from './anchor-log.js';

export type AnchorProblem = 'replaced' | 'truncated' | 'rolled_back' | 'rewritten' | 'missing';

export type AnchorCheck =
  | { ok: true; anchored: AnchorRecord; message: string }
  | { ok: false; problem: AnchorProblem; anchored?: AnchorRecord; message: string };

export async function takeAnchor(
  store: Store,
  label: string,
  operator: string,
  at: Date,
): Promise<AnchorRecord> {
  const [storeId, head] = await Promise.all([store.storeId(), store.auditHead()]);
  return {
    schema: 'tollgate.anchor/v1',
    kind: 'anchor',
    store: label,
    store_id: storeId,
    seq: head.seq,
    hash: head.hash,
    rows: head.rows,
    at: at.toISOString(),
    operator,
  };
}

export async function checkAgainst(store: Store, anchored: AnchorRecord | undefined): Promise<AnchorCheck> {
  if (!anchored)
    return { ok: false, problem: 'missing', message: 'no anchor for this store was found there' };
  const id = await store.storeId();
  const at = `seq ${anchored.seq}, anchored ${anchored.at}`;
  if (id !== anchored.store_id)
    return {
      ok: false,
      problem: 'replaced',
      anchored,
      message: `replaced: this is store ${id.slice(0, 8)}, the anchor (${at}) is of store ${anchored.store_id.slice(0, 8)}`,
    };
  const head = await store.auditHead();
  if (head.newest_seq < anchored.seq) {
    return head.seq >= anchored.seq
      ? {
          ok: false,
          problem: 'truncated',
          anchored,
          message: `truncated: the newest stored row is seq ${head.newest_seq}, but seq ${anchored.seq} was anchored (${anchored.at}) and the head record says ${head.seq}; rows were deleted`,
        }
      : {
          ok: false,
          problem: 'rolled_back',
          anchored,
          message: `rolled back: the store ends at seq ${head.newest_seq}, older than the anchored seq ${anchored.seq} (${anchored.at}); an older copy was restored, or rows were deleted and the head rewritten`,
        };
  }
  if (anchored.seq > 0) {
    const row = await store.getAuditBySeq(anchored.seq);
    if (!row || row.hash !== anchored.hash)
      return {
        ok: false,
        problem: 'rewritten',
        anchored,
        message: `rewritten: the row at the anchored seq ${anchored.seq} (${anchored.at}) ${row ? 'has another hash' : 'is gone'}; the chain up to it was rewritten`,
      };
  }
  return { ok: true, anchored, message: `contains the anchored head (${at})` };
}
