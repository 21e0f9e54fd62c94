import { GENESIS_HASH } from '@tollgate/core';
import { describe, expect, it } from 'vitest';
import { standInSqliteStore } from './sqlite-stand-in.js';

// The warm-up's store: the store's own code runs over it, and it keeps nothing.
describe('standInSqliteStore', () => {
  it('opens as a current store (no migration) and runs the append through its chain', async () => {
    const store = await standInSqliteStore();
    const draft = {
      id: '01JWARM0000000000000000000',
      at: '2026-11-25T00:00:00.000Z',
      kind: 'decision',
      session: 'warm',
      agent: 'warm',
      tool: 'shell',
      call_digest: 'sha256:0',
      outcome: 'pass',
    } as never;
    const [row] = await store.appendAudit([draft]);
    expect(row?.seq).toBe(1);
    expect(row?.prev_hash).toBe(GENESIS_HASH);
    // Nothing was kept.
    expect(await store.getAudit('01JWARM0000000000000000000')).toBeUndefined();
    expect(await store.findObservationsBySource('warm', 'x', 5)).toEqual([]);
    await store.close();
  });
});
