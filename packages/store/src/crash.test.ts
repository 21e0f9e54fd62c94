// Invariant 7: kill -9 a process mid-load; every audit row it acknowledged is still there and the
// chain verifies. Bounded: at most 20 000 rows or 15 s of appending.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnWorker } from './spawn-worker.js';
import { SqliteStore } from './sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'tollgate-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a gate killed with SIGKILL while appending', () => {
  it('loses no acknowledged audit row', async () => {
    const file = join(dir, 'crash.db');
    await (await SqliteStore.open(file)).close();
    const flooders = ['f1', 'f2'].map((tag) => spawnWorker(['flood', file, tag, '20000']));
    // Let each get well into its load, then kill both without warning.
    await Promise.all(
      flooders.map((w) => w.waitFor((l) => typeof l.seq === 'number' && l.seq >= 500, 15_000)),
    );
    for (const w of flooders) w.child.kill('SIGKILL');
    const exits = await Promise.all(flooders.map((w) => w.exited));
    for (const e of exits) expect(e.signal).toBe('SIGKILL');

    const store = await SqliteStore.open(file);
    const check = await store.verifyAudit();
    expect(check.ok).toBe(true);
    const stored = new Map((await store.listAudit({})).map((r) => [r.id, r.seq]));
    let acked = 0;
    for (const w of flooders) {
      for (const line of w.lines) {
        if (typeof line.id !== 'string') continue;
        acked++;
        expect(stored.get(line.id)).toBe(line.seq);
      }
    }
    expect(acked).toBeGreaterThan(500);
    expect(check.rows).toBeGreaterThanOrEqual(acked);
    await store.close();
  }, 60_000);
});
