// Small pieces the host adapters share to turn a host's tool call into the canonical one (Claude
// Code's names, which core's file and read rules know): a shell command from a string or an argv,
// a file tool's arguments under canonical keys, and the checks every host's input gets.
import { shellLine } from '../shell-word.js';

export const MAX_ID = 256;

export type Obj = Record<string, unknown>;

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
