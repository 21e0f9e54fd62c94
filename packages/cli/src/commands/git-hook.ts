// `tollgate git-hook pre-push|pre-commit|pre-rebase ARGS`: what the hooks `tollgate init git-hooks`
// installs run. The gate judges the git command first, consuming its prediction, exactly as tollgate
// run would; only a command it lets through reaches the hook that was configured before (the gate's
// own copy of it, init git-hooks), whose refusal then stands. A chained hook is code that runs with
// the push: it never runs for a push the gate refuses. For a push the call is the command line the person typed when that
// shows everything the push does (force, deletion, a protected branch); otherwise the command that
// makes exactly these ref updates (git-push-updates.ts), and the rails name that one. After a
// dispatch a detached `git-hook settle` waits for git to finish and records the outcome.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Verdict } from '@tollgate/contracts';
import { callDigest, sanitiseText } from '@tollgate/core';
import { shellLine, shellWord } from '@tollgate/hooks';
import { option, type ParsedArgs } from '../args.js';
import type { CommandIO } from '../command.js';
import { claimsDir, viaIsAncestor } from '../dispatch-via.js';
import { UsageError } from '../errors.js';
import { CHAIN_ENV, GATED_HOOKS, type GatedHook } from '../git-hook-script.js';
import { parentGitCommand } from '../git-parent.js';
import {
  parsePushLines,
  pushCommand,
  type RefUpdate,
  type UpdateKind,
  updateKind,
} from '../git-push-updates.js';
import { isExecutableFile, realProgram } from '../real-program.js';
import { openRuntime, type Runtime, sessionFrom } from '../runtime.js';
import { projectStateDir } from '../state.js';
import { readInput } from '../stdin.js';
import { agentFrom, defineCommand, directiveFrom, EXIT, shellCall } from '../support.js';
import { settleAfterGit } from './git-hook-settle.js';
import { printVerdict } from './verdict-text.js';

export const command = defineCommand(
  {
    name: 'git-hook',
    summary: 'what the git hooks of init git-hooks run (pre-push, pre-commit, pre-rebase)',
    options: { audit: 'string', pid: 'string', remote: 'string', expect: 'string', session: 'string' },
    subcommands: [...GATED_HOOKS, 'settle'],
    usage: `
Usage: tollgate git-hook pre-push REMOTE URL < ref lines
       tollgate git-hook pre-commit | pre-rebase [ARGS]

Run by the hooks tollgate init git-hooks installs, not by hand. The gate judges the git command
that runs the hook first, consuming its prediction; only then does the hook configured before run
(the copy init took), and its refusal stands. A push is
judged as the command typed when that shows what the push does (force, deletion, a protected
branch), else as \`git push REMOTE SPEC...\` making exactly the ref updates git reported; the rails
name the command to file a prediction for. Exit 0 lets git go on; 2 rejected, 3 declined.
`,
  },
  async (args: ParsedArgs, io: CommandIO) => {
    const [hook, ...rest] = args.positionals;
    if (hook === 'settle') return settleAfterGit(args, io);
    if (!GATED_HOOKS.includes(hook as GatedHook))
      throw new UsageError(`unknown git hook ${JSON.stringify(hook)}`, `one of ${GATED_HOOKS.join(', ')}`);
    const input =
      hook === 'pre-push' ? Buffer.from((await readInput(io.stdin, 16 * 1024 * 1024)).bytes) : undefined;
    const argv = [...rest, ...(args.rest ?? [])];
    const judged = await judgeHook(hook as GatedHook, rest, input, args, io);
    if (judged !== 0) return judged;
    return runChain(hook as GatedHook, argv, input, io);
  },
);

/** The gate's verdict on the git command running this hook, as the hook's exit code (0 lets git go on). */
async function judgeHook(
  hook: GatedHook,
  rest: string[],
  input: Buffer | undefined,
  args: ParsedArgs,
  io: CommandIO,
): Promise<number> {
  const git = realProgram('git', io.env.PATH);
  const typed = parentGitCommand();
  let judged: Judged;
  if (hook === 'pre-push') {
    const parsed = parsePushLines(input?.toString('utf8') ?? '');
    if (!parsed.ok) throw new UsageError(parsed.problem, 'this runs from git pre-push; reinstall the hooks');
    if (parsed.updates.length === 0) return 0;
    const updates = parsed.updates.map((update) => ({
      update,
      kind: updateKind(update, (a, b) => isAncestor(git, io.cwd, a, b)),
    }));
    judged = {
      typed,
      synthesised: pushCommand(rest[0] ?? 'origin', updates),
      updates,
      remote: rest[0] ?? 'origin',
    };
  } else {
    judged = {
      typed,
      synthesised: shellLine(['git', hook === 'pre-commit' ? 'commit' : 'rebase', ...rest]),
    };
  }
  const runtime = await openRuntime({ cwd: io.cwd, env: io.env, channel: 'cli' });
  try {
    return await judge(runtime, judged, args, io);
  } finally {
    await runtime.close();
  }
}

interface Judged {
  typed: string | undefined;
  synthesised: string;
  updates?: { update: RefUpdate; kind: UpdateKind }[];
  remote?: string;
}

