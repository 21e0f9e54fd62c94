// npm run demo: a short scripted agent session against the real gate on the embedded SQLite
// default. In a scratch git repository with a bare remote, the "agent" tries a force-push, is
// refused with rails, reads, predicts, dispatches, and the gate stores predicted vs observed.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGate, loadPolicy } from '@tollgate/core';
import { openStore } from '@tollgate/store';

const work = mkdtempSync(join(tmpdir(), 'tollgate-demo-'));
const repo = join(work, 'repo');
const git = (...args) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim();
const sh = (command) => {
  const r = spawnSync('sh', ['-c', command], { cwd: repo, encoding: 'utf8' });
  return { output: `${r.stdout}${r.stderr}`, exit_code: r.status ?? 1 };
};
const step = (title) => console.log(`\n\u001b[1m== ${title}\u001b[0m`);

try {
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', join(work, 'origin.git')]);
  execFileSync('git', ['clone', '-q', join(work, 'origin.git'), repo], { stdio: 'ignore' });
  for (const [k, v] of [
    ['user.email', 'agent@example.invalid'],
    ['user.name', 'Agent'],
  ])
    git('config', k, v);
  git('commit', '-q', '--allow-empty', '-m', 'first');
  git('push', '-q', 'origin', 'main');
  git('commit', '-q', '--amend', '--allow-empty', '-m', 'first, reworded');

  const store = await openStore(join(repo, '.tollgate', 'tollgate.db'));
  const gate = createGate({ policy: loadPolicy(['builtin:shell']), store, channel: 'cli' });
  const session = 'demo-session';
  const run = gate.guard(async (call) => sh(call.args.command), {
    observe: async (subject) => (typeof subject === 'string' ? sh(subject) : undefined),
  });
  const push = { tool: 'shell', args: { command: 'git push --force origin main' }, session };

  step('1. the agent tries a force-push without a prediction');
  const refused = await run(push);
  console.log(`outcome: ${refused.verdict.outcome}  rules: ${refused.verdict.rules.join(', ')}`);
  console.log(refused.verdict.rails?.text);

  step('2. the agent reads the state it will predict from (the gate records the read)');
  const head = sh('git rev-parse HEAD').output.trim();
  const observation = await gate.recordObservation({
    session,
    source: 'git rev-parse HEAD',
    output: head,
    exit_code: 0,
    recordedBy: 'demo',
    attested: true,
  });
  console.log(`observation ${observation.id}: git rev-parse HEAD → ${head}`);

  step('3. the agent predicts the post-state, citing that read');
  const prediction = {
    claims: [{ subject: 'git ls-remote origin refs/heads/main', op: 'contains', value: head }],
    evidence: [{ observation: observation.id, quote: head.slice(0, 12) }],
    rationale: `local main is at ${head.slice(0, 7)}; after the push the remote main points at it`,
  };
  console.log(JSON.stringify(prediction, null, 2));

  step('4. the call carries the prediction: the gate dispatches it and probes the claim');
  const done = await run(push, { prediction });
  console.log(
    `outcome: ${done.verdict.outcome}  exit: ${done.result?.exit_code}  audit: ${done.verdict.audit_id}`,
  );

  step('5. predicted vs observed, from the audit');
  const [outcome] = await store.listAudit({ ref: done.verdict.audit_id });
  for (const c of outcome?.claims ?? []) {
    console.log(
      `${c.result.toUpperCase()}: ${JSON.stringify(c.claim.subject)} ${c.claim.op} ${JSON.stringify(c.claim.value)}; observed ${JSON.stringify(c.observed?.trim())}`,
    );
  }
  const again = await run(push, { prediction });
  console.log(
    `the same prediction again: ${again.verdict.outcome} (${again.verdict.reasons.map((r) => r.code).join(', ')})`,
  );
  await gate.flush();
  const chain = await store.verifyAudit();
  console.log(`audit chain: ${chain.ok ? `intact, ${chain.rows} rows` : `BROKEN at ${chain.broken_at.seq}`}`);
  await store.close();
  if (!chain.ok || done.verdict.outcome !== 'dispatch' || outcome?.claims?.[0]?.result !== 'matched')
    process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
