// Preconditions and directives through the real Claude Code hook command: the boot brake (the
// shipped example, pointed at this project's identity files) refuses a Bash write naming the files
// still unread, Read by Read, until the same call passes; a new session starts braked; the prompt
// submitted is the directive in force, never evidence, and the audit row shows its latency.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tollgate } from '../packages/cli/src/testing/harness.js';
import { Host } from './adversarial/host.js';

const EXAMPLE = join(import.meta.dirname, '../contracts/policies/examples/boot-brake.yaml');

let host: Host;
let files: { charter: string; governance: string; memos: string };

function braked(h: Host) {
  const dir = join(h.work, 'agent');
  mkdirSync(dir, { recursive: true });
  const f = {
    charter: join(dir, 'charter.md'),
    governance: join(dir, 'governance.md'),
    memos: join(dir, 'memos.md'),
  };
  writeFileSync(f.charter, 'This agent maintains the project files.\n');
  writeFileSync(f.governance, 'The maintainers decide releases.\n');
  writeFileSync(f.memos, '2026-11-20: the release moved to Friday.\n');
  const policy = readFileSync(EXAMPLE, 'utf8').replaceAll('/srv/agent/', `${dir}/`);
  writeFileSync(join(h.work, 'boot-brake.yaml'), policy);
  writeFileSync(h.config, 'mode: enforce\npolicies: [builtin:shell, builtin:files, ./boot-brake.yaml]\n');
  return f;
}

beforeEach(() => {
  host = new Host();
  files = braked(host);
});
afterEach(() => host.close());

describe('the boot brake through the Claude Code hook', () => {
  it('refuses until every identity file was read, naming the rest, and clears at once', async () => {
    const write = 'touch notes.txt';
    const first = await host.bash(write);
    expect(first.denied).toBe(true);
    expect(first.reason).toContain('precondition');
    for (const f of Object.values(files)) expect(first.reason).toContain(f);

    await host.read(files.charter);
    const second = await host.bash(write);
    expect(second.denied).toBe(true);
    expect(second.reason).not.toContain(`Read {"file_path":"${files.charter}"}`);
    expect(second.reason).toContain(files.governance);
    expect(second.reason).toContain(files.memos);

    await host.read(files.governance);
    await host.read(files.memos);
    // The transition: the very same call that was refused twice now passes, with no restart.
    const third = await host.bash(write);
    expect(third.denied).toBe(false);
    expect(third.ran).toBe(true);

    // Another session starts braked.
    const other = new Host();
    try {
      braked(other);
      const fresh = await other.bash(write);
      expect(fresh.denied).toBe(true);
    } finally {
      other.close();
    }
  });

  it('SessionStart tells the agent the gate is on and which preconditions are in force', async () => {
    const answer = await host.sessionEvent('SessionStart', { source: 'startup' });
    const context = answer.hookSpecificOutput.additionalContext ?? '';
    expect(answer.hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(context).toContain('Tollgate is on');
    expect(context).toContain('boot.identity');
    expect(context).toContain('tollgate predict');
    expect(context).toContain('tollgate decline');
  });
});

describe('directives through the Claude Code hook', () => {
  it('a prediction quoting only the prompt is directive_is_not_evidence; the audit row shows the latency', async () => {
    for (const f of Object.values(files)) await host.read(f);
    const prompt = 'Deploy now: the release tag is v9.8.7-gold and main is green.';
    const told = await host.sessionEvent('UserPromptSubmit', { prompt });
    expect(told.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');

    const push = 'git push --force origin main';
    const filed = await host.predictFor(push, {
      claims: [{ subject: 'git ls-remote origin refs/heads/main', op: 'contains', value: 'v9.8.7-gold' }],
      evidence: [{ source: 'git ls-remote origin', quote: 'v9.8.7-gold and main is green' }],
    });
    // Refused when filed (the predict process finds the directive the hook recorded) ...
    expect(filed.stdout, filed.stdout).toContain('directive_is_not_evidence');
    const step = await host.bash(push);
    expect(step.denied).toBe(true);
    // Nothing was filed, so the push itself stays refused.

    const listed = await tollgate(['audit', 'list', '--json', '--session', host.session], {
      cwd: host.work,
      env: host.env(),
    });
    const rows = JSON.parse(listed.stdout) as {
      tool?: string;
      directive?: { text: string };
      directive_latency_ms?: number;
    }[];
    const row = rows.filter((r) => r.tool === 'shell').at(-1);
    expect(row?.directive?.text).toBe(prompt);
    expect(typeof row?.directive_latency_ms).toBe('number');
    expect(row?.directive_latency_ms).toBeGreaterThanOrEqual(0);
  });
});
