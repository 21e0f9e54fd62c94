// Throughput of gated decisions with their audit rows on the shared PostgreSQL store: one gate
// process, then three on one database (each its own process, pool and gate), beside one gate on the
// embedded SQLite store measured in the same run. Each decision is an agent's loop: a fresh read
// recorded in the ledger, then a call with a prediction citing it, dispatched with its ticket consumed
// and its audit row committed in one transaction. After the three-process run the chain must verify.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scaled } from './mode.mjs';

const POLICY = new URL('../test/fixtures/tools.policy.yaml', import.meta.url).pathname;
const PG_URL = process.env.TOLLGATE_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SECONDS = scaled(3, 1);
/** Agent loops in flight per process. */
const CONCURRENCY = 8;

const WORKER_FLAG = '--tollgate-bench-pg-worker';
const at = process.argv.indexOf(WORKER_FLAG);
if (at !== -1) await worker(JSON.parse(process.argv[at + 1]));

/** One gate process: runs CONCURRENCY loops for SECONDS once told to start, and reports its count. */
async function worker({ target, schema, name }) {
  const { createGate, loadPolicy } = await import('@tollgate/core');
  const { PostgresStore, SqliteStore } = await import('@tollgate/store');
  const store =
    schema === undefined ? await SqliteStore.open(target) : await PostgresStore.open(target, { schema });
  const gate = createGate({ policy: loadPolicy([POLICY]), store });
  process.send({ ready: true });
  await new Promise((resolve) => process.once('message', resolve));
  let next = 0;
  let dispatched = 0;
  let other = 0;
  const until = Date.now() + SECONDS * 1000;
  const loop = async () => {
    while (Date.now() < until) {
      const service = `${name}-${next++}`;
      const read = { tool: 'release_status', args: { service } };
      await gate.recordObservation({
        session: `bench-${name}`,
        source: read,
        output: `${service}: running build 41`,
        recordedBy: 'bench',
        attested: true,
      });
      const verdict = await gate.check(
        { tool: 'deploy', args: { service, env: 'production' }, session: `bench-${name}` },
        {
          envelope: {
            prediction: {
              claims: [{ subject: read, op: 'contains', value: 'build 42' }],
              evidence: [{ source: read, quote: 'running build 41' }],
            },
          },
        },
      );
      if (verdict.outcome === 'dispatch') dispatched++;
      else other++;
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  const seconds = (Date.now() - started) / 1000;
  await gate.flush();
  await store.close();
  process.send({ dispatched, other, seconds });
  process.disconnect();
}

/** Starts `n` gate processes on one store, lets them run at once, and sums their decisions per second. */
async function runGates(n, target, schema) {
  const children = Array.from({ length: n }, (_, i) =>
    fork(new URL(import.meta.url), [WORKER_FLAG, JSON.stringify({ target, schema, name: `g${i}` })]),
  );
  const next = (child) =>
    new Promise((resolve, reject) => {
      child.once('message', resolve);
      child.once('error', reject);
      child.once('exit', (code) => code !== 0 && reject(new Error(`a gate process exited ${code}`)));
    });
  await Promise.all(children.map(next));
  const results = children.map(next);
  for (const child of children) child.send('start');
  const done = await Promise.all(results);
  const other = done.reduce((sum, r) => sum + r.other, 0);
  if (other > 0) throw new Error(`${other} matched calls did not dispatch`);
  const dispatched = done.reduce((sum, r) => sum + r.dispatched, 0);
  const seconds = Math.max(...done.map((r) => r.seconds));
  return { dispatched, rate: dispatched / seconds };
}

async function withSchema(fn) {
  const { default: pg } = await import('pg');
  const schema = `tg_bench_${process.pid}_${Date.now().toString(36)}`;
  const drop = async () => {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  };
  try {
    return await fn(schema);
  } finally {
    await drop();
  }
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-pg-bench-'));
  try {
    const sqlite = await runGates(1, join(dir, 'gate.db'), undefined);
    const one = await withSchema((schema) => runGates(1, PG_URL, schema));
    const three = await withSchema(async (schema) => {
      const result = await runGates(3, PG_URL, schema);
      const { PostgresStore } = await import('@tollgate/store');
      const store = await PostgresStore.open(PG_URL, { schema });
      try {
        const chain = await store.verifyAudit();
        if (!chain.ok) throw new Error(`the chain does not verify: ${JSON.stringify(chain.broken_at)}`);
        if (chain.rows !== result.dispatched)
          throw new Error(`${chain.rows} audit rows for ${result.dispatched} decisions`);
      } finally {
        await store.close();
      }
      return result;
    });
    const row = (name, r) => ({
      name,
      value: r.rate,
      unit: 'decisions/s',
      baseline: sqlite.rate,
      ratio: r.rate / sqlite.rate,
    });
    return {
      title: `Gated decisions with audit rows, SQLite vs PostgreSQL (${CONCURRENCY} agent loops per process, ${SECONDS} s; ratios against SQLite)`,
      rows: [
        { name: 'baseline: one gate process on SQLite (WAL)', value: sqlite.rate, unit: 'decisions/s' },
        row('one gate process on PostgreSQL', one),
        row('three gate processes on one PostgreSQL (sum)', three),
      ],
      notes: [
        `Each decision: a read recorded, then a matched irreversible call whose inline prediction cites it, its ticket consumed and audit row committed together. After the three-process run the audit chain verified (${three.dispatched} rows).`,
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
