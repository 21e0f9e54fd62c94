// What preconditions cost on the hot path: the same matched irreversible call (prediction, audit
// row) checked under the test rules alone (the baseline, same run) and with a precondition rule of
// three requirements on it (a read within max_age_s, a diagnostic's latest_output with $data, a
// call dispatched after that diagnostic), all met, over the embedded SQLite store.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGate, loadPolicy } from '@tollgate/core';
import { openStore } from '@tollgate/store';
import { scaled } from './mode.mjs';
import { summary, timeEach } from './stats.mjs';

const TOOLS = new URL('../test/fixtures/tools.policy.yaml', import.meta.url).pathname;
const read = { tool: 'release_status', args: { service: 'api' } };
const N = scaled(5_000, 200);
const WARM = scaled(200, 20);
const REQUIRES = `rules:
  - id: deploy.after-qa
    description: a deploy waits for a fresh status read and a remediated or certified diagnostic
    tool: deploy
    class: precondition
    severity: high
    requires:
      - observed: { tool: release_status }
        max_age_s: 300
      - observed: { tool: qa_diagnostic }
        latest_output:
          properties:
            cycle: { minimum: { $data: "1/max" } }
      - dispatched: { tool: prepare_release }
        after: { observed: { tool: qa_diagnostic } }
`;
const prediction = (i) => ({
  claims: [{ subject: read, op: 'contains', value: 'build 42' }],
  evidence: [{ source: read, quote: 'build 41' }],
  rationale: `deploy ${i}`,
});

async function loop(gate, session, clock) {
  const call = { tool: 'deploy', args: { service: 'api', env: 'production' }, session };
  const observe = (source, output) =>
    gate.recordObservation({ session, source, output, recordedBy: 'bench', attested: true });
  await observe({ tool: 'qa_diagnostic', args: {} }, JSON.stringify({ cycle: 3, max: 3 }));
  clock.now += 10;
  await gate.check({ tool: 'prepare_release', args: {}, session });
  let dispatched = 0;
  const readAgain = async () => {
    clock.now += 10;
    await observe(read, 'api: running build 41');
    clock.now += 10;
  };
  const times = await timeEach(
    N,
    async (i) => {
      const verdict = await gate.check(call, { envelope: { prediction: prediction(i) } });
      if (verdict.outcome === 'dispatch') dispatched++;
    },
    WARM,
    readAgain,
  );
  if (dispatched !== N + WARM) throw new Error(`${session}: ${dispatched} of ${N + WARM} dispatched`);
  return summary(times);
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-bench-pre-'));
  try {
    const extra = join(dir, 'requires.yaml');
    writeFileSync(extra, REQUIRES);
    const store = await openStore(join(dir, 'gate.db'));
    const clock = { now: Date.now(), value: 0 };
    const clocked = { now: () => clock.now };
    const plain = createGate({ policy: loadPolicy([TOOLS]), store, clock: clocked });
    const gated = createGate({ policy: loadPolicy([TOOLS, extra]), store, clock: clocked });
    // Interleaved sessions would share the audit writer's queue; each loop has its own session.
    const base = await loop(plain, 'plain', clock);
    const pre = await loop(gated, 'requires', clock);
    await plain.flush();
    await gated.flush();
    await store.close();
    const row = (name, value, target) => ({
      name,
      value,
      unit: 'µs',
      baseline: base.p50,
      ratio: value / base.p50,
      ...(target ? { target } : {}),
    });
    return {
      title: 'preconditions: a matched call with three requirements (SQLite, WAL)',
      rows: [
        { name: 'baseline: matched irreversible + prediction + audit row, p50', value: base.p50, unit: 'µs' },
        row('same call, rule with 3 requirements (met), p50', pre.p50),
        row('added by the 3 requirements, p50', pre.p50 - base.p50, '≤ 50 µs'),
        row('same call, rule with 3 requirements (met), p99', pre.p99),
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
