// Outside any harness: commands typed in a plain terminal, where no agent hook watches. A real
// repository with a bare remote; git run as a child process with no agent in its environment. The
// pre-push hook of `tollgate init git-hooks` and the `git` shim of `tollgate shim install` hold a
// force-push until a prediction is filed, spend that prediction once, refuse deletions, let a
// fast-forward through, keep the user's own hook, and leave audit rows.
import { spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, git, lastJson, type Run, scratchRepo, tollgate } from '../packages/cli/src/testing/harness.js';

const TOKEN = 'op-token-outside-harness-0123456789';
let repo: ReturnType<typeof scratchRepo>;
let state: string;
let other: string;
let chainLog: string;
let shims: string;
const push = 'git push --force origin main';
/** The terminal's session (TOLLGATE_SESSION): one per describe, so the deny ceiling of one does not reach the next. */
let session = 'terminal-hooks';

/** A person's terminal environment: no agent host markers, no TOLLGATE_* but the state dir. */
function plainEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!/^(TOLLGATE_|CLAUDE|CODEX_|GEMINI_CLI|CURSOR_|OPENCODE)/.test(k)) env[k] = v;
  return { ...env, TOLLGATE_STATE_DIR: state, TOLLGATE_SESSION: session, ...extra };
}

/** git typed in that terminal (PATH as given: with or without the shim directory first). */
function typed(args: string[], extra: Record<string, string> = {}): Run {
  const r = spawnSync('git', args, { cwd: repo.work, env: plainEnv(extra), encoding: 'utf8' });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

const tg = (args: string[], extra: Record<string, string> = {}) =>
  tollgate(args, { cwd: repo.work, env: { TOLLGATE_STATE_DIR: state, TOLLGATE_SESSION: session, ...extra } });
const asOperator = (args: string[]) => tg(args, { TOLLGATE_OPERATOR_TOKEN: TOKEN });

/** Someone else moves the remote's main on: local main no longer contains it, so pushing it forces. */
function remoteMovesOn(message: string): string {
  git(other, 'fetch', '-q', 'origin');
  git(other, 'reset', '-q', '--hard', 'origin/main');
  git(other, 'commit', '-q', '--allow-empty', '-m', message);
  git(other, 'push', '-q', 'origin', 'main');
  return git(repo.remote, 'rev-parse', 'refs/heads/main');
}

/** Observes HEAD through tollgate and files a prediction for `command` citing it. */
async function predict(command: string, extra: Record<string, string> = {}): Promise<string> {
  const head = git(repo.work, 'rev-parse', 'HEAD');
  const seen = await tg(['observe', '--', 'git', 'rev-parse', 'HEAD'], extra);
  expect(seen.code).toBe(0);
  const observation = /recorded observation (\w+)/.exec(seen.stderr)?.[1] ?? '';
  const doc = {
    claims: [{ subject: 'git ls-remote origin', op: 'contains', value: head }],
    evidence: [{ observation, quote: head.slice(0, 12) }],
    rationale: 'local main is at HEAD; after the push the remote main points at it',
  };
  const filed = await tg(['predict', '--for', command, '--json-doc', JSON.stringify(doc), '--json'], extra);
  expect(filed.code, filed.stderr).toBe(0);
  return head;
}

/** The file's text once a process has written it (polled; 30 s at most). */
async function fileWhenThere(file: string): Promise<string> {
  for (let i = 0; i < 300 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 100));
  return readFileSync(file, 'utf8');
}

interface Row {
  id: string;
  kind: string;
  outcome?: string;
  call?: { args?: { command?: string } };
  ref?: string;
  result?: { status: string; summary?: string };
}

async function rows(): Promise<Row[]> {
  const list = await tg(['audit', 'list', '--json']);
  expect(list.code).toBe(0);
  return JSON.parse(list.stdout) as Row[];
}

