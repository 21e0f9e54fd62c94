// Small pieces the host adapters share to turn a host's tool call into the canonical one (Claude
// Code's names, which core's file and read rules know): a shell command from a string or an argv,
// a file tool's arguments under canonical keys, and the checks every host's input gets.
import { resolve } from 'node:path';
import type { HostAdapter, HostName, HostParse } from '../host.js';
import { checkHookInput, type HookEvent, type HookInput } from '../input.js';
import { shellLine } from '../shell-word.js';
import { CLAUDE_CODE, type HostInfo } from '../translate.js';

export const MAX_ID = 256;

export type Obj = Record<string, unknown>;

/** A host's tool names → the canonical tool and args (a name not listed stays itself). */
export type ToolMap = Readonly<Record<string, (args: Obj) => { tool: string; args: Obj }>>;

export function isObj(value: unknown): value is Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A usable id: a non-empty string of at most 256 characters. */
export function idOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' && value.length <= MAX_ID ? value : undefined;
}

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', '/bin/sh', '/bin/bash', '/bin/zsh', '/usr/bin/bash']);

/**
 * The command line a shell tool runs: a string as it is; an argv `[bash, -lc, LINE]` is LINE (what
 * that shell parses); any other argv is its words quoted for a POSIX shell, so the gate parses
 * exactly the words the host will exec.
 */
export function shellCommand(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value) || value.length === 0 || !value.every((w) => typeof w === 'string'))
    return undefined;
  const words = value as string[];
  const [program, flag, line, ...rest] = words;
  if (program !== undefined && SHELLS.has(program) && /^-[a-z]*c$/.test(flag ?? '') && rest.length === 0)
    return line;
  return shellLine(words);
}

/** The first string among `keys` of `args`. */
export function pick(args: Obj, ...keys: string[]): string | undefined {
  for (const k of keys) if (typeof args[k] === 'string') return args[k] as string;
  return undefined;
}

/** Args with only the defined entries (a missing key stays missing, so the digest is the host's). */
export function defined(entries: Record<string, unknown>): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(entries)) if (v !== undefined) out[k] = v;
  return out;
}

/**
 * A tool's arguments when a host sends them as a JSON string (Copilot's toolArgs, Cursor's MCP
 * tool_input): parsed, and an object; else a problem.
 */
export function argsObject(
  value: unknown,
  field: string,
): { ok: true; args: Obj } | { ok: false; problem: string } {
  if (isObj(value)) return { ok: true, args: value };
  if (typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value);
      if (isObj(parsed)) return { ok: true, args: parsed };
    } catch {
      // falls through to the problem
    }
    return { ok: false, problem: `hook input "${field}" is a string that is not a JSON object` };
  }
  return { ok: false, problem: `hook input "${field}" is not a JSON object` };
}

/**
 * The files an apply_patch envelope touches (`*** Add File: p`, `*** Update File: p`, `*** Delete
 * File: p`, `*** Move to: p`), read leniently about spacing and line ends. A patch in which none can
 * be found names one empty path, which the file rules judge `unresolved` (gated): a patch the gate
 * cannot read is not a patch that writes nothing.
 */
export function patchFiles(patch: string): string[] {
  const out: string[] = [];
  for (const line of patch.split(/\r?\n|\r/)) {
    const m = /^\s*\*{3}\s*(?:add\s+file|update\s+file|delete\s+file|move\s+to)\s*:\s*(.*?)\s*$/i.exec(line);
    if (m && !out.includes(m[1] ?? '')) out.push(m[1] ?? '');
  }
  return out.length > 0 ? out : [''];
}

/**
 * A host's adapter: its speaker (hostInfo), the events it handles (in order, pre-tool events first),
 * the project directory its hooks are told of (<NAME>_PROJECT_DIR), and its parse and shape.
 */
export function hostAdapter(
  name: HostName,
  label: string,
  shellTool: string,
  events: readonly string[],
  io: Pick<HostAdapter, 'parse' | 'shape'>,
): HostAdapter {
  return {
    name,
    info: hostInfo(name, label, shellTool),
    events,
    projectDirEnv: [`${name.toUpperCase()}_PROJECT_DIR`],
    ...io,
  };
}

/** A host's speaker: Claude Code's, under the host's agent name (recorded by hook:<agent>), label and shell tool. */
export function hostInfo(agent: string, label: string, shellTool: string): HostInfo {
  return { ...CLAUDE_CODE, agent, recordedBy: `hook:${agent}`, label, shellTool };
}

type Refusal = Extract<HostParse, { ok: false }>;

/**
 * The head every host document is read by: a JSON object, its event (read from `eventKey`) one of
 * `events`, and its session (the first usable id among `sessionKeys`); else the problem, naming them.
 */
export function hostHead(
  doc: unknown,
  opts: {
    events: Readonly<Record<string, HookEvent>>;
    label: string;
    eventKey?: string;
    sessionKeys: string[];
  },
): { ok: true; doc: Obj; event: string; canonical: HookEvent; session: string } | Refusal {
  if (!isObj(doc)) return { ok: false, problem: 'hook input is not a JSON object' };
  const key = opts.eventKey ?? 'hook_event_name';
  const raw = doc[key];
  const event = typeof raw === 'string' ? raw.slice(0, 64) : undefined;
  if (event === undefined) return { ok: false, problem: `hook input has no "${key}"` };
  const canonical = opts.events[event];
  if (canonical === undefined)
    return {
      ok: false,
      problem: `hook event ${JSON.stringify(event)} is not one tollgate handles for ${opts.label} (${Object.keys(opts.events).join(', ')})`,
      event,
    };
  const session = opts.sessionKeys.map((k) => idOf(doc[k])).find((s) => s !== undefined);
  if (session === undefined)
    return {
      ok: false,
      problem: `hook input has no usable "${opts.sessionKeys[0]}" (a non-empty string of at most 256 characters)`,
      event,
    };
  return { ok: true, doc, event, canonical, session };
}

