// Invariant 2: a prediction is single-use. Racing consumers — in one process, in several OS
// processes on one SQLite file, and in several gate instances sharing PostgreSQL — dispatch once.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createGate, loadPolicy } from '@tollgate/core';
import { PostgresStore } from '@tollgate/store';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deployCall, observeAndPredict, openTestGate, type TestGate, TOOLS_POLICY } from './support/gate.js';

const PG_URL = process.env.TOLLGATE_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const WORKER = join(import.meta.dirname, 'fixtures/race-worker.ts');
const ROOT = join(import.meta.dirname, '..');

function runWorker(target: string, schema: string, startAt: number, session: string) {
  return new Promise<{ outcome: string; reasons: string[] }>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--conditions=tollgate-source', '--import', 'tsx', WORKER, target, schema, String(startAt), session],
      { cwd: ROOT },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out.trim())) : reject(new Error(`worker exited ${code}: ${err}`)),
    );
  });
}

let t: TestGate;
beforeEach(async () => {
  t = await openTestGate();
});
afterEach(async () => {
  await t.close();
});

describe('invariant 2: single-use predictions', () => {
  it('dispatches once when many checks race in one process', async () => {
    const { prediction } = await observeAndPredict(t.gate);
    await t.gate.recordPrediction(deployCall(), prediction);
    const verdicts = await Promise.all(Array.from({ length: 12 }, () => t.gate.check(deployCall())));
    expect(verdicts.filter((v) => v.outcome === 'dispatch')).toHaveLength(1);
    for (const v of verdicts.filter((v) => v.outcome !== 'dispatch')) {
      expect(v.reasons.map((r) => r.code)).toContain('prediction_already_used');
    }
  });

  it('refuses a replayed inline prediction', async () => {
    const { prediction } = await observeAndPredict(t.gate);
    const results = await Promise.all(
      [1, 2, 3].map(() => t.gate.check(deployCall(), { envelope: { prediction } })),
    );
    expect(results.map((r) => r.outcome).sort()).toEqual(['dispatch', 'rejected', 'rejected']);
    for (const lost of results.filter((r) => r.outcome === 'rejected'))
      expect(lost.reasons.map((r) => r.code)).toContain('prediction_already_used');
    const again = await t.gate.check(deployCall(), { envelope: { prediction } });
    expect(again.reasons.map((r) => r.code)).toContain('prediction_already_used');
  });

  it('a dry look consumes nothing', async () => {
    const { prediction } = await observeAndPredict(t.gate);
    await t.gate.recordPrediction(deployCall(), prediction);
    expect((await t.gate.check(deployCall(), { dryRun: true })).outcome).toBe('dispatch');
    expect((await t.gate.check(deployCall())).outcome).toBe('dispatch');
    expect((await t.gate.check(deployCall())).reasons.map((r) => r.code)).toEqual([
      'prediction_already_used',
    ]);
  });

  it('dispatches once across OS processes sharing one SQLite file', async () => {
    // The workers run on the system clock, so the evidence must be recorded on it too.
    t.clock.ms = Date.now();
    const { prediction } = await observeAndPredict(t.gate, 'race');
    await t.gate.recordPrediction(deployCall('race'), prediction);
    await t.gate.flush();
    const startAt = Date.now() + 2500;
    const results = await Promise.all([1, 2, 3, 4].map(() => runWorker(t.dbPath, '-', startAt, 'race')));
    expect(results.filter((r) => r.outcome === 'dispatch')).toHaveLength(1);
    expect(results.filter((r) => r.reasons.includes('prediction_already_used'))).toHaveLength(3);
    expect((await t.store.verifyAudit()).ok).toBe(true);
  }, 30_000);

  it('dispatches once across gate instances sharing PostgreSQL', async () => {
    const schema = `tg_race_${process.pid}_${Date.now()}`;
    const store = await PostgresStore.open(PG_URL, { schema });
    try {
      const gate = createGate({ policy: loadPolicy([TOOLS_POLICY]), store });
      const { prediction } = await observeAndPredict(gate, 'race');
      await gate.recordPrediction(deployCall('race'), prediction);
      const startAt = Date.now() + 2500;
      const results = await Promise.all([1, 2, 3, 4].map(() => runWorker(PG_URL, schema, startAt, 'race')));
      expect(results.filter((r) => r.outcome === 'dispatch')).toHaveLength(1);
      expect((await store.verifyAudit()).ok).toBe(true);
    } finally {
      await store.close();
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
  }, 30_000);
});
