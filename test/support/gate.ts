// Test support: a gate over a real SQLite file in a temp dir, the tests' own rule file, and a clock
// the test moves by hand (the only thing these tests fake).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Clock, createGate, type Gate, type GateOptions, loadPolicy, type Store } from '@tollgate/core';
import { openStore } from '@tollgate/store';

export const TOOLS_POLICY = join(import.meta.dirname, '../fixtures/tools.policy.yaml');

export class ManualClock implements Clock {
  constructor(public ms = Date.parse('2026-11-22T12:00:00Z')) {}
  now(): number {
    return this.ms;
  }
  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
}

export interface TestGate {
  gate: Gate;
  store: Store;
  clock: ManualClock;
  dir: string;
  dbPath: string;
  close(): Promise<void>;
}

export function tempDir(prefix = 'tollgate-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export async function openTestGate(
  options: Partial<GateOptions> & { policies?: string[] } = {},
): Promise<TestGate> {
  const dir = tempDir();
  const dbPath = join(dir, 'gate.db');
  const store = await openStore(dbPath);
  const clock = new ManualClock();
  const { policies, ...rest } = options;
  const gate = createGate({ policy: loadPolicy(policies ?? [TOOLS_POLICY]), store, clock, ...rest });
  return {
    gate,
    store,
    clock,
    dir,
    dbPath,
    async close() {
      await gate.flush();
      await store.close().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const deployCall = (session = 's1', extra: Record<string, unknown> = {}) => ({
  tool: 'deploy',
  args: { service: 'api', env: 'production', ...extra },
  session,
});

export const statusRead = { tool: 'release_status', args: { service: 'api' } };

/** Records the read a deploy prediction cites, and returns a prediction citing it. */
export async function observeAndPredict(gate: Gate, session = 's1') {
  const observation = await gate.recordObservation({
    session,
    source: statusRead,
    output: 'api: running build 41 (sha 3f2a9c1)',
    recordedBy: 'test',
    attested: true,
  });
  const prediction = {
    claims: [{ subject: statusRead, op: 'contains', value: 'build 42' }],
    evidence: [{ source: statusRead, quote: 'build 41' }],
    rationale: 'build 42 replaces 41',
  };
  return { observation, prediction };
}