/** A Claude-shaped document (Codex, Copilot's PascalCase events) by Claude Code's own checks, as a host parse. */
export function claudeInput(doc: unknown): { ok: true; input: HookInput; event: HookEvent } | Refusal {
  const parsed = checkHookInput(doc);
  if (parsed.ok) return { ok: true, input: parsed.input, event: parsed.input.hook_event_name };
  return parsed.event === undefined
    ? { ok: false, problem: parsed.problem }
    : { ok: false, problem: parsed.problem, event: parsed.event };
}

/** The canonical session events: what the agent was told, and how its session started. */
export const SESSION_KINDS: ReadonlySet<HookEvent> = new Set(['UserPromptSubmit', 'SessionStart']);

/**
 * A host's prompt or session-start event as the canonical session event Claude Code's hook records
 * (translate.ts records the prompt as the session's directive, never evidence): no tool, the prompt
 * (required for a prompt event), how the session started, and the working directory.
 */
export function sessionInput(
  canonical: HookEvent,
  session: string,
  event: string,
  fields: { prompt: unknown; source: unknown; cwd: unknown },
): { ok: true; input: HookInput; event: string } | Refusal {
  if (canonical === 'UserPromptSubmit' && typeof fields.prompt !== 'string')
    return { ok: false, problem: `the ${event} input has no "prompt" string`, event };
  const input: HookInput = { hook_event_name: canonical, session_id: session, tool_name: '', tool_input: {} };
  if (typeof fields.prompt === 'string' && canonical === 'UserPromptSubmit') input.prompt = fields.prompt;
  if (typeof fields.source === 'string' && fields.source !== '') input.source = fields.source.slice(0, 64);
  if (typeof fields.cwd === 'string' && fields.cwd !== '') input.cwd = fields.cwd;
  return { ok: true, input, event };
}

/** Bad tool arguments found while mapping a host's tool (thrown inside a ToolMap entry, read by mapTool). */
export class BadArgs extends Error {}

/**
 * The one string a host names by any of the alias `keys`: two different values present at once are
 * bad input (the gate cannot know which one the host acts on), thrown as BadArgs naming the keys.
 */
export function only(args: Obj, ...keys: string[]): string | undefined {
  const present = keys.filter((k) => args[k] !== undefined && args[k] !== null);
  const value = pick(args, ...keys);
  if (present.length > 1 && present.some((k) => args[k] !== value))
    throw new BadArgs(
      `the call names ${present.map((k) => `"${k}"`).join(' and ')} with different values: the gate cannot tell which one the host uses`,
    );
  return value;
}

/** A host's tool through its map (a name not listed stays itself); bad arguments are a problem. */
export function mapTool(
  tools: ToolMap,
  name: string,
  args: Obj,
): { tool: string; args: Obj } | { problem: string } {
  try {
    return tools[name]?.(args) ?? { tool: name, args };
  } catch (err) {
    if (err instanceof BadArgs) return { problem: `the ${name} call is bad input: ${err.message}` };
    throw err;
  }
}

/**
 * The directory a shell call runs in when its args name one (any of the alias `keys`), resolved
 * against the session's `base` (an absolute one is itself); undefined when none is named. A named
 * one that is not a string, or two different ones, is a problem.
 */
export function workdirOf(
  args: Obj,
  keys: readonly string[],
  base: string | undefined,
): { dir: string | undefined } | { problem: string } {
  const present = keys.filter((k) => args[k] !== undefined && args[k] !== null);
  for (const k of present)
    if (typeof args[k] !== 'string') return { problem: `the call's "${k}" is not a string` };
  const values = new Set(present.map((k) => args[k] as string));
  if (values.size > 1)
    return {
      problem: `the call names ${present.map((k) => `"${k}"`).join(' and ')} with different directories: the gate cannot tell which one the host uses`,
    };
  const [dir] = values;
  return { dir: dir === undefined || dir === '' ? undefined : resolve(base ?? '', dir) };
}

/** Copilot-style key names in text sent to a live shell: {enter} is a line end; these edit the line. */
const EDIT_KEYS =
  /\{(?:up|down|left|right|backspace|delete|del|tab|esc|escape|home|end|pageup|pagedown|ctrl[+-]?[a-z])\}/i;
/** Control characters that edit, complete or recall a terminal line (all but line ends, ^C and ^D). */
const EDIT_CONTROLS = /[\x00-\x02\x05-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f]/;

/**
 * Text an agent sends to a live process's stdin (Codex write_stdin, Copilot write_bash) as the shell
 * command it makes: CR, {enter}, ^C and ^D end a line (text cut off by ^C is still judged). Keys or
 * control characters that edit, complete or recall a line make the line that runs unknowable from
 * the text: a problem, so the call is refused.
 */
export function keystrokeCommand(text: string): { command: string } | { problem: string } {
  const keys = text.replace(/\{enter\}/gi, '\n').replace(/\{ctrl[+-]?[cd]\}/gi, '\n');
  if (EDIT_KEYS.test(keys) || EDIT_CONTROLS.test(keys))
    return {
      problem:
        'the text sent to the live process holds keys that edit, complete or recall the line (arrows, backspace, tab, escape, control characters): the gate cannot tell what line will run; send the plain line',
    };
  return { command: keys.replace(/[\r\x03\x04]/g, '\n') };
}
