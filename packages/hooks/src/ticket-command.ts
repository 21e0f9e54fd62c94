// Filing a prediction or decline from inside Claude Code: the agent runs `tollgate predict|decline
// ...` through Bash without knowing its session id. The PreToolUse hook recognises exactly that one
// simple command and rewrites it so the process files into the hook's session and store.
import { parseShell } from '@tollgate/shell';
import { shellLine, shellWord } from './shell-word.js';

export type TicketCommand =
  | { kind: 'none' }
  | { kind: 'ticket'; subcommand: 'predict' | 'decline'; args: string[] }
  | { kind: 'refused'; problem: string }
  /** An operator command (override, init): never run on an agent's behalf. */
  | { kind: 'operator'; subcommand: string };

const SUBCOMMANDS = new Set(['predict', 'decline']);
const OPERATOR = new Set(['override', 'init']);

/** Whether a Bash command is one plain `tollgate predict|decline ...` (or `npx tollgate ...`). */
export function ticketCommand(command: string): TicketCommand {
  if (!/\btollgate\b/i.test(command)) return { kind: 'none' };
  const facts = parseShell(command);
  const mentions = facts.segments.filter((s) => isTollgate(s.program, s.args) !== undefined);
  const operator = mentions
    .map((s) => isTollgate(s.program, s.args)?.[0])
    .find((sub) => sub !== undefined && OPERATOR.has(sub));
  if (operator !== undefined) return { kind: 'operator', subcommand: operator };
  const words = mentions[0] && isTollgate(mentions[0].program, mentions[0].args);
  if (!words || !SUBCOMMANDS.has(words[0] ?? '')) return { kind: 'none' };
  const segment = mentions[0];
  if (!segment) return { kind: 'none' };
  const problem =
    facts.segments.length !== 1 || facts.dynamic.length > 0 || facts.error !== undefined
      ? 'run `tollgate predict` / `tollgate decline` as a command of its own (no pipes, lists, substitutions or redirects)'
      : segment.unresolved || segment.redirects.length > 0 || segment.via.length > 0
        ? "write the document literally (`--json-doc '{...}'` or `--file F`): no variables, substitutions, redirects or wrappers"
        : segment.assignments.length > 0
          ? 'drop the leading VAR=value assignments; the gate binds the session and store itself'
          : words.some((w) => w === '--session' || w.startsWith('--session='))
            ? 'drop --session; the gate files it under this Claude Code session'
            : undefined;
  if (problem) return { kind: 'refused', problem };
  return { kind: 'ticket', subcommand: words[0] as 'predict' | 'decline', args: words.slice(1) };
}

function isTollgate(program: string, args: readonly string[]): readonly string[] | undefined {
  if (program === 'tollgate') return args;
  if (program === 'npx' && args[0] === 'tollgate') return args.slice(1);
  return undefined;
}

/**
 * The command line that files the ticket into `session`, run by this very tollgate (`self`, e.g.
 * [node, /abs/bin/tollgate.js]) against the same store the hook uses (`env`: TOLLGATE_DB, TOLLGATE_CONFIG).
 */
export function boundTicketCommand(
  ticket: Extract<TicketCommand, { kind: 'ticket' }>,
  session: string,
  self: readonly string[],
  env: Readonly<Record<string, string>>,
): string {
  const assignments = Object.entries({ ...env, TOLLGATE_SESSION: session }).map(
    ([k, v]) => `${k}=${shellWord(v)}`,
  );
  return [...assignments, shellLine([...self, ticket.subcommand, ...ticket.args])].join(' ');
}
