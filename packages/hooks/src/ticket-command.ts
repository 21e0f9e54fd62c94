// Filing a prediction or decline from inside Claude Code: the agent runs `tollgate predict|decline
// ...` through Bash without knowing its session id. The PreToolUse hook recognises exactly that one
// simple command and rewrites it so the process files into the hook's session and store. It also
// recognises every other way the agent's shell could run the tollgate CLI, so operator commands
// (override, init, hook, serve, mcp) are denied whatever launcher they come through.
import {
  parseShell,
  type ResolveContext,
  ranByHook,
  resolvePath,
  type ShellSegment,
  viaPackageRunner,
} from '@tollgate/shell';
import type { SelfIdentity } from './self-identity.js';
import { shellLine, shellWord } from './shell-word.js';

export type TicketCommand =
  | { kind: 'none' }
  | { kind: 'ticket'; subcommand: BoundSubcommand; args: string[] }
  | { kind: 'refused'; problem: string }
  /**
   * The tollgate CLI run for something an agent may not do (override, init, hook, serve, mcp, run,
   * ...): never run on an agent's behalf. `subcommand` is the word after the program ('' for none).
   */
  | { kind: 'operator'; subcommand: string }
  /** The tollgate CLI run for an agent-facing read-only command (check, classify, rules, observe, audit list|show). */
  | { kind: 'agent'; subcommand: string };

/**
 * Commands the hook binds to its own session and store: filing a ticket, recording a read, a dry
 * look. From the agent's shell they never name another session (`--session` is refused).
 */
export type BoundSubcommand = 'predict' | 'decline' | 'observe' | 'check';
const SUBCOMMANDS = new Set<string>(['predict', 'decline', 'observe', 'check']);
/**
 * What an agent may run itself: the bound commands, and reads (doctor only reads the host files and
 * tests the installed hook against a throwaway store). Everything else — init, uninstall, override,
 * ... — is denied.
 */
const AGENT_FACING = new Set(['classify', 'rules', 'doctor', '--help', '-h', 'help', '--version']);
const AGENT_AUDIT = new Set(['list', 'show', 'report', 'verify']);

/** Programs that run a package's binary or a script given as an argument (npx tollgate, node tollgate.js). */
const SCRIPT_RUNNERS = new Set(['npx', 'bunx', 'pnpx', 'node', 'nodejs', 'deno', 'tsx', 'ts-node']);
/** Interpreters that run a script file given as an argument (bash ./t override, python3 t.py). */
const INTERPRETERS = new Set([
  'sh',
  'bash',
  'dash',
  'zsh',
  'ksh',
  'python',
  'python3',
  'perl',
  'ruby',
  'bun',
]);
/** Package managers: they run a binary only through these subcommands (npm exec tollgate, pnpm dlx tollgate). */
const PACKAGE_MANAGERS: Record<string, ReadonlySet<string>> = {
  npm: new Set(['exec', 'x']),
  pnpm: new Set(['dlx', 'exec']),
  yarn: new Set(['dlx', 'exec']),
  bun: new Set(['x', 'run']),
  corepack: new Set(['npx', 'pnpx', 'pnpm', 'yarn', 'npm']),
};
/**
 * Programs that run a command line given as one argument, often on a terminal they allocate
 * (script -c 'tollgate override ...' would otherwise fake the TTY that override asks for).
 */
const COMMAND_WRAPPERS = new Set([
  'script',
  'unbuffer',
  'expect',
  'tmux',
  'screen',
  'dtach',
  'abduco',
  'socat',
  'ssh',
  'su',
  'runuser',
  'setsid',
  'faketty',
  'ptyrun',
]);

/**
 * Whether a Bash command runs the tollgate CLI, and how: one plain `tollgate predict|decline ...`
 * (through any launcher: npx [-y], npm exec, pnpm dlx, node .../tollgate.js) is a ticket the hook
 * binds; an agent-facing read is left alone; anything else (override, init, hook, serve, mcp, run,
 * an unreadable subcommand) is an operator command. `roots` are directories of the installed
 * package: a script under one of them counts as tollgate too.
 */
export function ticketCommand(
  command: string,
  roots: readonly string[] = [],
  where?: { context: ResolveContext; identity: SelfIdentity },
): TicketCommand {
  // Without a place to resolve programs in, only the words can tell; with one, every program is
  // looked up (PATH, globs, symlinks, copies), so a renamed tollgate is found too.
  if (!where && !/tollgate|hook\.cjs/i.test(command) && !roots.some((r) => command.includes(r)))
    return { kind: 'none' };
  const facts = parseShell(command, where ? { context: where.context } : {});
  const isSelf = where ? selfCheck(where) : undefined;
  // The command a package runner runs (npx tollgate ...) is a segment of its own too; the runner's
  // segment already names that invocation, so it is not counted twice.
  const runs = (s: ShellSegment) => viaPackageRunner(s.via) && directly(s, roots, isSelf);
  // What a git hook runs (tollgate's own git-hook among it) is git's doing, not the command's.
  const segments = facts.segments.filter((s) => !ranByHook(s));
  const found = segments
    .filter((s) => !runs(s))
    .flatMap((s) => invocations(s, roots, 0, isSelf).map((words) => ({ segment: s, words })));
  if (found.length === 0) return { kind: 'none' };
  const forbidden = found.find(({ words }) => !agentFacing(words));
  if (forbidden) return { kind: 'operator', subcommand: forbidden.words[0] ?? '' };
  const first = found[0] as (typeof found)[number];
  const { segment, words } = first;
  if (!SUBCOMMANDS.has(words[0] ?? '')) return { kind: 'agent', subcommand: words[0] ?? '' };
  const problem =
    segments.filter((s) => !s.via.includes(segment.program) && !runs(s)).length !== 1 ||
    facts.dynamic.length > 0 ||
    facts.error !== undefined ||
    found.length > 1
      ? 'run `tollgate predict` / `tollgate decline` as a command of its own (no pipes, lists, substitutions or redirects)'
      : segment.unresolved || segment.redirects.length > 0 || segment.via.length > 0
        ? "write the document literally (`--json-doc '{...}'` or `--file F`): no variables, substitutions, redirects or wrappers"
        : segment.assignments.length > 0
          ? 'drop the leading VAR=value assignments; the gate binds the session and store itself'
          : words.some((w) => w === '--session' || w.startsWith('--session='))
            ? 'drop --session; the gate files it under this Claude Code session'
            : undefined;
  if (problem) return { kind: 'refused', problem };
  return { kind: 'ticket', subcommand: words[0] as BoundSubcommand, args: words.slice(1) };
}

