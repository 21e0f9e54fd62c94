// What preconditions cost on the hot path: the same matched irreversible call (prediction, audit
// row) checked under the test rules alone (the baseline, same run) and with a precondition rule of
// three requirements on it (a read within max_age_s, a diagnostic's latest_output with $data, a
// call dispatched after that diagnostic), all met, over the embedded SQLite store. The two run in
// alternating blocks, each in its own session, so the database's growth and the machine's load drift
// fall on both alike (run one after the other, the second ran on a larger database).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGate, loadPolicy } from '@tollgate/core';
import { openStore } from '@tollgate/store';
import { scaled } from './mode.mjs';
import { summary, timeEach } from './stats.mjs';

const TOOLS = new URL('../test/fixtures/tools.policy.yaml', import.meta.url).pathname;
const read = { tool: 'release_status', args: { service: 'api' } };
const BLOCKS = scaled(10, 2);
const PER_BLOCK = scaled(500, 100);
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

/** One variant: its gate and session, the ledger its requirements read, and its timed blocks. */
async function variant(gate, session, clock) {
  const call = { tool: 'deploy', args: { service: 'api', env: 'production' }, session };
  const observe = (source, output) =>
    gate.recordObservation({ session, source, output, recordedBy: 'bench', attested: true });
  await observe({ tool: 'qa_diagnostic', args: {} }, JSON.stringify({ cycle: 3, max: 3 }));
  clock.now += 10;
  await gate.check({ tool: 'prepare_release', args: {}, session });
  let dispatched = 0;
  let asked = 0; // calls checked so far, which also numbers their predictions
  const readAgain = async () => {
    clock.now += 10;
    await observe(read, 'api: running build 41');
    clock.now += 10;
  };
  const times = [];
  let cpu = 0; // µs of this process's CPU (user + system) inside the timed calls
  const block = async (n, warm) => {
    times.push(
      ...(await timeEach(
        n,
        async () => {
          // A prediction is single-use: each call makes its own.
          const cpu0 = process.cpuUsage();
          const verdict = await gate.check(call, { envelope: { prediction: prediction(asked++) } });
          const used = process.cpuUsage(cpu0);
          cpu += used.user + used.system;
          if (verdict.outcome === 'dispatch') dispatched++;
        },
        warm,
        readAgain,
      )),
    );
  };
  const result = () => {
    if (dispatched !== asked) throw new Error(`${session}: ${dispatched} of ${asked} dispatched`);
    return { ...summary(times.sort((a, b) => a - b)), cpu: cpu / times.length };
  };
  // The warm-up's CPU is not counted.
  const reset = () => {
    cpu = 0;
  };
  return { block, reset, result };
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-bench-pre-'));
  try {
    const extra = join(dir, 'requires.yaml');
    writeFileSync(extra, REQUIRES);
    const store = await openStore(join(dir, 'gate.db'));
    const clock = { now: Date.now() };
    const clocked = { now: () => clock.now };
    const gates = [[TOOLS], [TOOLS, extra]].map((files) =>
      createGate({ policy: loadPolicy(files), store, clock: clocked }),
    );
    // Interleaved sessions would share the audit writer's queue; each variant has its own session.
    const variants = [];
    for (const [i, gate] of gates.entries()) variants.push(await variant(gate, `v${i}`, clock));
    for (const v of variants) await v.block(0, WARM);
    for (const v of variants) v.reset();
    for (let b = 0; b < BLOCKS; b++) {
      // A different variant goes first in each block.
      for (let k = 0; k < variants.length; k++) await variants[(b + k) % variants.length].block(PER_BLOCK, 0);
    }
    const [base, pre] = variants.map((v) => v.result());
    for (const gate of gates) await gate.flush();
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
        {
          name: 'added by the 3 requirements, CPU time (user + system) of the process per call, mean',
          value: pre.cpu - base.cpu,
          unit: 'µs',
          baseline: base.cpu,
          ratio: (pre.cpu - base.cpu) / base.cpu,
        },
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