beforeAll(() => {
  repo = scratchRepo();
  state = join(repo.root, 'state');
  shims = join(repo.root, 'shims');
  other = join(repo.root, 'other');
  git(repo.root, 'clone', '-q', repo.remote, other);
  git(other, 'config', 'user.email', 'other@example.invalid');
  git(other, 'config', 'user.name', 'other');
  writeFileSync(
    join(repo.work, 'tollgate.config.yaml'),
    `tokens:\n  - { token: ${TOKEN}, agent: alice, operator: true }\n`,
  );
  // The user's own pre-push hook, there before tollgate: it logs, and refuses while ./block exists.
  chainLog = join(repo.root, 'chain.log');
  mkdirSync(join(repo.work, '.git', 'hooks'), { recursive: true });
  writeFileSync(
    join(repo.work, '.git', 'hooks', 'pre-push'),
    `#!/bin/sh\nlines=$(cat)\necho "user pre-push $1 [$lines]" >> ${chainLog}\n[ ! -e block ] || { echo 'user hook: blocked' >&2; exit 7; }\n`,
    { mode: 0o755 },
  );
});
afterAll(() => rmSync(repo.root, { recursive: true, force: true }));

describe('tollgate init git-hooks', () => {
  it('is for a person: without an operator token or a terminal it is refused and nothing changes', async () => {
    const refused = await tg(['init', 'git-hooks']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('operator-only');
    expect(() => git(repo.work, 'config', '--get', 'core.hooksPath')).toThrow();
  });

  it('installs its hooks through core.hooksPath under the state dir, chaining a copy of the pre-existing pre-push', async () => {
    const installed = await asOperator(['init', 'git-hooks', '--json']);
    expect(installed.code, installed.stderr).toBe(0);
    const result = lastJson<{ hooks_path: string; chained: string[]; chain: string; copy: string }>(
      installed.stdout,
    );
    expect(result.hooks_path.startsWith(state)).toBe(true);
    expect(result.chained).toEqual(['pre-push']);
    expect(result.chain).toBe(join(repo.work, '.git', 'hooks'));
    // The chained hook runs from the gate's own directory, not from .git/hooks.
    expect(result.copy).toBe(join(result.hooks_path, 'chained'));
    expect(readFileSync(join(result.copy, 'pre-push'), 'utf8')).toBe(
      readFileSync(join(repo.work, '.git', 'hooks', 'pre-push'), 'utf8'),
    );
    expect(git(repo.work, 'config', '--get', 'core.hooksPath')).toBe(result.hooks_path);
  });

  it('runs the copy taken at install: a pre-push rewritten in .git/hooks afterwards never runs', () => {
    const original = join(repo.work, '.git', 'hooks', 'pre-push');
    const saved = readFileSync(original, 'utf8');
    const marker = join(repo.root, 'rewritten-hook-ran');
    // What an agent with a prediction for a write to .git/ could plant there: code that runs with every push.
    writeFileSync(original, `#!/bin/sh\ntouch ${marker}\nexit 0\n`, { mode: 0o755 });
    try {
      git(repo.work, 'branch', '-f', 'feat2');
      const pushed = typed(['push', '-q', 'origin', 'feat2']);
      expect(pushed.code, pushed.stderr).toBe(0);
      expect(existsSync(marker)).toBe(false);
      expect(readFileSync(chainLog, 'utf8')).toContain('refs/heads/feat2');
    } finally {
      writeFileSync(original, saved, { mode: 0o755 });
    }
  });

  it('lets a fast-forward push of a feature branch through, after the user hook ran', () => {
    git(repo.work, 'branch', 'feat');
    const pushed = typed(['push', '-q', 'origin', 'feat']);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(git(repo.remote, 'rev-parse', 'refs/heads/feat')).toBe(git(repo.work, 'rev-parse', 'feat'));
    expect(readFileSync(chainLog, 'utf8')).toMatch(
      /user pre-push origin \[refs\/heads\/feat [0-9a-f]{40} refs\/heads\/feat 0{40}\]/,
    );
  });

  it('refuses a force-push with rails that name the command to predict for; the remote is unchanged', async () => {
    const before = remoteMovesOn('someone else');
    const held = typed(['push', '--force', 'origin', 'main']);
    expect(held.code).not.toBe(0);
    expect(held.stderr).toContain(
      'tollgate (git hook): git is about to run git push --force origin main — it force-updates refs/heads/main',
    );
    expect(held.stderr).toContain(`tollgate predict --for '${push}'`);
    expect(held.stderr).toContain('git ls-remote origin');
    expect(git(repo.remote, 'rev-parse', 'refs/heads/main')).toBe(before);
    const last = (await rows()).filter((r) => r.kind === 'decision').at(-1);
    expect(last).toMatchObject({ outcome: 'rejected', call: { args: { command: push } } });
  });

  it('decides before the chained user hook runs: a push it refuses never reaches that hook, one it lets through does', () => {
    writeFileSync(join(repo.work, 'block'), '');
    const logged = readFileSync(chainLog, 'utf8');
    const held = typed(['push', '--force', 'origin', 'main']);
    expect(held.code).not.toBe(0);
    expect(held.stderr).toContain('tollgate (git hook)');
    expect(held.stderr).not.toContain('user hook: blocked');
    expect(readFileSync(chainLog, 'utf8')).toBe(logged);
    // A push the gate lets through meets the user hook next, whose refusal stands.
    git(repo.work, 'branch', '-f', 'feat3');
    const blocked = typed(['push', 'origin', 'feat3']);
    rmSync(join(repo.work, 'block'));
    expect(blocked.code).not.toBe(0);
    expect(blocked.stderr).toContain('user hook: blocked');
    expect(blocked.stderr).not.toContain('tollgate (git hook)');
  });

  it('lets the force-push through once a prediction is filed, consumes it, and records the outcome', async () => {
    const head = await predict(push);
    const pushed = typed(['push', '--force', 'origin', 'main']);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(pushed.stderr).toMatch(
      /tollgate: prediction \w+ lets git push --force origin main through \(audit (\w+)\)/,
    );
    expect(git(repo.remote, 'rev-parse', 'refs/heads/main')).toBe(head);
    const auditId = /\(audit (\w+)\)/.exec(pushed.stderr)?.[1] ?? '';
    const dispatch = (await rows()).find((r) => r.id === auditId);
    expect(dispatch).toMatchObject({
      kind: 'decision',
      outcome: 'dispatch',
      call: { args: { command: push } },
    });
    // The detached settle waits for git to end, then records the remote's state and probes the claim.
    let shown: { result?: { status: string }; claims?: { result: string }[] } = {};
    for (let i = 0; i < 100 && shown.result === undefined; i++) {
      await new Promise((r) => setTimeout(r, 200));
      shown = lastJson((await tg(['audit', 'show', auditId, '--json'])).stdout);
    }
    expect(shown.result).toMatchObject({ status: 'ok' });
    expect(shown.claims).toEqual([expect.objectContaining({ result: 'matched' })]);
    // Spent: the next force-push of the same command is held again.
    remoteMovesOn('moves on again');
    const again = typed(['push', '--force', 'origin', 'main']);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('prediction_already_used');
  });

  it('does not judge twice a push another gate dispatched (here tollgate run, by its gated part), and a dispatch covers one push', async () => {
    remoteMovesOn('before run');
    const line = `cd . && ${push}`;
    const head = await predict(line);
    const ran = await tg(['run', '--command', line]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).toMatch(
      /tollgate: git push --force origin main was already let through \(audit \w+\)/,
    );
    expect(git(repo.remote, 'rev-parse', 'refs/heads/main')).toBe(head);
    // That dispatch row is claimed: the same push typed again is judged afresh, and held.
    remoteMovesOn('after run');
    const again = typed(['push', '--force', 'origin', 'main']);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('tollgate (git hook)');
  });

  it("takes a host hook's dispatch only under that host: another session's push of the same refs is refused, the host's passes once", async () => {
    const ccSession = 'cc-dispatching-host';
    remoteMovesOn('before the host');
    const head = await predict(push, { TOLLGATE_SESSION: ccSession });
    // A stand-in for Claude Code (by its package path) with the hook and a Bash tool.
    const host = join(repo.root, 'host', 'node_modules', '@anthropic-ai', 'claude-code', 'cli.js');
    mkdirSync(dirname(host), { recursive: true });
    copyFileSync(join(import.meta.dirname, 'fixtures', 'agent-host-stand-in.cjs'), host);
    const io = join(repo.root, 'host-io');
    writeFileSync(
      `${io}.event`,
      JSON.stringify({
        session_id: ccSession,
        transcript_path: `/home/u/.claude/projects/x/${ccSession}.jsonl`,
        cwd: repo.work,
        permission_mode: 'default',
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command: push },
        tool_use_id: 'toolu_host_push',
      }),
    );
    const child = spawn(process.execPath, [host, BIN, `${io}.event`, `${io}.go`, `${io}.out`], {
      cwd: repo.work,
      env: plainEnv(),
      stdio: 'ignore',
    });
    const exited = new Promise((r) => child.on('exit', r));
    const answer = JSON.parse(await fileWhenThere(`${io}.out.hook`)) as {
      hookSpecificOutput: { permissionDecision?: string; additionalContext?: string };
    };
    expect(answer.hookSpecificOutput.permissionDecision).toBeUndefined();
    expect(answer.hookSpecificOutput.additionalContext).toMatch(/prediction \w+ accepted/);
    // Meanwhile another session pushes the same refs from a plain terminal: it cannot ride the dispatch.
    const intruder = typed(['push', '--force', 'origin', 'main'], { TOLLGATE_SESSION: 'another-session' });
    expect(intruder.code).not.toBe(0);
    expect(intruder.stderr).toContain('tollgate (git hook)');
    expect(intruder.stderr).toContain('prediction_missing');
    expect(git(repo.remote, 'rev-parse', 'refs/heads/main')).not.toBe(head);
    // The host's own Bash call runs the push: its git hook takes the dispatch.
    writeFileSync(`${io}.go.1`, '');
    const first = JSON.parse(await fileWhenThere(`${io}.out.1`)) as { code: number; stderr: string };
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/git push --force origin main was already let through \(audit \w+\)/);
    expect(git(repo.remote, 'rev-parse', 'refs/heads/main')).toBe(head);
    // Once: the same call run again under the same host is judged afresh, and held.
    remoteMovesOn('after the host');
    writeFileSync(`${io}.go.2`, '');
    const second = JSON.parse(await fileWhenThere(`${io}.out.2`)) as { code: number; stderr: string };
    expect(second.code).not.toBe(0);
    expect(second.stderr).toContain('tollgate (git hook)');
    await exited;
  });

  it('reads a forcing push refspec in config into the typed command: git push origin is the forced push of main it is', () => {
    const before = git(repo.remote, 'rev-parse', 'refs/heads/main');
    git(repo.work, 'config', 'remote.origin.push', '+refs/heads/main:refs/heads/main');
    const held = typed(['push', 'origin']);
    git(repo.work, 'config', '--unset', 'remote.origin.push');
    expect(held.code).not.toBe(0);
    expect(held.stderr).toContain('git is about to run git push origin — it force-updates refs/heads/main');
    expect(held.stderr).toContain("tollgate predict --for 'git push origin'");
    expect(git(repo.remote, 'rev-parse', 'refs/heads/main')).toBe(before);
  });

  it('judges the updates git reports when the typed command does not show them (a refspec the config maps)', () => {
    const before = git(repo.remote, 'rev-parse', 'refs/heads/main');
    // A colon-less refspec takes its destination from remote.NAME.push: `git push origin feat` is feat onto main.
    git(repo.work, 'config', 'remote.origin.push', '+refs/heads/feat:refs/heads/main');
    const held = typed(['push', 'origin', 'feat']);
    git(repo.work, 'config', '--unset', 'remote.origin.push');
    expect(held.code).not.toBe(0);
    expect(held.stderr).toContain('The command typed, git push origin feat, does not show all of that');
    expect(git(repo.remote, 'rev-parse', 'refs/heads/main')).toBe(before);
  });

  it('refuses a deletion of a remote branch, and an audited override by a person lets it through', async () => {
    const held = typed(['push', 'origin', '--delete', 'feat']);
    expect(held.code).not.toBe(0);
    expect(held.stderr).toContain('it deletes refs/heads/feat');
    expect(git(repo.remote, 'branch', '--list', 'feat')).toContain('feat');
    const override = await asOperator([
      'override',
      '--for',
      'git push origin --delete feat',
      '--reason',
      'branch merged',
      '--ttl',
      '5m',
    ]);
    expect(override.code, override.stderr).toBe(0);
    const deleted = typed(['push', 'origin', '--delete', 'feat']);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stderr).toMatch(/tollgate: override \w+ lets git push origin --delete feat through/);
    expect(git(repo.remote, 'branch', '--list', 'feat')).toBe('');
  });
});

