// Merging tollgate's hook entries into a Claude Code settings file: parse what is there (refusing to
// touch a file that is not a JSON object), replace tollgate's own earlier entries, keep the rest.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { UsageError } from '../errors.js';
import { hookCommand } from '../hook-snapshot.js';

// Matchers are anchored regular expressions (an unanchored "Read" would also match "NotebookRead").
// Reads go through PreToolUse too: a read is recorded as attested only when its PostToolUse pairs
// with the PreToolUse the gate saw for the same tool_use_id (a forged PostToolUse pairs with nothing).
const TOOLS =
  'Bash|Read|Grep|Glob|LS|NotebookRead|Write|Edit|MultiEdit|NotebookEdit|WebFetch|WebSearch|mcp__.*';
export const MATCHERS: Record<string, string> = {
  PreToolUse: `^(${TOOLS})$`,
  PostToolUse: `^(${TOOLS})$`,
  PostToolUseFailure: '^(Bash|Write|Edit|MultiEdit|NotebookEdit|mcp__.*)$',
};
/**
 * Session events, installed without a matcher: the user's prompt (the directive in force, never
 * evidence) and the session's start (the gate tells the agent it is on). A failure here does not
 * block the prompt: the tool events still decide every call.
 */
export const SESSION_EVENTS = ['UserPromptSubmit', 'SessionStart'] as const;
export const HOOK_TIMEOUT_S = 30;
const MARK = 'hook claude-code';

type Json = Record<string, unknown>;

export function installClaudeCodeHooks(
  path: string,
  self: readonly string[],
  /** TOLLGATE_CONFIG / TOLLGATE_DB pinning the hook to this project, whatever directory it starts in. */
  pin: Readonly<Record<string, string>> = {},
  /** A start-up snapshot of the hook for self[0] (hook-snapshot.ts); the command falls back without it. */
  snapshot?: { blob: string },
): { path: string; events: string[]; updated: boolean } {
  const settings = readSettings(path);
  settings.hooks ??= {};
  const hooks = settings.hooks as Json;
  if (typeof hooks !== 'object' || Array.isArray(hooks))
    throw new UsageError(`${path}: "hooks" is not an object`, 'fix the file by hand, then run this again');
  const command = hookCommand(self, MARK.split(' '), pin, snapshot);
  let updated = false;
  const entries: [string, string | undefined][] = [
    ...Object.entries(MATCHERS),
    ...SESSION_EVENTS.map((e): [string, undefined] => [e, undefined]),
  ];
  for (const [event, matcher] of entries) {
    hooks[event] ??= [];
    const groups = hooks[event] as Json[];
    if (!Array.isArray(groups))
      throw new UsageError(
        `${path}: hooks.${event} is not an array`,
        'fix the file by hand, then run this again',
      );
    // Drop earlier tollgate entries (any path), keep every other hook.
    for (const group of groups) {
      const list = Array.isArray(group.hooks) ? (group.hooks as Json[]) : [];
      const kept = list.filter(
        (h) => !(typeof h.command === 'string' && h.command.endsWith(MARK) && h.command.includes('tollgate')),
      );
      if (kept.length !== list.length) {
        updated = true;
        group.hooks = kept;
      }
    }
    hooks[event] = groups.filter((g) => !Array.isArray(g.hooks) || (g.hooks as unknown[]).length > 0);
    (hooks[event] as Json[]).push(
      matcher === undefined
        ? { hooks: [{ type: 'command', command, timeout: HOOK_TIMEOUT_S, statusMessage: 'tollgate' }] }
        : {
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
          },
    );
  }
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tollgate.tmp`;
  writeFileSync(tmp, `${JSON.stringify(settings, null, 2)}\n`);
  renameSync(tmp, path);
  return { path, events: entries.map(([e]) => e), updated };
}

function readSettings(path: string): Json {
  if (!existsSync(path)) return {};
  const text = readFileSync(path, 'utf8');
  if (text.trim() === '') return {};
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `${path} is not valid JSON (${(error as Error).message}); nothing was changed`,
      'fix the file, then run tollgate init claude-code again',
    );
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc))
    throw new UsageError(
      `${path} is not a JSON object; nothing was changed`,
      'fix the file, then run tollgate init claude-code again',
    );
  return doc as Json;
}
