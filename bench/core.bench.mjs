// Core check() cost on the embedded SQLite default: an unmatched call (nothing written before the
// verdict returns) and a matched irreversible call with full prediction validation and its audit
// row appended. Baseline: JSON.parse of the envelope plus one bare prepared SQLite insert (WAL).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGate, loadPolicy } from '@tollgate/core';
import { openStore } from '@tollgate/store';
import Database from 'better-sqlite3';
import { scaled } from './mode.mjs';
import { summary, timeEach } from './stats.mjs';

const POLICY = new URL('../test/fixtures/tools.policy.yaml', import.meta.url).pathname;
const read = { tool: 'release_status', args: { service: 'api' } };
const MATCHED = scaled(5_000, 200);
const WARM = scaled(200, 20);
const prediction = (i) => ({
  claims: [{ subject: read, op: 'contains', value: 'build 42' }],
  evidence: [{ source: read, quote: 'build 41' }],
  rationale: `deploy ${i}`,
});

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-bench-'));
  try {
    const baseline = await measureBaseline(join(dir, 'baseline.db'));
    const store = await openStore(join(dir, 'gate.db'));
    // A clock the agent loop moves on by 10 ms per call: evidence must be read after the previous
    // dispatch of the same call, which a sub-millisecond loop on the real clock would not show.
    let now = Date.now();
    const gate = createGate({ policy: loadPolicy([POLICY]), store, clock: { now: () => now } });
    const unmatched = { tool: 'list_files', args: { path: '/srv' }, session: 'bench' };
    const shellRead = { tool: 'shell', args: { command: 'git status --short' }, session: 'bench' };
    const tool = summary(await timeEach(scaled(20_000, 500), () => gate.check(unmatched)));
    await gate.flush();
    const shell = summary(await timeEach(scaled(20_000, 500), () => gate.check(shellRead)));
    await gate.flush();
    const call = { tool: 'deploy', args: { service: 'api', env: 'production' }, session: 'bench' };
    let dispatched = 0;
    // Untimed before each call: the agent's fresh read, which the next prediction cites.
    const readAgain = async () => {
      now += 10;
      await gate.recordObservation({
        session: 'bench',
        source: read,
        output: 'api: running build 41',
        recordedBy: 'bench',
        attested: true,
      });
      now += 10;
    };
    const matched = summary(
      await timeEach(
        MATCHED,
        async (i) => {
          const verdict = await gate.check(call, { envelope: { prediction: prediction(i) } });
          if (verdict.outcome === 'dispatch') dispatched++;
        },
        WARM,
        readAgain,
      ),
    );
    if (dispatched !== MATCHED + WARM)
      throw new Error(
        `expected every matched call to dispatch, got ${dispatched} of ${MATCHED + WARM} (with warm-up)`,
      );
    await store.close();
    const row = (name, value, target) => ({
      name,
      value,
      unit: 'µs',
      baseline: baseline.p50,
      ratio: value / baseline.p50,
      target,
    });
    return {
      title: 'core check() (SQLite, WAL)',
      rows: [
        { name: 'baseline: JSON.parse envelope + 1 prepared insert, p50', value: baseline.p50, unit: 'µs' },
        row('unmatched tool call, p50', tool.p50, '≤ 5 µs'),
        row('unmatched tool call, mean (incl. batched audit write)', tool.mean),
        row('unmatched shell read (parsed), p50', shell.p50),
        row('matched irreversible + prediction + audit row, p50', matched.p50, '≤ 150 µs'),
        row('matched irreversible + prediction + audit row, p99', matched.p99, '≤ 1000 µs'),
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measureBaseline(path) {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
  const text = JSON.stringify({ prediction: prediction(0) });
  const result = summary(
    await timeEach(scaled(20_000, 500), () => insert.run(JSON.parse(text).prediction.rationale)),
  );
  db.close();
  return result;
}
