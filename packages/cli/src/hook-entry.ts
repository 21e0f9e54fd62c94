// The hook's own entry, bundled as one CommonJS file (dist/hook.cjs). bin/tollgate.js loads it
// through V8's code cache; bin/hook-snapshot.cjs evaluates it into a Node start-up snapshot
// (hook-snapshot.ts), which skips loading and initialising the bundle altogether. A hook process
// starts on every tool call, and loading the bundle was most of its cost.
import { classify, createGate, type GateWhere, type Policy, type Store } from '@tollgate/core';
import { callFor, type HookDeps, runClaudeCodeHook, selfIdentity, selfRoots } from '@tollgate/hooks';
import { locateSqliteAddon, standInSqliteStore } from '@tollgate/store';
import { command } from './commands/hook.js';
import { loadPolicyFor } from './policy-loader.js';
import { DEFAULT_POLICIES, FILES_POLICY } from './runtime.js';
import { WARM_HOME, WARM_INSTALL, WARM_ROOT, warmFiles } from './warm-files.js';

/** The process streams the hook touched (each getter creates its stream); see exitHook. */
const touched = new Set<NodeJS.WriteStream>();

export function runHook(argv: string[]): Promise<number> {
  return command.run({
    argv,
    // A getter: touching process.stdin creates the stream, which the hook reads around (stdinFd).
    get stdin() {
      return process.stdin;
    },
    stdinFd: 0,
    get stdout() {
      touched.add(process.stdout);
      return process.stdout;
    },
    stdoutFd: 1,
    get stderr() {
      touched.add(process.stderr);
      return process.stderr;
    },
    env: process.env,
    cwd: process.cwd(),
  });
}

/**
 * Ends the hook process once it has answered. The host waits for the process to exit, and node's own
 * teardown (closing handles, freeing the heap) took ~1 ms more than exiting at once. The answer is
 * written to fd 1 synchronously; when some of it went through a stream that still holds bytes (a
 * full pipe), the process ends the ordinary way, after the stream drains.
 */
export function exitHook(code: number): void {
  if ([...touched].some((s) => s.writableLength > 0)) process.exitCode = code;
  else process.exit(code);
}

/** Hook inputs of the kinds a session sends most, run once while the snapshot is built. */
const WARM_CALLS: readonly [string, string, Record<string, unknown>][] = [
  ['PreToolUse', 'Bash', { command: 'git status --short' }],
  ['PreToolUse', 'Bash', { command: 'git push --force origin main' }],
  ['PreToolUse', 'Bash', { command: 'npm test && git add -A && git commit -m "x" | tee /tmp/log' }],
  ['PreToolUse', 'Bash', { command: 'curl -sS https://example.com/x -o out.json; rm -rf build' }],
  ['PreToolUse', 'Bash', { command: 'git st && bash scripts/check.sh' }],
  ['PreToolUse', 'Read', { file_path: `${WARM_ROOT}/README.md` }],
  ['PreToolUse', 'Write', { file_path: `${WARM_ROOT}/a.ts`, content: 'x' }],
  ['PreToolUse', 'Edit', { file_path: `${WARM_ROOT}/a.ts`, old_string: 'a', new_string: 'b' }],
  ['PreToolUse', 'mcp__fs__write_file', { path: `${WARM_ROOT}/a` }],
  ['PostToolUse', 'Bash', { command: 'git status --short' }],
  ['PostToolUse', 'Read', { file_path: `${WARM_ROOT}/README.md` }],
];

/**
 * Runs the hook's code paths once so that V8 compiles them before the snapshot is taken: the
 * snapshot keeps compiled functions, and a function first called after start-up is compiled in every
 * hook process. Each call goes the whole way a real one does: through a SqliteStore over a stand-in
 * for the native addon (which cannot load here) that holds nothing, and against a repository held in
 * memory (warm-files.ts). It reads no config, no store and no file on the machine, and keeps
 * nothing: each run builds its own gate (its ids and random pool are dropped with it), so no state
 * of the build reaches the processes that use it.
 */
export async function warmHook(): Promise<void> {
  locateSqliteAddon();
  const policy = loadPolicyFor([FILES_POLICY, ...DEFAULT_POLICIES], undefined);
  const store = await standInSqliteStore();
  for (const [event, tool_name, tool_input] of WARM_CALLS) {
    await runClaudeCodeHook(warmInput(event, tool_name, tool_input), async () => ({
      deps: warmDeps(policy, store),
      close: async () => {},
    })).catch(() => undefined);
    const call = callFor({ session_id: 'warm', hook_event_name: 'PreToolUse', tool_name, tool_input });
    if (!('problem' in call)) classify(policy, call);
  }
  await store.close();
}

/** One warm-up hook input, as Claude Code sends it. */
export function warmInput(event: string, tool_name: string, tool_input: Record<string, unknown>): Uint8Array {
  const body = JSON.stringify({
    session_id: 'warm',
    transcript_path: '/dev/null',
    cwd: WARM_ROOT,
    hook_event_name: event,
    tool_name,
    tool_input,
    tool_use_id: 'toolu_warm',
    ...(event === 'PostToolUse' ? { tool_response: { stdout: 'x', stderr: '', interrupted: false } } : {}),
  });
  return new TextEncoder().encode(body);
}

/** What a warm-up call decides with: a fresh gate over `store`, resolving in the repository in memory. */
export function warmDeps(policy: Policy, store: Store): HookDeps {
  const files = warmFiles();
  // The gate's own install lies outside the repository, as it does for a real project: a program
  // under the install is the gate itself, and the warm calls should decide as an agent's do.
  const self = [`${WARM_INSTALL}/node`, `${WARM_INSTALL}/bin/tollgate.js`];
  const path = `${WARM_INSTALL}/bin:/usr/bin:/bin`;
  const where: GateWhere = {
    project: { root: WARM_ROOT, home: WARM_HOME, gate: [`${WARM_ROOT}/.tollgate`], temp: ['/tmp'] },
    files,
    path,
    env: {},
  };
  return {
    gate: createGate({ policy, store, where, channel: 'claude-code' }),
    store,
    self,
    storeEnv: {},
    cwd: WARM_ROOT,
    resolve: { identity: selfIdentity(selfRoots(self)), files, home: WARM_HOME, path },
  };
}