/** Whether a word the shell runs (a program, or a script an interpreter is given) resolves to this tollgate. */
function selfCheck(where: { context: ResolveContext; identity: SelfIdentity }): (word: string) => boolean {
  // Asked of each segment's program and of runner arguments, several times each: a 60-line script
  // names five programs; each answer takes a resolution against the file system.
  const known = new Map<string, boolean>();
  return (word) => {
    if (word === '' || word.startsWith('-')) return false;
    let self = known.get(word);
    if (self === undefined) {
      const path = resolvePath(word, where.context);
      self = path !== undefined && where.identity.isSelf(path);
      known.set(word, self);
    }
    return self;
  };
}

function agentFacing(words: readonly string[]): boolean {
  const [sub, next] = words;
  if (sub === undefined) return true; // bare `tollgate` prints its help
  if (SUBCOMMANDS.has(sub) || AGENT_FACING.has(sub)) return true;
  return sub === 'audit' && next !== undefined && AGENT_AUDIT.has(next);
}

/** A word naming the tollgate program: the package (tollgate, tollgate@1, @x/tollgate), its bin or hook bundle, or a file of the installed package. */
export function isTollgateWord(word: string, roots: readonly string[] = []): boolean {
  const lc = word.toLowerCase();
  if (/^(@[^/]+\/)?tollgate(@[^/]*)?$/.test(lc)) return true;
  const base = lc.slice(lc.lastIndexOf('/') + 1);
  if (/^tollgate(\.[cm]?js)?$/.test(base) || base === 'hook.cjs') return true;
  if (/(^|\/)node_modules\/(@tollgate\/|tollgate\/)/.test(lc)) return true;
  return roots.some((r) => r !== '' && (word === r || word.startsWith(`${r}/`)));
}

/** Whether the segment's own program is tollgate (not a runner or wrapper that runs it). */
function directly(
  s: Pick<ShellSegment, 'program' | 'argv0' | 'resolved_program'>,
  roots: readonly string[],
  isSelf?: (word: string) => boolean,
): boolean {
  return (
    s.program === 'tollgate' ||
    isTollgateWord(s.argv0, roots) ||
    (isSelf?.(s.resolved_program ?? s.argv0) ?? false)
  );
}

/** The argument lists tollgate is run with in this segment (several when a wrapper's command string runs it). */
function invocations(
  s: Pick<ShellSegment, 'program' | 'argv0' | 'args' | 'resolved_program'>,
  roots: readonly string[],
  depth: number,
  isSelf?: (word: string) => boolean,
): string[][] {
  if (s.program === 'tollgate' || isTollgateWord(s.argv0, roots)) return [[...s.args]];
  if (isSelf?.(s.resolved_program ?? s.argv0)) return [[...s.args]];
  const { args } = s;
  const named = (a: string) => isTollgateWord(a, roots) || (isSelf?.(a) ?? false);
  let scan = SCRIPT_RUNNERS.has(s.program) || COMMAND_WRAPPERS.has(s.program) || INTERPRETERS.has(s.program);
  const verbs = PACKAGE_MANAGERS[s.program];
  if (verbs && (verbs.has(args[0] ?? '') || named(args[0] ?? ''))) scan = true;
  const out: string[][] = [];
  if (scan) {
    const at = args.findIndex(named);
    if (at >= 0) {
      // node --snapshot-blob <tollgate's blob> SCRIPT ARGS: the blob is the program, and it takes
      // the next word as its script (the hook snapshot's main only reads where it is): ARGS follow.
      const rest = args.slice(at + (args[at - 1] === '--snapshot-blob' ? 2 : 1));
      out.push(rest[0] === '--' ? rest.slice(1) : rest);
    }
  }
  // A wrapper's command string (script -c '...', tmux new '...', ssh host '...'): parse it too.
  if (COMMAND_WRAPPERS.has(s.program) && depth < 3) {
    for (const arg of args) {
      if (!/\s/.test(arg) || (!isSelf && !/tollgate|hook\.cjs/i.test(arg))) continue;
      for (const inner of parseShell(arg).segments) out.push(...invocations(inner, roots, depth + 1, isSelf));
    }
  }
  return out;
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
