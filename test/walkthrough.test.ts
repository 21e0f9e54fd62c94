// The README walk-through, run for real: a scratch git repository with a bare remote, the built
// binary, the shipped catalogue. A force-push is held, read, predicted, run, probed, and audited.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git, lastJson, scratchRepo, tollgate } from '../packages/cli/src/testing/harness.js';

let repo: ReturnType<typeof scratchRepo>;
const env = { TOLLGATE_SESSION: 'walkthrough' };
const push = ['git', 'push', '--force', 'origin', 'main'];

beforeAll(() => {
  repo = scratchRepo();
});
afterAll(() => rmSync(repo.root, { recursive: true, force: true }));

describe('walk-through: force-push to main through the gate', () => {
  let head: string;
  let observationId: string;
  let dispatchId: string;

  it('check holds the push (exit 2) and prints rails that say what to read and file', async () => {
    const held = await tollgate(['check', '--', ...push], { cwd: repo.work, env });
    expect(held.code).toBe(2);
    expect(held.stderr).toContain('Tollgate (an automated gate you can satisfy) held this call');
    expect(held.stderr).toContain('git ls-remote origin');
    expect(held.stderr).toContain("tollgate predict --for 'git push --force origin main'");
    const json = await tollgate(['check', '--json', '--', ...push], { cwd: repo.work, env });
    const verdict = lastJson(json.stdout);
    expect(verdict).toMatchObject({ outcome: 'rejected', rules: expect.arrayContaining(['git.push.force']) });
    expect(verdict.reasons).toEqual([expect.objectContaining({ code: 'prediction_missing' })]);
  });

  it('observe runs the read, prints its output and records it', async () => {
    head = git(repo.work, 'rev-parse', 'HEAD');
    const seen = await tollgate(['observe', '--', 'git', 'rev-parse', 'HEAD'], { cwd: repo.work, env });
    expect(seen.code).toBe(0);
    expect(seen.stdout.trim()).toBe(head);
    observationId = /recorded observation (\w+)/.exec(seen.stderr)?.[1] ?? '';
    expect(observationId).toMatch(/^[0-9A-Z]{26}$/);
  });

  it('a prediction citing that observation is accepted', async () => {
    const prediction = {
      claims: [{ subject: 'git ls-remote origin', op: 'contains', value: head }],
      evidence: [{ observation: observationId, quote: head.slice(0, 12) }],
      rationale: 'local main is at HEAD; after the push the remote main points at it',
    };
    const filed = await tollgate(
      ['predict', '--for', push.join(' '), '--json-doc', JSON.stringify(prediction), '--json'],
      { cwd: repo.work, env },
    );
    expect(filed.code).toBe(0);
    expect(lastJson(filed.stdout)).toMatchObject({ ok: true, gated: true });
  });

  it('run dispatches, pushes, and probes the post-state', async () => {
    const ran = await tollgate(['run', '--', ...push], { cwd: repo.work, env });
    expect(ran.code).toBe(0);
    expect(git(repo.remote, 'rev-parse', 'refs/heads/main')).toBe(head);
    expect(ran.stderr).toMatch(/matched\s+git ls-remote origin contains/);
    const list = await tollgate(['audit', 'list', '--json', '--session', 'walkthrough'], { cwd: repo.work });
    const rows = JSON.parse(list.stdout) as { id: string; kind: string; outcome?: string }[];
    dispatchId = rows.find((r) => r.kind === 'decision' && r.outcome === 'dispatch')?.id ?? '';
    expect(dispatchId).not.toBe('');
  });

  it('audit show holds predicted vs observed after the probe ran', async () => {
    const shown = await tollgate(['audit', 'show', dispatchId, '--json'], { cwd: repo.work });
    expect(shown.code).toBe(0);
    const view = lastJson(shown.stdout);
    expect(view).toMatchObject({
      id: dispatchId,
      outcome: 'dispatch',
      result: { status: 'ok', exit_code: 0 },
    });
    expect(view.claims).toEqual([
      expect.objectContaining({
        result: 'matched',
        observed: expect.stringContaining(`${head}\trefs/heads/main`),
      }),
    ]);
    expect(view.evidence).toEqual([expect.objectContaining({ observation: observationId })]);
  });

  it('a second run is refused: the prediction was used', async () => {
    const again = await tollgate(['run', '--json', '--', ...push], { cwd: repo.work, env });
    expect(again.code).toBe(2);
    expect(lastJson<{ verdict: { reasons: { code: string }[] } }>(again.stdout).verdict.reasons).toEqual([
      expect.objectContaining({ code: 'prediction_already_used' }),
    ]);
  });

  it('the audit chain verifies and the report counts the matched claim', async () => {
    const verified = await tollgate(['audit', 'verify'], { cwd: repo.work });
    expect(verified.code).toBe(0);
    const report = lastJson((await tollgate(['audit', 'report', '--json'], { cwd: repo.work })).stdout) as {
      by_rule: Record<string, { claims: { matched: number } }>;
    };
    expect(report.by_rule['git.push.force']?.claims.matched).toBe(1);
  });
});
