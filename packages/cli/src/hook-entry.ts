// The hook's own entry, bundled as one CommonJS file (dist/hook.cjs). bin/tollgate.js loads it
// through V8's code cache; bin/hook-snapshot.cjs evaluates it into a Node start-up snapshot
// (hook-snapshot.ts), which skips loading and initialising the bundle altogether. A hook process
// starts on every tool call, and loading the bundle was most of its cost.
import { classify, createGate, type Store } from '@tollgate/core';
import { callFor, runClaudeCodeHook } from '@tollgate/hooks';
import { locateSqliteAddon } from '@tollgate/store';
import { command } from './commands/hook.js';
import { loadPolicyFor } from './policy-loader.js';
import { DEFAULT_POLICIES, FILES_POLICY } from './runtime.js';

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
  ['PreToolUse', 'Read', { file_path: '/nonexistent/tollgate-warm/README.md' }],
  ['PreToolUse', 'Write', { file_path: '/nonexistent/tollgate-warm/a.ts', content: 'x' }],
  ['PreToolUse', 'Edit', { file_path: '/nonexistent/tollgate-warm/a.ts', old_string: 'a', new_string: 'b' }],
  ['PreToolUse', 'mcp__fs__write_file', { path: '/nonexistent/tollgate-warm/a' }],
  ['PostToolUse', 'Bash', { command: 'git status --short' }],
  ['PostToolUse', 'Read', { file_path: '/nonexistent/tollgate-warm/README.md' }],
];

/**
 * Runs the hook's code paths once, against a store that holds nothing and fails every write, so that
 * V8 compiles them before the snapshot is taken: the snapshot keeps compiled functions, and a
 * function first called after start-up is compiled in every hook process. It reads no config, no
 * store and no file the agent can write, and keeps nothing: each run builds its own gate (its ids
 * and random pool are dropped with it), so no state of the build reaches the processes that use it.
 */
export async function warmHook(): Promise<void> {
  locateSqliteAddon();
  const policy = loadPolicyFor([FILES_POLICY, ...DEFAULT_POLICIES], undefined);
  const store = new Proxy({} as Store, {
    get: (_, key) => (key === 'then' ? undefined : () => Promise.reject(new Error('warm-up store'))),
  });
  for (const [event, tool_name, tool_input] of WARM_CALLS) {
    const body = JSON.stringify({
      session_id: 'warm',
      transcript_path: '/dev/null',
      cwd: '/nonexistent/tollgate-warm',
      hook_event_name: event,
      tool_name,
      tool_input,
      tool_use_id: 'toolu_warm',
      ...(event === 'PostToolUse' ? { tool_response: { stdout: 'x', stderr: '', interrupted: false } } : {}),
    });
    await runClaudeCodeHook(new TextEncoder().encode(body), async () => ({
      deps: {
        gate: createGate({ policy, store, channel: 'claude-code' }),
        store,
        self: ['/nonexistent/tollgate-warm/node', '/nonexistent/tollgate-warm/bin/tollgate.js'],
        storeEnv: {},
        cwd: '/nonexistent/tollgate-warm',
      },
      close: async () => {},
    })).catch(() => undefined);
    const call = callFor({ session_id: 'warm', hook_event_name: 'PreToolUse', tool_name, tool_input });
    if (!('problem' in call)) classify(policy, call);
  }
}
