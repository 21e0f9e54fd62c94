// OpenAI Codex CLI: Claude-shaped hooks (PreToolUse/PostToolUse with session_id, tool_name,
// tool_input, tool_use_id). Its shell tool reaches the hook as `Bash` (a command string) or, in older
// builds, `shell`/`local_shell`/`exec_command` (an argv); file edits as `apply_patch` (one patch
// envelope). Only a deny is dependable in Codex (allow/ask were never merged), so a deny is the JSON
// deny AND exit 2 with the reason on stderr (Codex's own blocking channel); a pass is the explicit
// `{"continue": true}`, which grants nothing.

import type { HostAdapter, HostAnswer, HostParse, ShapedDecision } from '../host.js';
import { forModel } from '../host.js';
import type { HookInput } from '../input.js';
import {
  claudeInput,
  hostAdapter,
  keystrokeCommand,
  patchFiles,
  pick,
  SESSION_KINDS,
  shellCommand,
  workdirOf,
} from './canonical.js';

const SHELL_TOOLS = new Set([
  'Bash',
  'shell',
  'local_shell',
  'exec_command',
  'container.exec',
  'unified_exec',
]);
const PATCH_TOOLS = new Set(['apply_patch']);
/** Tools that send text to a live process the agent started (exec_command with tty): judged as the shell line it types. */
const STDIN_TOOLS = new Set(['write_stdin']);
/** Where a shell call names the directory it runs in. */
const WORKDIR_KEYS = ['workdir', 'cwd'];

export const codex: HostAdapter = hostAdapter(
  'codex',
  'Codex',
  'Bash',
  ['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'UserPromptSubmit', 'SessionStart'],
  {
    parse: parseCodex,
    shape: shapeCodex,
  },
);

export function parseCodex(doc: unknown): HostParse {
  const parsed = claudeInput(doc);
  if (!parsed.ok) return parsed;
  const { input, event } = parsed;
  if (input.tool_name === '') return { ok: true, input, event };
  const canonical = canonicalCodex(input);
  return 'problem' in canonical
    ? { ok: false, problem: canonical.problem, event }
    : { ok: true, input: canonical, event };
}

/** Codex's tool → the canonical one: every shell spelling is Bash {command}; apply_patch names its files. */
export function canonicalCodex(input: HookInput): HookInput | { problem: string } {
  const host = input.tool_name;
  if (SHELL_TOOLS.has(host)) {
    const raw = input.tool_input.command ?? input.tool_input.cmd;
    const first = Array.isArray(raw) ? raw[0] : undefined;
    if (first === 'apply_patch' && Array.isArray(raw) && typeof raw[1] === 'string')
      return patchInput(input, raw[1]);
    const command = shellCommand(raw);
    if (command === undefined)
      return { problem: `the ${host} call has no "command" (a string, or an array of strings)` };
    // The command runs in its workdir: relative paths in it are resolved there, not in the session's directory.
    const where = workdirOf(input.tool_input, WORKDIR_KEYS, input.cwd);
    if ('problem' in where) return { problem: `the ${host} call is bad input: ${where.problem}` };
    return {
      ...input,
      tool_name: 'Bash',
      tool_input: { command },
      ...(where.dir !== undefined ? { cwd: where.dir } : {}),
      ...(host !== 'Bash' ? { host_tool_name: host } : {}),
    };
  }
  if (STDIN_TOOLS.has(host)) {
    const chars = input.tool_input.chars ?? input.tool_input.input;
    if (typeof chars !== 'string') return { problem: `the ${host} call has no "chars" string` };
    const typed = keystrokeCommand(chars);
    if ('problem' in typed) return { problem: `the ${host} call is bad input: ${typed.problem}` };
    return { ...input, tool_name: 'Bash', tool_input: { command: typed.command }, host_tool_name: host };
  }
  if (PATCH_TOOLS.has(host)) {
    const patch = pick(input.tool_input, 'input', 'patch') ?? shellCommand(input.tool_input.command);
    if (patch === undefined) return { problem: 'the apply_patch call carries no patch text ("input")' };
    return patchInput(input, patch);
  }
  return input;
}

/** A patch is one call: the patch text and the files it writes (the file rules judge each). */
function patchInput(input: HookInput, patch: string): HookInput {
  return {
    ...input,
    tool_name: 'apply_patch',
    host_tool_name: input.tool_name,
    tool_input: { patch, files: patchFiles(patch) },
  };
}

export function shapeCodex(decision: ShapedDecision, event: string | undefined): HostAnswer {
  // A prompt or session start is never blocked for the gate's sake: what went wrong is shown, the turn goes on.
  if (decision.kind === 'deny' && SESSION_KINDS.has(event as HookInput['hook_event_name']))
    return { json: { continue: true, systemMessage: forModel(decision.reason) }, exitCode: 0 };
  if (decision.kind === 'deny') {
    const reason = forModel(decision.reason);
    const hookEventName = event === undefined || event === 'PreToolUse' ? 'PreToolUse' : event;
    return {
      json: {
        hookSpecificOutput: { hookEventName, permissionDecision: 'deny', permissionDecisionReason: reason },
      },
      exitCode: 2,
      stderr: reason,
    };
  }
  const context = decision.context === undefined ? undefined : forModel(decision.context);
  if (decision.kind === 'pass' || context === undefined) return { json: { continue: true }, exitCode: 0 };
  return {
    json: {
      continue: true,
      hookSpecificOutput: { hookEventName: event ?? 'PostToolUse', additionalContext: context },
    },
    exitCode: 0,
  };
}
