// Latency of the store's hot paths, per operation, on SQLite (a temp file) and PostgreSQL (a throwaway
// schema; skipped when unreachable), beside baselines measured in the same run.
// Run: node --conditions=tollgate-source --import tsx packages/store/bench/hot-paths.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '@tollgate/core';
import Sqlite from 'better-sqlite3';
import { draft, observation, prediction, predictionDoc } from '../src/fixtures.js';
import { PostgresStore } from '../src/pg-store.js';
import { dropSchema, freshSchemaName, PG_URL } from '../src/pg-testing.js';
import { SqliteStore } from '../src/sqlite-store.js';

type Row = { name: string; p50: number; p99: number };

async function measure(name: string, n: number, op: (i: number) => unknown): Promise<Row> {
  for (let i = 0; i < Math.min(500, n); i++) await op(-1 - i); // warm-up
  const samples = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    await op(i);
    samples[i] = Number(process.hrtime.bigint() - t0) / 1000;
  }
  samples.sort();
  return { name, p50: samples[Math.floor(n * 0.5)]!, p99: samples[Math.floor(n * 0.99)]! };
}

async function storeRows(label: string, store: Store, n: number): Promise<Row[]> {
  const session = `bench-${label}`;
  const obs = observation(session, 'git rev-parse HEAD', Date.now());
  await store.insertObservation(obs);
  const tickets = Array.from({ length: 2 * (n + 1000) }, (_, i) =>
    prediction(session, `call-${i}`, Date.now(), predictionDoc(`q${i}`)),
  );
  for (const t of tickets) await store.insertPrediction(t);
  const at = (i: number) => i + 1000; // warm-up calls come in negative: 500..999, then 1000..
  return [
    await measure(`${label} insertObservation`, n, () =>
      store.insertObservation(observation(session, 'ls -la', Date.now())),
    ),
    await measure(`${label} findOpenPrediction + consumePrediction`, n, async (i) => {
      const open = await store.findOpenPrediction(session, `call-${at(i)}`);
      if (!open || !(await store.consumePrediction(open.id, Date.now()))) throw new Error('no ticket');
    }),
    await measure(`${label} appendAudit (1 row)`, n, () => store.appendAudit([draft(session)])),
    // The store calls of one dispatched irreversible check, in core's order (decide.ts).
    await measure(
      `${label} check path: overrides, streak, ticket, evidence, consume, audit`,
      n,
      async (i) => {
        const t = tickets[n + 1000 + at(i)]!; // the second half: not touched above
        await store.findOverrides(session, ['git.push'], t.call_digest, Date.now());
        await store.getRejections(session, t.call_digest);
        const open = await store.findOpenPrediction(session, t.call_digest);
        await store.findObservationsBySource(session, 'git rev-parse HEAD', 8);
        if (!open || !(await store.consumePrediction(open.id, Date.now()))) throw new Error('no ticket');
        await store.appendAudit([draft(session, { call_digest: t.call_digest, outcome: 'dispatch' })]);
      },
    ),
  ];
}

async function baselines(dir: string, n: number): Promise<Row[]> {
  const raw = new Sqlite(join(dir, 'baseline.db'));
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = NORMAL');
  raw.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, doc TEXT)');
  const insert = raw.prepare('INSERT INTO t (doc) VALUES (?)');
  const envelope = JSON.stringify({ prediction: predictionDoc() });
  try {
    return [
      await measure('baseline JSON.parse(envelope)', n, () => JSON.parse(envelope)),
      await measure('baseline bare better-sqlite3 insert (WAL, NORMAL)', n, () => insert.run(envelope)),
    ];
  } finally {
    raw.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'tollgate-bench-'));
const rows: Row[] = [];
try {
  rows.push(...(await baselines(dir, 20_000)));
  const sqlite = await SqliteStore.open(join(dir, 'bench.db'));
  rows.push(...(await storeRows('sqlite', sqlite, 10_000)));
  await sqlite.close();
  const schema = freshSchemaName('tg_bench');
  try {
    const pg = await PostgresStore.open(PG_URL, { schema });
    rows.push(...(await storeRows('postgres', pg, 2_000)));
    await pg.close();
  } catch (error) {
    console.error(`PostgreSQL skipped: ${(error as Error).message}`);
  } finally {
    await dropSchema(schema).catch(() => {});
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const base = rows.find((r) => r.name.startsWith('baseline bare'))!.p50;
console.log(`store hot paths, ${new Date().toISOString().slice(0, 10)}, node ${process.version}`);
console.log('| operation | p50 µs | p99 µs | p50 ÷ bare insert |');
console.log('|---|---:|---:|---:|');
for (const r of rows)
  console.log(`| ${r.name} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${(r.p50 / base).toFixed(1)} |`);
