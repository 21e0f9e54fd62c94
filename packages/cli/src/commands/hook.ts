// tollgate hook claude-code: Claude Code's PreToolUse/PostToolUse JSON on stdin → one decision JSON
// on stdout, exit 0, always (the translation lives in @tollgate/hooks, shared with the HTTP service).

import { homedir } from 'node:os';
import { resolve } from 'node:path';
import {
  HOST_NAMES,
  HOSTS,
  type HookDeps,
  type HookInput,
  type HookOutput,
  type HostAnswer,
  type HostName,
  personAtHost,
  refuseInput,
  runClaudeCodeHook,
  runHostHook,
  selfIdentity,
  selfRoots,
  shellProbe,
  spawnTicket,
} from '@tollgate/hooks';
import { nodeFileView } from '@tollgate/shell';
import type { CommandIO } from '../command.js';
import { hostAncestor, recordVia } from '../dispatch-via.js';
import { setNoticeSink } from '../notices.js';
import { hookConfigDir, openRuntime, storeEnv } from '../runtime.js';
import { projectStateDir } from '../state.js';
import { readInput, readStdinSync, writeFdSync } from '../stdin.js';

const ALL_HOSTS: readonly string[] = ['claude-code', ...HOST_NAMES];
const MAX_INPUT = 1024 * 1024;

const usage = `
Usage: tollgate hook claude-code|codex|gemini|cursor|copilot

Speaks Claude Code's hook protocol: reads one PreToolUse, PostToolUse or PostToolUseFailure JSON
object on stdin and always answers with one JSON object on stdout and exit code 0
(hookSpecificOutput.hookEventName set). Install it with \`tollgate init claude-code\`.

  PreToolUse   rejected → deny, with the rails as the reason; declined → deny, "recorded, nothing
               was done"; pass/dispatch → no objection (Claude Code's own permission rules decide);
               a Bash \`tollgate predict|decline ...\` → allow, rewritten to file into this session.
  PostToolUse  reads (Bash, Read, Grep, Glob, WebFetch, mcp__*) → an attested observation, its id in
               additionalContext; a dispatched call → its outcome and the probed post-state.
  MCP tools    mcp__<server>__<tool> is classified by its bare tool name (the rules in builtin:mcp name
               write_file, delete_entities, ...), with the full name kept as the call's action in the
               audit. It cannot carry a prediction, so its rails say to file one from Bash with
               \`tollgate predict --tool mcp__<server>__<tool> --args '<same JSON>' ...\`. The hook does
               not see MCP tool annotations: an MCP tool no rule names stays unmatched (the config's
               \`unmatched\` setting applies), even if its server marks it destructiveHint — put
               \`tollgate mcp\` in front of such a server, or add a rule for it.
  Review       a call waiting for a person's review: with a person at Claude Code's terminal
               (CLAUDE_CODE_ENTRYPOINT=cli, no CI, permission_mode default or plan) → ask, and the
               PostToolUse showing it ran records the approval (by host:claude-code, paired by
               tool_use_id); otherwise → deny naming the review and \`tollgate review approve ID\`.
  Bad input    (not JSON, invalid UTF-8, too large, unknown event, missing fields) → deny, naming why.

The session is the hook's session_id (TOLLGATE_SESSION/--session do not apply here). Config and
store are found from CLAUDE_PROJECT_DIR (set by Claude Code for hooks), else this process's working
directory, or TOLLGATE_CONFIG / TOLLGATE_DB (\`tollgate init claude-code\` pins both) — never from the
"cwd" of the hook input, which the agent can change.

Other hosts (README "Other agent hosts"): codex, gemini, cursor and copilot read that host's own
pre- and post-tool events and answer in its own shape, always explicitly (each fails open on a
missing or bad answer): a refusal, bad input or an unavailable gate is that host's deny. A
\`tollgate predict|decline|observe|check\` from the host's shell is filed by the hook itself under the
host's session (these hosts cannot rewrite a command), and the answer says what it printed.
`;