describe('tollgate shim', () => {
  beforeAll(() => {
    session = 'terminal-shims';
  });
  const shimPath = () => `${shims}:${process.env.PATH ?? ''}`;

  it('install is for a person; doctor says the shim is not effective until PATH puts it first', async () => {
    const refused = await tg(['shim', 'install', 'git', '--dir', shims]);
    expect(refused.code).toBe(1);
    expect(existsSync(join(shims, 'git'))).toBe(false);
    const installed = await asOperator(['shim', 'install', 'git', '--dir', shims, '--json']);
    expect(installed.code, installed.stderr).toBe(0);
    const off = await tg(['shim', 'doctor', '--dir', shims]);
    expect(off.code).toBe(1);
    expect(off.stdout).toContain('NOT on PATH');
    const on = await tg(['shim', 'doctor', '--dir', shims, '--json'], { PATH: shimPath() });
    expect(on.code, on.stdout).toBe(0);
    expect(lastJson(on.stdout)).toMatchObject({ effective: true, shims: [{ name: 'git', current: true }] });
  });

  it('refuses a force-push typed as git with the shim first on PATH: the real git never runs', async () => {
    const before = remoteMovesOn('third party');
    const logged = readFileSync(chainLog, 'utf8');
    for (const args of [
      ['push', '--force', 'origin', 'main'],
      ['push', '--force', '--no-verify', 'origin', 'main'],
    ]) {
      const held = typed(args, { PATH: shimPath() });
      expect(held.code, args.join(' ')).toBe(2);
      expect(held.stderr).toContain(`tollgate predict --for 'git ${args.join(' ')}'`);
    }
    expect(git(repo.remote, 'rev-parse', 'refs/heads/main')).toBe(before);
    // git never ran: not even the user's pre-push hook saw these pushes.
    expect(readFileSync(chainLog, 'utf8')).toBe(logged);
  });

  it('passes the force-push once after a prediction (the pre-push hook does not judge it twice), then refuses again', async () => {
    const head = await predict(push);
    const pushed = typed(['push', '--force', 'origin', 'main'], { PATH: shimPath() });
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(git(repo.remote, 'rev-parse', 'refs/heads/main')).toBe(head);
    expect(pushed.stderr).not.toContain('tollgate (git hook)');
    expect(pushed.stderr).toMatch(/matched\s+git ls-remote origin contains/);
    remoteMovesOn('and again');
    const again = typed(['push', '--force', 'origin', 'main'], { PATH: shimPath() });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('prediction_already_used');
  });

  it('a decline filed for the call is exit 3 through the shim, and git never runs', async () => {
    const before = git(repo.remote, 'rev-parse', 'refs/heads/main');
    const logged = readFileSync(chainLog, 'utf8');
    expect((await tg(['observe', '--', 'git', 'rev-parse', 'HEAD'])).code).toBe(0);
    const filed = await tg([
      'decline',
      '--for',
      push,
      '--irreducible',
      'cannot tell whether the other clone still needs its commit on main',
      '--would-change-my-mind',
      'the other clone says its commit is obsolete',
      '--attempted',
      'git rev-parse HEAD',
    ]);
    expect(filed.code, filed.stderr).toBe(0);
    const declined = typed(['push', '--force', 'origin', 'main'], { PATH: shimPath() });
    expect(declined.code).toBe(3);
    expect(declined.stdout).toBe('');
    expect(declined.stderr).toContain('declined');
    expect(git(repo.remote, 'rev-parse', 'refs/heads/main')).toBe(before);
    expect(readFileSync(chainLog, 'utf8')).toBe(logged);
  });

  it('lets reads through, and tollgate observe works beside the shim', async () => {
    const status = typed(['rev-parse', 'HEAD'], { PATH: shimPath() });
    expect(status.code).toBe(0);
    expect(status.stdout.trim()).toBe(git(repo.work, 'rev-parse', 'HEAD'));
    const seen = await tg(['observe', '--', 'git', 'rev-parse', 'HEAD'], { PATH: shimPath() });
    expect(seen.code).toBe(0);
    expect(seen.stdout.trim()).toBe(git(repo.work, 'rev-parse', 'HEAD'));
  });

  it('doctor fails on an edited wrapper; uninstall is for a person and removes only shims', async () => {
    appendFileSync(join(shims, 'git'), '# edited\n');
    const edited = await tg(['shim', 'doctor', '--dir', shims], { PATH: shimPath() });
    expect(edited.code).toBe(1);
    expect(edited.stdout).toContain('edited');
    expect((await tg(['shim', 'uninstall', 'git', '--dir', shims])).code).toBe(1);
    expect(existsSync(join(shims, 'git'))).toBe(true);
    const removed = await asOperator(['shim', 'uninstall', '--all', '--dir', shims]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(existsSync(join(shims, 'git'))).toBe(false);
    expect((await tg(['shim', 'doctor', '--dir', shims], { PATH: shimPath() })).code).toBe(1);
  });
});

describe('an agent cannot take the guards down from its own shell', () => {
  const ccSession = 'cc-outside-1';
  const hook = async (command: string) => {
    const input = JSON.stringify({
      session_id: ccSession,
      transcript_path: `/home/u/.claude/projects/x/${ccSession}.jsonl`,
      cwd: repo.work,
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command, description: 'agent command' },
      tool_use_id: `toolu_${Math.random().toString(36).slice(2)}`,
    });
    const out = await tollgate(['hook', 'claude-code'], {
      cwd: repo.work,
      env: { TOLLGATE_STATE_DIR: state },
      input,
    });
    return lastJson<{
      hookSpecificOutput: { permissionDecision?: string; permissionDecisionReason?: string };
    }>(out.stdout).hookSpecificOutput;
  };

  it('denies tollgate shim install/uninstall and init git-hooks (--remove) in an agent Bash call', async () => {
    for (const command of [
      'tollgate shim uninstall --all',
      `tollgate shim install git --dir ${shims}`,
      'npx tollgate init git-hooks --remove',
      'tollgate init git-hooks',
    ]) {
      const answer = await hook(command);
      expect(answer.permissionDecision, command).toBe('deny');
      expect(answer.permissionDecisionReason, command).toContain('runs the tollgate CLI itself');
    }
  });

  it('refuses a write to the chained hook copy even with a valid prediction filed for it', async () => {
    const hooksPath = git(repo.work, 'config', '--get', 'core.hooksPath');
    const copy = join(hooksPath, 'chained', 'pre-push');
    // The agent's Write tool over the copy, and the read both write rules accept (a Read of that
    // very file), seen by the hook: pre, then post.
    const event = (hook_event_name: string, tool_name: string, tool_input: object, extra: object = {}) =>
      tollgate(['hook', 'claude-code'], {
        cwd: repo.work,
        env: { TOLLGATE_STATE_DIR: state },
        input: JSON.stringify({
          session_id: ccSession,
          transcript_path: `/home/u/.claude/projects/x/${ccSession}.jsonl`,
          cwd: repo.work,
          hook_event_name,
          tool_name,
          tool_input,
          tool_use_id: `toolu_${tool_name}_copy`,
          ...extra,
        }),
      });
    await event('PreToolUse', 'Read', { file_path: copy });
    await event(
      'PostToolUse',
      'Read',
      { file_path: copy },
      {
        tool_response: { file: { content: readFileSync(copy, 'utf8') } },
      },
    );
    const source = { tool: 'Read', args: { file_path: copy } };
    const doc = {
      claims: [{ subject: source, op: 'contains', value: 'exit 0' }],
      evidence: [{ source, quote: 'user pre-push' }],
      rationale: 'the copy logs and refuses; after the write it exits 0',
    };
    const args = { file_path: copy, content: 'exit 0\n' };
    const filed = await tg(
      [
        'predict',
        '--tool',
        'Write',
        '--args',
        JSON.stringify(args),
        '--json-doc',
        JSON.stringify(doc),
        '--json',
      ],
      { TOLLGATE_SESSION: ccSession },
    );
    expect(filed.code, filed.stdout).toBe(0);
    const answer = lastJson<{
      hookSpecificOutput: { permissionDecision?: string; permissionDecisionReason?: string };
    }>((await event('PreToolUse', 'Write', args)).stdout).hookSpecificOutput;
    expect(answer.permissionDecision).toBe('deny');
    expect(answer.permissionDecisionReason).toContain('gate.self');
    expect(readFileSync(join(hooksPath, 'chained', 'pre-push'), 'utf8')).toContain('user pre-push');
  });

  it("holds an agent's write to the hooks directory or its core.hooksPath change as a change to the gate", async () => {
    const hooksPath = git(repo.work, 'config', '--get', 'core.hooksPath');
    for (const [command, rule] of [
      // gate.self is operator-only: no prediction lets the agent rewrite the gate's own hooks or shims.
      [`printf 'exit 0' > ${hooksPath}/pre-push`, 'gate.self'],
      [
        `mkdir -p ${state}/shims && printf '#!/bin/sh\\nexec /usr/bin/git "$@"' > ${state}/shims/git`,
        'gate.self',
      ],
      [`git config core.hooksPath ${join(repo.root, 'mine')}`, 'git.config.persistent'],
      // The copy of the user's hooks the gate chains to, and a shim directory given with --dir.
      [`printf 'exit 0' > ${hooksPath}/chained/pre-push`, 'gate.self'],
      [`printf '#!/bin/sh\\nexec /usr/bin/git "$@"' > ${shims}/git`, 'gate.self'],
    ]) {
      const answer = await hook(command as string);
      expect(answer.permissionDecision, command).toBe('deny');
      expect(answer.permissionDecisionReason, command).toContain(rule);
    }
  });
});

describe('tollgate init git-hooks --remove', () => {
  it('is for a person, and puts the previous hooks back in charge', async () => {
    const hooksPath = git(repo.work, 'config', '--get', 'core.hooksPath');
    expect((await tg(['init', 'git-hooks', '--remove'])).code).toBe(1);
    expect(git(repo.work, 'config', '--get', 'core.hooksPath')).toBe(hooksPath);
    const removed = await asOperator(['init', 'git-hooks', '--remove', '--json']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(() => git(repo.work, 'config', '--get', 'core.hooksPath')).toThrow();
    expect(existsSync(hooksPath)).toBe(false);
    // The user's own hook runs again by itself, and the gate no longer speaks in git.
    writeFileSync(join(repo.work, 'block'), '');
    const blocked = typed(['push', 'origin', 'main']);
    rmSync(join(repo.work, 'block'));
    expect(blocked.stderr).toContain('user hook: blocked');
    expect(blocked.stderr).not.toMatch(/tollgate[ :(]/);
  });
});
