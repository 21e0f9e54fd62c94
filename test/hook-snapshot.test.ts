// The hook command `tollgate init claude-code` installs starts node from a start-up snapshot of the
// hook (packages/cli/src/hook-snapshot.ts, bin/hook-snapshot.cjs). Run as Claude Code runs it
// (/bin/sh -c COMMAND): it answers as the plain start does, writes its audit rows, creates a new
// store (kysely, loaded at run time), draws fresh ids in every process, and still answers when the
// blob is corrupt (node refuses it: the plain start runs) or the bundle beside it is newer.
import { execFileSync, type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SNAPSHOT_FLAGS } from '../packages/cli/src/hook-snapshot.js';
import { BIN, lastJson, scratchRepo, tollgate } from '../packages/cli/src/testing/harness.js';

interface Answer {
  hookSpecificOutput: {
    permissionDecision?: string;
    additionalContext?: string;
    permissionDecisionReason?: string;
  };
}

const BUNDLE = join(import.meta.dirname, '../packages/cli/dist/hook.cjs');
let repo: ReturnType<typeof scratchRepo>;
let command: string;
let blob: string;
let n = 0;

const cleanEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.startsWith('TOLLGATE_') && k !== 'CLAUDE_PROJECT_DIR' && k !== 'CLAUDECODE') env[k] = v;
  return env;
};

function input(event: string, tool: string, toolInput: Record<string, unknown>, extra = {}): string {
  return JSON.stringify({
    session_id: 'snapshot-session',
    transcript_path: '/dev/null',
    cwd: repo.work,
    hook_event_name: event,
    tool_name: tool,
    tool_input: toolInput,
    tool_use_id: `toolu_snap_${n++}`,
    ...extra,
  });
}

/** The installed command, through /bin/sh, as Claude Code runs it: exactly one JSON line, exit 0. */
function installed(stdin: string): { answer: Answer; stderr: string } {
  const r = spawnSync('/bin/sh', ['-c', command], {
    cwd: repo.work,
    input: stdin,
    encoding: 'utf8',
    env: cleanEnv(),
  });
  expect(r.status, r.stderr).toBe(0);
  const lines = r.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return { answer: JSON.parse(lines[0] ?? '') as Answer, stderr: r.stderr };
}

/** node started from the blob as init's command starts it (its V8 flags), running SCRIPT ARGS. */
function fromSnapshot(
  script: string,
  args: string[],
  options: { input?: string; env?: NodeJS.ProcessEnv } = {},
): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [...SNAPSHOT_FLAGS, '--snapshot-blob', blob, script, ...args], {
    cwd: repo.work,
    input: options.input ?? '',
    encoding: 'utf8',
    env: options.env ?? cleanEnv(),
  });
}

async function auditIds(): Promise<string[]> {
  const rows = JSON.parse((await tollgate(['audit', 'list', '--json'], { cwd: repo.work })).stdout) as {
    id: string;
  }[];
  return rows.map((r) => r.id);
}

beforeAll(async () => {
  repo = scratchRepo();
  const init = await tollgate(['init', 'claude-code', '--json'], { cwd: repo.work });
  expect(init.code, init.stderr).toBe(0);
  const result = lastJson<{ snapshot: string | null; snapshot_problem?: string }>(init.stdout);
  expect(result.snapshot, result.snapshot_problem).toMatch(/\.v8-cache\/hook-[0-9a-f]{16}\.blob$/);
  blob = result.snapshot as string;
  const settings = JSON.parse(readFileSync(join(repo.work, '.claude', 'settings.json'), 'utf8'));
  command = settings.hooks.PreToolUse[0].hooks[0].command;
}, 120_000);
afterAll(() => rmSync(repo.root, { recursive: true, force: true }));

