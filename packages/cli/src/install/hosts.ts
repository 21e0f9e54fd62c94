// The agent hosts Tollgate installs into: where each keeps its project hooks, how its file is laid
// out, which entries Tollgate puts there, how the host is detected, and how a synthetic pre-tool
// event and its deny look in its protocol (for `tollgate doctor`). One record per host; the merging,
// planning and checking code is shared. The events installed for Codex, Gemini CLI, Cursor and
// Copilot CLI are the ones their hook adapters (@tollgate/hooks) handle, so the two cannot drift.
import { HOSTS as ADAPTERS, GEMINI_SESSION_EVENTS } from '@tollgate/hooks';
import type { Json } from './json-file.js';

export const HOST_IDS = ['claude-code', 'codex', 'gemini', 'cursor', 'copilot'] as const;
export type HostId = (typeof HOST_IDS)[number];

export interface HostSpec {
  id: HostId;
  label: string;
  /** The project file Tollgate writes, relative to the project root. */
  file: string;
  /** Present when one of these exists: directories in the project, directories in HOME, programs on PATH. */
  detect: { projectDirs: readonly string[]; homeDirs: readonly string[]; programs: readonly string[] };
  /** grouped: hooks.EVENT = [{matcher?, hooks: [entry]}]; flat: hooks.EVENT = [entry]. */
  shape: 'grouped' | 'flat';
  /** The entry field holding the command line. */
  commandField: 'command' | 'bash';
  /** Top-level keys a file needs (added only when missing). */
  required: Json;
  /** Tollgate's matcher group (grouped) or entry (flat) per event, in install order. */
  entries(command: string): Record<string, Json>;
  /** Events that decide before a tool runs: the gate gates only through these. */
  gating: readonly string[];
  /** A synthetic pre-tool event for `command`, as the host would send it. */
  preEvent(command: string, cwd: string): Json;
  /** Whether the hook's answer denies, in this host's protocol. */
  denies(answer: Json | undefined, exitCode: number): boolean;
}

export const HOOK_TIMEOUT_S = 30;

// Claude Code: anchored matchers (an unanchored "Read" would also match "NotebookRead"). Reads go
// through PreToolUse too: a read is attested only when its PostToolUse pairs with the PreToolUse the
// gate saw for the same tool_use_id. The session events carry no matcher and do not block on failure.
const CLAUDE_TOOLS =
  'Bash|Read|Grep|Glob|LS|NotebookRead|Write|Edit|MultiEdit|NotebookEdit|WebFetch|WebSearch|mcp__.*';
export const CLAUDE_MATCHERS: Record<string, string> = {
  PreToolUse: `^(${CLAUDE_TOOLS})$`,
  PostToolUse: `^(${CLAUDE_TOOLS})$`,
  PostToolUseFailure: '^(Bash|Write|Edit|MultiEdit|NotebookEdit|mcp__.*)$',
};
const CLAUDE_SESSION_EVENTS = ['UserPromptSubmit', 'SessionStart'];

const claudeEvent = (command: string, cwd: string): Json => ({
  session_id: 'tollgate-doctor',
  transcript_path: null,
  cwd,
  hook_event_name: 'PreToolUse',
  permission_mode: 'default',
  tool_name: 'Bash',
  tool_input: { command },
  tool_use_id: 'toolu_tollgate_doctor',
});
const claudeDenies = (a: Json | undefined, code: number) =>
  code === 2 || (a?.hookSpecificOutput as Json | undefined)?.permissionDecision === 'deny';

const claudeCode: HostSpec = {
  id: 'claude-code',
  label: 'Claude Code',
  file: '.claude/settings.json',
  detect: { projectDirs: ['.claude'], homeDirs: ['.claude'], programs: ['claude'] },
  shape: 'grouped',
  commandField: 'command',
  required: {},
  entries: (command) => {
    const out: Record<string, Json> = {};
    for (const [event, matcher] of Object.entries(CLAUDE_MATCHERS))
      out[event] = {
        matcher,
        hooks: [
          {
            type: 'command',
            command,
            timeout: HOOK_TIMEOUT_S,
            onFailure: 'block',
            statusMessage: 'tollgate',
          },
        ],
      };
    for (const event of CLAUDE_SESSION_EVENTS)
      out[event] = {
        hooks: [{ type: 'command', command, timeout: HOOK_TIMEOUT_S, statusMessage: 'tollgate' }],
      };
    return out;
  },
  gating: ['PreToolUse'],
  preEvent: claudeEvent,
  denies: claudeDenies,
};

// Codex: Claude-shaped hooks.json; a group without a matcher matches every tool (and the session
// events, which take none). Every event its adapter handles except PostToolUseFailure, which Codex
// does not send (a failed call comes as PostToolUse).
const CODEX_EVENTS = ADAPTERS.codex.events.filter((e) => e !== 'PostToolUseFailure');
const codex: HostSpec = {
  id: 'codex',
  label: 'Codex',
  file: '.codex/hooks.json',
  detect: { projectDirs: ['.codex'], homeDirs: ['.codex'], programs: ['codex'] },
  shape: 'grouped',
  commandField: 'command',
  required: {},
  entries: (command) => {
    const group = {
      hooks: [{ type: 'command', command, timeout: HOOK_TIMEOUT_S, statusMessage: 'tollgate' }],
    };
    return Object.fromEntries(CODEX_EVENTS.map((e) => [e, structuredClone(group)]));
  },
  gating: ['PreToolUse'],
  preEvent: (command, cwd) => ({ ...claudeEvent(command, cwd), model: 'tollgate-doctor' }),
  denies: claudeDenies,
};

