// Building one ShellSegment from an expanded argv: the normalised program, flags (combined short
// flags split), positionals (known option values removed), the command path and the subcommand.
import { normalizeProgram } from './normalize.js';
import { npmCommand } from './npm-commands.js';
import { operationWords } from './operation.js';
import { GIT_VALUE_OPTIONS, GLOBAL_VALUE_OPTIONS, SUBCOMMAND_VALUE_OPTIONS, takesValue } from './options.js';
import { own } from './own.js';
import { readOptions } from './read-options.js';
import type { ShellRedirect, ShellSegment } from './types.js';

export interface SegmentInput {
  argv: string[];
  unresolved: boolean;
  /** Some unresolved word could take any shape (see ShellSegment.unresolved_open). */
  unresolvedOpen?: boolean;
  text: string;
  via: string[];
  assignments: string[];
  redirects: ShellRedirect[];
  stdin?: string | undefined;
  stdinFrom?: ShellSegment['stdin_from'] | undefined;
  payload?: string | undefined;
  config?: string[] | undefined;
}

const PATH_LENGTH = 4;

export function buildSegment(input: SegmentInput): ShellSegment {
  const argv0 = input.argv[0] ?? '';
  const program = normalizeProgram(argv0);
  const args = input.argv.slice(1);
  // A modelled program's options are read as its own parser reads them (abbreviations, negations).
  const read = readOptions(program, args);
  const split = read ?? splitArgs(program, args);
  const { flags, positionals } = split;
  const maybeValues = 'maybeValues' in split ? split.maybeValues : undefined;
  const { path, subcommand } = commandWords(program === 'npm' && !read, positionals, maybeValues);
  const segment: ShellSegment = {
    program,
    argv0,
    args,
    args_lc: args.map((a) => a.toLowerCase()),
    flags,
    positionals,
    path,
    operation: operationWords(args, own(GLOBAL_VALUE_OPTIONS, program)),
    last_positional: positionals[positionals.length - 1] ?? '',
    last_arg: args[args.length - 1] ?? '',
    text: input.text,
    via: input.via,
    assignments: input.assignments,
    unresolved: input.unresolved,
    redirects: input.redirects,
  };
  if (input.unresolvedOpen) segment.unresolved_open = true;
  if (subcommand !== undefined) segment.subcommand = subcommand;
  if (maybeValues) addReadings(segment, maybeValues);
  if (read) segment.canonical = read.canonical;
  if (input.stdin !== undefined) segment.stdin = input.stdin;
  if (input.stdinFrom !== undefined) segment.stdin_from = input.stdinFrom;
  if (input.payload !== undefined) {
    segment.payload = input.payload;
    segment.payload_lc = codeOnly(input.payload).toLowerCase();
  }
  if (input.config !== undefined) segment.config = input.config;
  return segment;
}

/** At most this many leading words are each tried as an option's value. */
const MAX_READINGS = 3;

/**
 * `npm --tag next publish`: `next` may be `--tag`'s value (it is) or the subcommand. The segment
 * keeps the first reading; each leading word that directly follows an option no table knows adds a
 * reading in which it is that option's value.
 */
function addReadings(segment: ShellSegment, maybeValues: ReadonlySet<number>): void {
  const { positionals } = segment;
  const readings: NonNullable<ShellSegment['readings']> = [];
  for (let k = 0; k < MAX_READINGS && maybeValues.has(k) && k + 1 < positionals.length; k++) {
    const rest = positionals.slice(k + 1);
    const shifted = new Set([...maybeValues].filter((i) => i > k).map((i) => i - k - 1));
    readings.push({ positionals: rest, ...commandWords(segment.program === 'npm', rest, shifted) });
  }
  if (readings.length > 0) segment.readings = readings;
}

/**
 * The command path and subcommand of these command words. `npm pub` is `npm publish`: npm takes an
 * alias or any unambiguous prefix of a command (`npm` false where npm's options were modelled).
 */
function commandWords(
  npm: boolean,
  words: readonly string[],
  maybeValues: ReadonlySet<number> | undefined,
): { path: string[]; subcommand?: string } {
  const first = words[0];
  const path = commandPath(words, maybeValues);
  if (first === undefined) return { path };
  if (!npm) return { path, subcommand: first.toLowerCase() };
  const command = npmCommand(first);
  return { path: [command, ...path.slice(1)], subcommand: command };
}

/**
 * The first PATH_LENGTH command words. A word right after an option no table knows may be that
 * option's value (`docker compose -f a.yml -f b.yml -p proj down`), so it is kept but not counted:
 * the words after it still reach the path.
 */
function commandPath(positionals: readonly string[], maybeValues: ReadonlySet<number> | undefined): string[] {
  const path: string[] = [];
  let counted = 0;
  for (let i = 0; i < positionals.length && counted < PATH_LENGTH; i++) {
    path.push((positionals[i] as string).toLowerCase());
    if (!maybeValues?.has(i)) counted++;
  }
  return path;
}

export function isOption(arg: string): boolean {
  return arg.length > 1 && arg[0] === '-';
}