async function judge(runtime: Runtime, j: Judged, args: ParsedArgs, io: CommandIO): Promise<number> {
  const session = sessionFrom(option(args, 'session'), io.env);
  const rulesOf = (command: string) =>
    runtime.gate.classify({ tool: 'shell', args: { command } }, undefined, io.cwd).rules;
  // The typed line stands when it shows (to the rules) everything the updates do.
  const needed = rulesOf(j.synthesised);
  const typedRules = j.typed !== undefined ? rulesOf(j.typed) : [];
  const command =
    j.typed !== undefined && needed.every((r) => typedRules.includes(r)) ? j.typed : j.synthesised;
  const upstream = await judgedUpstream(runtime, command, io);
  if (upstream !== undefined) {
    io.stderr.write(`tollgate: ${sanitiseText(command, 200)} was already let through (audit ${upstream})\n`);
    return 0;
  }
  const verdict = await runtime.gate.check(
    shellCall(command, session, agentFrom(args, io.env), directiveFrom(args, io.env)),
  );
  if (verdict.outcome === 'rejected' || verdict.outcome === 'declined') {
    io.stderr.write(header(j, command, verdict));
    printVerdict({ ...io, stdout: io.stderr }, verdict, command);
    return EXIT[verdict.outcome];
  }
  if (verdict.outcome === 'dispatch' && verdict.audit_id !== undefined) {
    claim(runtime, verdict.audit_id, io.env);
    io.stderr.write(
      `tollgate: ${verdict.override ? `override ${verdict.override}` : `prediction ${verdict.prediction_id ?? '?'}`} lets ${sanitiseText(command, 200)} through (audit ${verdict.audit_id})\n`,
    );
    detachSettle(verdict.audit_id, session, j, io);
  }
  return 0;
}

function header(j: Judged, command: string, v: Verdict): string {
  const kinds = (j.updates ?? []).filter((u) => u.kind === 'force' || u.kind === 'delete');
  const what = kinds
    .map((u) => `${u.kind === 'delete' ? 'deletes' : 'force-updates'} ${u.update.remoteRef}`)
    .join(', ');
  const lines = [
    `tollgate (git hook): git is about to run ${sanitiseText(command, 300)}${what ? ` — it ${what}` : ''}.`,
  ];
  if (command !== j.typed && j.typed !== undefined)
    lines.push(
      `  The command typed, ${sanitiseText(j.typed, 200)}, does not show all of that: the gate judges the line above, so file for it.`,
    );
  if (v.outcome === 'rejected')
    lines.push(
      `  A person may instead let it through, audited: tollgate override --for ${shellWord(command)} --reason TEXT --ttl 15m`,
    );
  return `${lines.join('\n')}\n`;
}

/**
 * A gate in front of git already dispatched this very command for the process this git runs under (a
 * shim or tollgate run that started it, the agent host whose hook let its shell call through): a
 * dispatch row of the last ten minutes whose call, or whose gated part, is this command, and whose
 * recorded process (dispatch-via.ts) is among this hook's ancestors. Another session's or agent's
 * push of the same refs, or the same push typed in another terminal, runs under none of them and is
 * judged afresh. Each such row lets one hook run through (claimed by an exclusive file under the
 * project's state dir), so one prediction is never spent twice, nor judged twice.
 */
async function judgedUpstream(runtime: Runtime, command: string, io: CommandIO): Promise<string | undefined> {
  const digest = callDigest({ tool: 'shell', args: { command } });
  const rows = await runtime.store.listAudit({
    kind: 'decision',
    since: Date.now() - 10 * 60_000,
    limit: 500,
  });
  for (const row of rows.reverse()) {
    if (row.outcome !== 'dispatch' || row.dry_run === true) continue;
    if (row.call_digest !== digest && row.segment !== command) continue;
    if (!viaIsAncestor(projectStateDir(runtime.loaded.root, io.env), row.id)) continue;
    if (claim(runtime, row.id, io.env)) return row.id;
  }
  return undefined;
}

/** True for the first claimant of a dispatch row, false for every later one. */
function claim(runtime: Runtime, id: string, env: NodeJS.ProcessEnv): boolean {
  const dir = claimsDir(projectStateDir(runtime.loaded.root, env));
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(join(dir, id), '', { flag: 'wx' });
    return true;
  } catch {
    return false;
  }
}

/** Runs the hook of the previous hooks directory with the same arguments and input; its exit code. */
function runChain(hook: GatedHook, argv: string[], input: Buffer | undefined, io: CommandIO): number {
  const dir = io.env[CHAIN_ENV];
  if (!dir) return 0;
  const file = join(dir, hook);
  if (!isExecutableFile(file)) return 0;
  const r = spawnSync(file, argv, {
    cwd: io.cwd,
    env: io.env,
    input: input ?? '',
    stdio: ['pipe', 'inherit', 'inherit'],
  });
  return r.status ?? 1;
}

function isAncestor(git: string | undefined, cwd: string, a: string, b: string): boolean | undefined {
  if (git === undefined) return undefined;
  const r = spawnSync(git, ['merge-base', '--is-ancestor', a, b], { cwd, stdio: 'ignore' });
  return r.status === 0 ? true : r.status === 1 ? false : undefined;
}

function detachSettle(auditId: string, session: string, j: Judged, io: CommandIO): void {
  const expect = j.updates?.map(({ update, kind }) => ({
    ref: update.remoteRef,
    sha: kind === 'delete' ? null : update.localSha,
  }));
  const argv = [
    process.argv[1] ?? 'tollgate',
    'git-hook',
    'settle',
    '--audit',
    auditId,
    '--pid',
    String(process.ppid),
    '--session',
    session,
  ];
  if (expect && j.remote !== undefined) argv.push('--remote', j.remote, '--expect', JSON.stringify(expect));
  const child = spawn(process.execPath, argv, { cwd: io.cwd, env: io.env, detached: true, stdio: 'ignore' });
  child.unref();
}