export const command = {
  name: 'hook',
  summary: 'speak a host hook protocol (claude-code, codex, gemini, cursor, copilot)',
  usage,
  async run(io: CommandIO): Promise<number> {
    const [host, ...rest] = io.argv;
    if (host === '--help' || host === '-h' || rest.includes('--help')) {
      io.stdout.write(`${usage.trim()}\n`);
      return 0;
    }
    if (host === undefined || !ALL_HOSTS.includes(host)) {
      // Answer in the hook protocol anyway: a mis-configured hook must refuse, not go silent.
      write(
        io,
        refuseInput(
          `tollgate hook needs a host (${ALL_HOSTS.join(', ')}), got ${JSON.stringify(host ?? '')}`,
        ),
      );
      return 0;
    }
    // The real process reads fd 0 directly; tests and embedders hand in a stream.
    const read =
      (io.stdinFd !== undefined ? readStdinSync(io.stdinFd, MAX_INPUT) : undefined) ??
      (await readInput(io.stdin, MAX_INPUT));
    if (host !== 'claude-code') {
      const adapter = HOSTS[host as HostName];
      const answer = await runHostHook(adapter, read.bytes, async (input) => {
        const runtime = await openHook(
          io,
          input,
          hookConfigDir(io.cwd, projectEnv(io.env, adapter.projectDirEnv)),
        );
        return { ...runtime, deps: { ...runtime.deps, runTicket: spawnTicket } };
      });
      return writeHost(io, answer);
    }
    // A config change waiting for a person is told to the person at Claude Code (systemMessage).
    const notes: string[] = [];
    setNoticeSink((text) => notes.push(text));
    const answer = await runClaudeCodeHook(read.bytes, async (input) => {
      const runtime = await openHook(io, input, hookConfigDir(io.cwd, io.env));
      // A person at Claude Code's terminal answers a review in its own prompt (host-prompt.ts).
      return {
        ...runtime,
        deps: { ...runtime.deps, personAtHost: (i: HookInput) => personAtHost(i, io.env) },
      };
    });
    write(io, notes.length > 0 ? { ...answer, systemMessage: `Tollgate: ${notes.join(' ')}` } : answer);
    return 0;
  },
};

/**
 * The gate for one hook call. Config and store from the project, never from the agent-controlled
 * input.cwd; probes re-read claim subjects where the agent's command ran.
 */
async function openHook(
  io: CommandIO,
  input: HookInput,
  project: string,
): Promise<{ deps: HookDeps; close(): Promise<void> }> {
  const cwd = input.cwd ? resolve(project, input.cwd) : project;
  const runtime = await openRuntime({ cwd: project, env: io.env, channel: 'claude-code' });
  const self = [process.execPath, process.argv[1] ?? 'tollgate'];
  return {
    deps: {
      gate: runtime.gate,
      store: runtime.store,
      probe: shellProbe,
      self,
      storeEnv: storeEnv(runtime.loaded, io.env),
      cwd,
      // A git hook under this host's shell takes a dispatched push as its own; no other process may.
      onDispatch: (auditId) =>
        recordVia(projectStateDir(runtime.loaded.root, io.env), auditId, hostAncestor()),
      // Programs resolve where the agent's command runs, so a renamed or copied tollgate is found.
      // Through the gate's own file view, home, PATH and environment: one parse serves both.
      resolve: {
        identity: selfIdentity(selfRoots(self)),
        files: runtime.where.files ?? nodeFileView(),
        home: runtime.where.project.home ?? (io.env.HOME || homedir()),
        ...(runtime.where.path !== undefined ? { path: runtime.where.path } : {}),
        ...(runtime.where.env !== undefined ? { env: runtime.where.env } : {}),
      },
    },
    close: () => runtime.close(),
  };
}

/** The host's own project-directory variable stands where Claude Code's CLAUDE_PROJECT_DIR would. */
function projectEnv(env: NodeJS.ProcessEnv, names: readonly string[]): NodeJS.ProcessEnv {
  const project = names.map((n) => env[n]).find((v) => v !== undefined && v !== '');
  return project === undefined ? env : { ...env, CLAUDE_PROJECT_DIR: project };
}

function writeHost(io: CommandIO, answer: HostAnswer): number {
  write(io, answer.json);
  if (answer.stderr !== undefined) io.stderr.write(`${answer.stderr}\n`);
  return answer.exitCode;
}

function write(io: CommandIO, answer: HookOutput | Record<string, unknown>): void {
  const text = `${JSON.stringify(answer)}\n`;
  const rest = io.stdoutFd === undefined ? text : writeFdSync(io.stdoutFd, text);
  if (rest !== '') io.stdout.write(rest);
}