/** Usage words: as an option they make most programs print help and do nothing else. */
const HELP = new Set(['-h', '--help', '-help']);

/**
 * Split args into flags and positionals, skipping the values of known value-taking options.
 * `maybeValues` holds the positionals that directly follow an option no table knows: they may be
 * its value.
 */
export function splitArgs(
  program: string,
  args: string[],
): { flags: string[]; positionals: string[]; maybeValues: Set<number> } {
  const flags: string[] = [];
  const positionals: string[] = [];
  const maybeValues = new Set<number>();
  const global = own(GLOBAL_VALUE_OPTIONS, program);
  const subCli = own(SUBCOMMAND_VALUE_OPTIONS, program);
  let table = global;
  let afterDashDash = false;
  /** The previous word was an option whose arity no table knows (`-x`, `--name`; not `--name=v`). */
  let unknownBefore = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const unknownArity = unknownBefore;
    unknownBefore = false;
    if (afterDashDash) {
      positionals.push(arg);
    } else if (arg === '--') {
      // `git -- reset`: before the subcommand, git skips a lone `--`.
      if (!(program === 'git' && positionals.length === 0)) afterDashDash = true;
    } else if (isOption(arg)) {
      // `kubectl delete -x --help`, `--field-manager --help`: an option that takes a value takes the
      // next word whatever it looks like, so help right after an option no table knows may be its value.
      if (unknownArity && HELP.has(arg)) continue;
      const clusterTakesValue = addFlag(flags, arg, program, table);
      if (takesValue(table, arg) || clusterTakesValue) i++;
      else unknownBefore = !arg.includes('=') && (arg.length === 2 || arg.startsWith('--'));
    } else {
      if (unknownArity) maybeValues.add(positionals.length);
      positionals.push(arg);
      if (positionals.length === 1 && program === 'git') table = own(GIT_VALUE_OPTIONS, arg.toLowerCase());
      else if (positionals.length === 1 && subCli !== undefined)
        table = own(subCli, arg.toLowerCase()) ?? table;
    }
  }
  return { flags, positionals, maybeValues };
}

/** Programs whose options are single-dash words (`find -delete`), never clusters of letters. */
const LONG_SINGLE_DASH = new Set(['find', 'java', 'go', 'terraform', 'tofu', 'ffmpeg', 'ffprobe', 'xargs']);

/** Options that make a command only show what it would do. */
const SAFETY_FLAG =
  /^--(dry-?run|dry_run|preview(-only)?|what-?if|simulate|noop|no-op|check|plan|interactive)$/;
const FALSE_VALUE = /^(f|false|0|n|no|off|none|never)$/i;

/** Record a flag (and its parts); true when a short cluster ends in a letter that takes the next arg. */
function addFlag(
  flags: string[],
  arg: string,
  program: string,
  values: ReadonlySet<string> | undefined,
): boolean {
  flags.push(arg);
  if (LONG_SINGLE_DASH.has(program)) return false;
  if (arg.startsWith('--')) {
    // The last word wins: `--dry-run --dry-run=false` and `--dry-run --no-dry-run` do the thing.
    const cancelled = cancelledSafetyFlag(arg);
    if (cancelled !== undefined) {
      for (let k = flags.length - 2; k >= 0; k--) if (flags[k] === cancelled) flags.splice(k, 1);
    }
    const eq = arg.indexOf('=');
    // `--dry-run=false` turns the dry run off (pflag, npm, yargs read it so; getopt refuses it):
    // the bare name would read as one. Other options keep it: `--force=false` stays gated.
    if (eq > 2 && !(SAFETY_FLAG.test(arg.slice(0, eq)) && FALSE_VALUE.test(arg.slice(eq + 1))))
      flags.push(arg.slice(0, eq));
    return false;
  }
  if (arg.length <= 2) return false;
  for (let i = 1; i < arg.length; i++) {
    const c = arg[i] as string;
    if (!/[A-Za-z0-9]/.test(c)) break;
    flags.push(`-${c}`);
    // `-cfeature`: once a letter takes a value, the rest of the cluster is that value;
    // `-am MSG`: a value-taking letter at the end takes the next arg.
    if (values?.has(`-${c}`)) return i === arg.length - 1;
  }
  return false;
}

/** The safety flag an option turns off (`--no-dry-run`, `--dry-run=false` → `--dry-run`), if it is one. */
function cancelledSafetyFlag(arg: string): string | undefined {
  const eq = arg.indexOf('=');
  if (eq > 2) {
    const name = arg.slice(0, eq);
    return SAFETY_FLAG.test(name) && FALSE_VALUE.test(arg.slice(eq + 1)) ? name : undefined;
  }
  if (!arg.startsWith('--no-')) return undefined;
  const name = `--${arg.slice(5)}`;
  return SAFETY_FLAG.test(name) ? name : undefined;
}

/** Code with quoted string literals emptied, so that rules match statements and not data. */
export function codeOnly(code: string): string {
  return code.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/g, (m) => (m[0] as string) + (m[0] as string));
}
