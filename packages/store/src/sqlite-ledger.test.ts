// The SQLite store's ledger windows with their cache: a write by another connection (another store
// on the same file, as another process or gate instance has) is seen by the very next read, and the
// store's own writes keep every window equal to what the database answers.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LedgerRequest, Store } from '@tollgate/core';
import Sqlite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { draft, observation } from './fixtures.js';
import { observationRow } from './rows.js';
import { SqliteLedger } from './sqlite-ledger.js';
import { SqliteStore } from './sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'tollgate-ledger-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const file = () => join(dir, `ledger-${n++}.db`);

const diag = (session: string, ms: number, verdict: string) =>
  observation(session, '{"args":{},"tool":"diag"}', ms, {
    source: { tool: 'diag', args: {} },
    excerpt: JSON.stringify({ verdict }),
  });
const dispatch = (
  session: string,
  ms: number,
  tool: string,
  outcome: 'pass' | 'dispatch' | 'rejected' = 'dispatch',
) => draft(session, { at: new Date(ms).toISOString(), tool, call: { tool, args: { ms } }, outcome });

const WINDOWS: LedgerRequest[] = [
  { kind: 'observed', query: { since: 0, limit: 4, tools: ['diag'] } },
  { kind: 'observed', query: { since: 0, limit: 4 } },
  { kind: 'dispatched', query: { since: 0, limit: 4, tools: ['fix'] } },
  { kind: 'dispatched', query: { since: 0, limit: 4 } },
];

describe('ledger windows on SQLite, with the cache', () => {
  it("sees another connection's observation and dispatch at the very next read", async () => {
    const path = file();
    const mine = await SqliteStore.open(path);
    const theirs = await SqliteStore.open(path);
    try {
      await mine.insertObservation(diag('s1', 1_000, 'CONDITIONAL'));
      const first = await mine.ledgerWindows('s1', WINDOWS);
      expect((first[0] as { excerpt: string }[]).map((o) => o.excerpt)).toEqual([
        '{"verdict":"CONDITIONAL"}',
      ]);
      expect(await mine.ledgerWindows('s1', WINDOWS)).toEqual(first); // held, and the same

      const certified = diag('s1', 2_000, 'CERTIFIED');
      await theirs.insertObservation(certified);
      const [diags] = await mine.ledgerWindows('s1', WINDOWS);
      expect((diags as { id: string }[])[0]?.id).toBe(certified.id);

      const [row] = await theirs.appendAudit([dispatch('s1', 3_000, 'fix')]);
      const windows = await mine.ledgerWindows('s1', WINDOWS);
      expect((windows[2] as { id: string }[]).map((d) => d.id)).toEqual([row?.id]);
      expect((windows[3] as { id: string }[]).map((d) => d.id)).toEqual([row?.id]);
    } finally {
      await theirs.close();
      await mine.close();
    }
  });

  it('sees a row written by plain SQL on another connection (no store, no cache of its own)', async () => {
    const path = file();
    const mine = await SqliteStore.open(path);
    const side = new Sqlite(path, { timeout: 5000 });
    try {
      expect(await mine.ledgerWindows('s1', WINDOWS)).toEqual([[], [], [], []]);
      const o = diag('s1', 1_000, 'CERTIFIED');
      const r = observationRow(o);
      side
        .prepare(
          'INSERT INTO observations (session, id, source_key, observed_ms, doc) VALUES (?, ?, ?, ?, ?)',
        )
        .run(r.session, r.id, r.source_key, r.observed_ms, r.doc);
      const [diags, all] = await mine.ledgerWindows('s1', WINDOWS);
      expect(diags).toEqual([o]);
      expect(all).toEqual([o]);
    } finally {
      side.close();
      await mine.close();
    }
  });

  it("keeps every window equal to the database's answer through its own writes (ties, tools, lookalikes)", async () => {
    const path = file();
    const store: Store = await SqliteStore.open(path);
    const side = new Sqlite(path, { readonly: true });
    // The same queries on another connection, holding nothing: what the database says.
    const truth = new SqliteLedger(side, { sessions: 0, bytes: 0, windowBytes: -1 });
    const requests: LedgerRequest[] = [
      ...WINDOWS,
      { kind: 'observed', query: { since: 0, limit: 2, tools: ['diag', 'other'] } },
      { kind: 'observed', query: { since: 1_005, limit: 3 } },
      { kind: 'observed', query: { since: 0, limit: 1, tools: ['shell'] } },
      { kind: 'dispatched', query: { since: 0, limit: 2, tools: ['fix', 'note'] } },
    ];
    // A fixed sequence from a small generator, so a failure repeats; times collide on purpose.
    let seed = 42;
    const next = (k: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % k;
    };
    try {
      for (let i = 0; i < 400; i++) {
        const session = next(3) === 0 ? 's2' : 's1';
        const ms = 1_000 + next(12);
        const pick = next(6);
        if (pick === 0) await store.insertObservation(diag(session, ms, `v${i}`));
        else if (pick === 1)
          await store.insertObservation(
            observation(session, '{"args":{},"tool":"other"}', ms, { source: { tool: 'other', args: {} } }),
          );
        else if (pick === 2) await store.insertObservation(observation(session, 'x,"tool":"diag"}', ms));
        else if (pick === 3) await store.insertObservation(observation(session, `cat f${i}`, ms));
        else if (pick === 4) await store.appendAudit([dispatch(session, ms, next(2) === 0 ? 'fix' : 'note')]);
        else await store.appendAudit([dispatch(session, ms, 'fix', next(2) === 0 ? 'rejected' : 'pass')]);
        if (next(3) === 0) continue; // some writes in a row before a read
        expect(await store.ledgerWindows(session, requests), `after write ${i}`).toEqual(
          truth.windows(session, requests),
        );
      }
    } finally {
      side.close();
      await store.close();
    }
  });
});
