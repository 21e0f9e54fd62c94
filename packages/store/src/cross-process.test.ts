// Invariant 2 across OS processes on one SQLite file: racing consumers, exactly one winner per
// prediction; concurrent appenders, one unbroken chain holding every row.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { prediction } from './fixtures.js';
import { spawnWorker, type Worker } from './spawn-worker.js';
import { SqliteStore } from './sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'tollgate-xproc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function startTogether(workers: Worker[]): Promise<void> {
  await Promise.all(workers.map((w) => w.waitFor((l) => l.ready === true)));
  const at = Date.now() + 300;
  for (const w of workers) w.child.stdin?.write(`go ${at}\n`);
}

/** Six processes open `file` at one instant and append a row each: every one succeeds, one chain of six. */
async function openAtOnce(file: string): Promise<void> {
  const workers = ['o1', 'o2', 'o3', 'o4', 'o5', 'o6'].map((tag) => spawnWorker(['open', file, tag]));
  await startTogether(workers);
  const exits = await Promise.all(workers.map((w) => w.exited));
  for (const e of exits) expect(e, e.stderr).toMatchObject({ code: 0 });
  const store = await SqliteStore.open(file);
  expect(await store.verifyAudit()).toEqual({ ok: true, rows: 6 });
  await store.close();
}

describe('SQLite shared by several OS processes', () => {
  it('lets exactly one process consume each prediction', async () => {
    const file = join(dir, 'consume.db');
    const store = await SqliteStore.open(file);
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) {
      const p = prediction('race', `digest-${i}`, 1000);
      await store.insertPrediction(p);
      ids.push(p.id);
    }
    const workers = [0, 1, 2].map(() => spawnWorker(['consume', file, JSON.stringify(ids)]));
    await startTogether(workers);
    const exits = await Promise.all(workers.map((w) => w.exited));
    for (const e of exits) expect(e, e.stderr).toMatchObject({ code: 0 });
    const wins = workers.map((w) => (w.lines.find((l) => Array.isArray(l.won))?.won ?? []) as string[]);
    expect(wins.flat().sort()).toEqual([...ids].sort());
    for (const id of ids)
      expect((await store.findLatestPrediction('race', `digest-${ids.indexOf(id)}`))?.consumed_at).toBeTypeOf(
        'number',
      );
    await store.close();
  }, 60_000);

  it('keeps one chain, every row present, when processes append at once', async () => {
    const file = join(dir, 'append.db');
    const store = await SqliteStore.open(file);
    const tags = ['p1', 'p2', 'p3'];
    const workers = tags.map((tag) => spawnWorker(['append', file, tag, '150']));
    await startTogether(workers);
    const exits = await Promise.all(workers.map((w) => w.exited));
    for (const e of exits) expect(e, e.stderr).toMatchObject({ code: 0 });
    expect(await store.verifyAudit()).toEqual({ ok: true, rows: 450 });
    for (const [i, tag] of tags.entries()) {
      const acked = workers[i]!.lines.filter((l) => typeof l.id === 'string').map((l) => l.id);
      const stored = (await store.listAudit({ session: tag })).map((r) => r.id);
      expect(stored).toEqual(acked);
    }
    await store.close();
  }, 60_000);

  it('creates and migrates a new file once when several processes open it at the same instant', async () => {
    await openAtOnce(join(dir, 'fresh.db'));
  }, 60_000);

  it('upgrades an older file once when several processes open it at the same instant', async () => {
    // kysely runs SQLite migrations outside a transaction: two openers both added the column and the
    // second failed on `duplicate column name` (seen in CI); the migration now holds the write lock.
    const file = join(dir, 'older.db');
    await (await SqliteStore.open(file)).close();
    const raw = new Sqlite(file);
    raw.exec(
      `ALTER TABLE audit_facts DROP COLUMN unaccepted; ALTER TABLE audit_facts DROP COLUMN filed_ms;
       ALTER TABLE audit_facts DROP COLUMN read_ms; DROP INDEX observations_by_time;
       DROP INDEX audit_facts_mismatched;
       DELETE FROM kysely_migration WHERE name IN ('0012_report_perfunctory', '0014_report_mismatch_index')`,
    );
    raw.pragma('user_version = 11');
    raw.close();
    await openAtOnce(file);
    const after = new Sqlite(file, { readonly: true });
    const names = after.prepare('SELECT name FROM kysely_migration ORDER BY name').pluck().all();
    expect(names).toContain('0012_report_perfunctory');
    expect(new Set(names).size).toBe(names.length);
    after.close();
  }, 60_000);
});