describe('the hook from its start-up snapshot', () => {
  it('is what init installs, with the plain start as the fallback', () => {
    expect(command).toContain(
      `${SNAPSHOT_FLAGS.join(' ')} --snapshot-blob ${blob} ${BIN} hook claude-code; rc=$?; `,
    );
    expect(command).toMatch(new RegExp(`exit \\$rc; .*${process.execPath} ${BIN} hook claude-code$`));
  });

  it('answers as the plain start does, and records the same audit rows', async () => {
    const cases = [
      input('PreToolUse', 'Bash', { command: 'git push --force origin main' }),
      input('PreToolUse', 'Bash', { command: 'git status --short' }),
      input('PreToolUse', 'Write', { file_path: join(repo.work, 'a.txt'), content: 'x' }),
      input('PreToolUse', 'Bash', { command: 'tollgate override --reason x --ttl 1h --rule git.push.force' }),
    ];
    let recorded = 0;
    for (const stdin of cases) {
      const before = (await auditIds()).length;
      const fast = installed(stdin).answer.hookSpecificOutput;
      const middle = (await auditIds()).length;
      // The fallback half of the installed command: the plain start with the same pins.
      const plain = spawnSync('/bin/sh', ['-c', command.slice(command.lastIndexOf('; ') + 2)], {
        cwd: repo.work,
        input: stdin,
        encoding: 'utf8',
        env: cleanEnv(),
      });
      const slow = (JSON.parse(plain.stdout) as Answer).hookSpecificOutput;
      const after = (await auditIds()).length;
      expect(fast.permissionDecision, stdin).toBe(slow.permissionDecision);
      expect(fast.permissionDecisionReason === undefined, stdin).toBe(
        slow.permissionDecisionReason === undefined,
      );
      expect(middle - before, stdin).toBe(after - middle);
      recorded += middle - before;
    }
    expect(recorded).toBeGreaterThanOrEqual(cases.length - 1);
    const ids = await auditIds();
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('records a read after it (PostToolUse) as an observation', () => {
    const pre = input('PreToolUse', 'Bash', { command: 'git log --oneline' });
    expect(installed(pre).answer.hookSpecificOutput.permissionDecision).toBeUndefined();
    const id = (JSON.parse(pre) as { tool_use_id: string }).tool_use_id;
    const post = JSON.stringify({
      ...JSON.parse(input('PostToolUse', 'Bash', { command: 'git log --oneline' })),
      tool_use_id: id,
      tool_response: { stdout: 'abc second\ndef first\n', stderr: '', interrupted: false },
    });
    expect(installed(post).answer.hookSpecificOutput.additionalContext).toMatch(/observation 01[0-9A-Z]{24}/);
  });

  it('creates and migrates a new store (modules outside the snapshot load at run time)', () => {
    const db = join(repo.root, 'fresh', 'tollgate.db');
    const r = fromSnapshot(BIN, ['hook', 'claude-code'], {
      input: input('PreToolUse', 'Bash', { command: 'git push --force origin main' }),
      env: { ...cleanEnv(), TOLLGATE_DB: db },
    });
    expect(r.status, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as Answer).hookSpecificOutput.permissionDecision).toBe('deny');
    const rows = execFileSync(process.execPath, [BIN, 'audit', 'list', '--json'], {
      cwd: repo.work,
      env: { ...cleanEnv(), TOLLGATE_DB: db },
      encoding: 'utf8',
    });
    expect(JSON.parse(rows)).toHaveLength(1);
  });

  it('runs the bundle on disk when it is not the one the snapshot was built from', () => {
    const { atime, mtime } = statSync(BUNDLE);
    try {
      utimesSync(BUNDLE, atime, new Date(mtime.getTime() + 60_000));
      const { answer } = installed(input('PreToolUse', 'Bash', { command: 'git push --force origin main' }));
      expect(answer.hookSpecificOutput.permissionDecision).toBe('deny');
    } finally {
      utimesSync(BUNDLE, atime, mtime);
    }
  });

  it('falls back to the plain start when node refuses the blob, printing one answer', () => {
    const saved = readFileSync(blob);
    try {
      writeFileSync(blob, 'not a snapshot');
      const { answer, stderr } = installed(
        input('PreToolUse', 'Bash', { command: 'git push --force origin main' }),
      );
      expect(answer.hookSpecificOutput.permissionDecision).toBe('deny');
      expect(stderr).not.toBe('');
    } finally {
      writeFileSync(blob, saved);
    }
    expect(installed(input('PreToolUse', 'Bash', { command: 'git status' })).stderr).toBe('');
  });

  it('keeps a Codex deny (exit 2, the reason on stderr) as the one answer, without a second run', () => {
    const codex = command.replaceAll('hook claude-code', 'hook codex');
    const r = spawnSync('/bin/sh', ['-c', codex], {
      cwd: repo.work,
      input: input('PreToolUse', 'Bash', { command: 'git push --force origin main' }),
      encoding: 'utf8',
      env: cleanEnv(),
    });
    expect(r.status).toBe(2);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const reason = (JSON.parse(lines[0] ?? '') as Answer).hookSpecificOutput.permissionDecisionReason ?? '';
    expect(reason).toContain('held this call');
    // Printed once: the plain start did not run after the snapshot's exit 2.
    expect(r.stderr.trim()).toBe(reason.trim());
  });

  it('finds its bundle through a link to the binary (npx runs node_modules/.bin/tollgate)', () => {
    const link = join(repo.root, 'bin-link', 'tollgate');
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(BIN, link);
    const r = fromSnapshot(link, ['hook', 'claude-code'], {
      input: input('PreToolUse', 'Bash', { command: 'git push --force origin main' }),
      env: { ...cleanEnv(), TOLLGATE_DB: join(repo.root, 'linked', 'tollgate.db') },
    });
    expect(r.status, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as Answer).hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it('runs nothing but the hook', () => {
    const r = fromSnapshot(BIN, ['override', '--reason', 'x']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
  });
});