// Gemini CLI: settings.json hooks.BeforeTool/AfterTool, whose matcher is a regex over tool names, and
// BeforeAgent/SessionStart (the prompt, the session's start), lifecycle events that take no matcher
// (Gemini matches a lifecycle matcher as an exact string). The timeout is in milliseconds.
const gemini: HostSpec = {
  id: 'gemini',
  label: 'Gemini CLI',
  file: '.gemini/settings.json',
  detect: { projectDirs: ['.gemini'], homeDirs: ['.gemini'], programs: ['gemini'] },
  shape: 'grouped',
  commandField: 'command',
  required: {},
  entries: (command) =>
    Object.fromEntries(
      ADAPTERS.gemini.events.map((e) => [
        e,
        {
          ...(GEMINI_SESSION_EVENTS.has(e) ? {} : { matcher: '.*' }),
          hooks: [{ type: 'command', name: 'tollgate', command, timeout: HOOK_TIMEOUT_S * 1000 }],
        },
      ]),
    ),
  gating: ['BeforeTool'],
  preEvent: (command, cwd) => ({
    session_id: 'tollgate-doctor',
    transcript_path: '',
    cwd,
    hook_event_name: 'BeforeTool',
    timestamp: new Date().toISOString(),
    tool_name: 'run_shell_command',
    tool_input: { command },
  }),
  denies: (a, code) => code === 2 || a?.decision === 'deny' || a?.decision === 'block',
};

// Cursor: .cursor/hooks.json version 1, flat entries, every event its adapter handles (it decides
// shell and MCP calls once, in their own events, and Cursor's other tools in preToolUse). failClosed
// on the deciding events makes a crashed or timed-out hook block instead of letting the call through.
const CURSOR_GATING = ['beforeShellExecution', 'beforeMCPExecution', 'preToolUse'];
const cursor: HostSpec = {
  id: 'cursor',
  label: 'Cursor',
  file: '.cursor/hooks.json',
  detect: { projectDirs: ['.cursor'], homeDirs: ['.cursor'], programs: ['cursor-agent', 'cursor'] },
  shape: 'flat',
  commandField: 'command',
  required: { version: 1 },
  entries: (command) =>
    Object.fromEntries(
      ADAPTERS.cursor.events.map((e) => [
        e,
        { command, timeout: HOOK_TIMEOUT_S, ...(CURSOR_GATING.includes(e) ? { failClosed: true } : {}) },
      ]),
    ),
  gating: CURSOR_GATING,
  preEvent: (command, cwd) => ({
    conversation_id: 'tollgate-doctor',
    generation_id: 'tollgate-doctor',
    hook_event_name: 'beforeShellExecution',
    workspace_roots: [cwd],
    command,
    cwd,
  }),
  denies: (a, code) => code === 2 || a?.permission === 'deny',
};

// GitHub Copilot CLI: a hooks file of Tollgate's own under .github/hooks, version 1, camelCase events.
const copilot: HostSpec = {
  id: 'copilot',
  label: 'Copilot CLI',
  file: '.github/hooks/tollgate.json',
  detect: { projectDirs: ['.github/hooks'], homeDirs: ['.copilot'], programs: ['copilot'] },
  shape: 'flat',
  commandField: 'bash',
  required: { version: 1 },
  // The camelCase events (the adapter also reads the Claude spelling, which Copilot sends only to a
  // hook configured under that spelling).
  entries: (command) =>
    Object.fromEntries(
      ADAPTERS.copilot.events
        .filter((e) => /^[a-z]/.test(e))
        .map((e) => [e, { type: 'command', bash: command, timeoutSec: HOOK_TIMEOUT_S }]),
    ),
  gating: ['preToolUse'],
  preEvent: (command, cwd) => ({
    sessionId: 'tollgate-doctor',
    timestamp: Date.now(),
    cwd,
    toolName: 'bash',
    toolArgs: JSON.stringify({ command }),
  }),
  denies: (a, code) => code === 2 || a?.permissionDecision === 'deny',
};

export const HOSTS: Record<HostId, HostSpec> = { 'claude-code': claudeCode, codex, gemini, cursor, copilot };

/** The host ids of a `--hosts a,b` value, or a usage problem naming the unknown one. */
export function parseHostList(value: string): { hosts: HostId[] } | { problem: string } {
  const ids = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const unknown = ids.find((id) => !(HOST_IDS as readonly string[]).includes(id));
  if (unknown !== undefined)
    return { problem: `unknown host ${JSON.stringify(unknown)} (known: ${HOST_IDS.join(', ')})` };
  if (ids.length === 0) return { problem: `--hosts is empty (known: ${HOST_IDS.join(', ')})` };
  return { hosts: [...new Set(ids)] as HostId[] };
}
