// Which hook commands in a host file are Tollgate's, and what they run. A hook command is
// `[VAR=value ...] <node> <abs>/bin/tollgate.js hook HOST`, or the start-up-snapshot form
// hook-snapshot.ts writes (`out=$(… node --snapshot-blob B bin hook HOST); … printf … || … node bin
// hook HOST`). It is recognised on the parsed command — a tollgate program, or a script runner given a
// tollgate script, then `hook HOST`, every part agreeing — so an older install with another node,
// path, pin or snapshot is recognised, and a user hook that merely mentions the words is not.
import { isTollgateWord } from '@tollgate/hooks';
import { parseShell, type ShellSegment, viaPackageRunner } from '@tollgate/shell';

/** This tollgate as a command: the node running it and its bin script. */
export function selfCommand(): string[] {
  return [process.execPath, process.argv[1] ?? 'tollgate'];
}

export interface InstalledCommand {
  host: string;
  /** The leading VAR=value assignments. */
  env: Record<string, string>;
  /** The words run: program, script, `hook`, host. */
  argv: string[];
  /** The tollgate script (or program) word. */
  script: string;
}

const RUNNERS = new Set(['node', 'nodejs', 'npx', 'bunx', 'pnpx', 'bun', 'deno', 'tsx']);
/** Runner options that take a value (the snapshot form's `node --snapshot-blob FILE SCRIPT`). */
const VALUE_OPTIONS = new Set(['--snapshot-blob']);

interface Invocation extends InstalledCommand {
  snapshot: boolean;
}

/** The command as a Tollgate hook command, or undefined when it is anything else. */
export function parseHookCommand(command: unknown): InstalledCommand | undefined {
  if (typeof command !== 'string' || !/hook/.test(command)) return undefined;
  const facts = parseShell(command);
  if (facts.error !== undefined || facts.segments.length === 0) return undefined;
  const runs: Invocation[] = [];
  for (const s of facts.segments) {
    // A package runner's command (npx tollgate …) is also a segment of its own; the runner's segment,
    // which carries its options, is the one recognised.
    if (viaPackageRunner(s.via)) continue;
    const run = invocation(s);
    if (run) runs.push(run);
    else if (!snapshotGlue(s)) return undefined;
  }
  const plain = runs.find((r) => !r.snapshot) ?? runs[0];
  if (plain === undefined) return undefined;
  const same = (r: Invocation) =>
    r.host === plain.host && r.script === plain.script && JSON.stringify(r.env) === JSON.stringify(plain.env);
  if (!runs.every(same)) return undefined;
  // One plain run, or the snapshot form: one run from the snapshot and its plain fallback.
  if (
    runs.length > 1 &&
    !(runs.length === 2 && runs.some((r) => r.snapshot) && runs.some((r) => !r.snapshot))
  )
    return undefined;
  const { snapshot: _s, ...found } = plain;
  return found;
}

/**
 * The glue of the snapshot form around its two runs: shell-local assignments (`out=$(…)`, `rc=$?`;
 * the run inside a substitution is a segment of its own) and side-effect-free builtins (`[`, `test`,
 * `printf`, `exit`). Anything else in the line makes it not Tollgate's.
 */
const GLUE_PROGRAMS = new Set(['[', 'test', 'printf', 'exit', 'true', 'false']);
function snapshotGlue(s: ShellSegment): boolean {
  if (s.argv0 === '') return s.assignments.every((a) => /^[a-z][a-z0-9_]*=/.test(a));
  return GLUE_PROGRAMS.has(s.program) && s.assignments.length === 0 && s.redirects.length === 0;
}

function invocation(s: ShellSegment): Invocation | undefined {
  let at: number; // index in args where the tollgate subcommand starts
  let script: string;
  let snapshot = false;
  if (isTollgateWord(s.argv0)) {
    at = 0;
    script = s.argv0;
  } else if (RUNNERS.has(s.program)) {
    let i = 0;
    while (i < s.args.length && (s.args[i] as string).startsWith('-')) {
      if (VALUE_OPTIONS.has(s.args[i] as string)) {
        snapshot = true;
        i++;
      }
      i++;
    }
    const word = s.args[i];
    if (word === undefined || !isTollgateWord(word)) return undefined;
    at = i + 1;
    script = word;
  } else return undefined;
  const [sub, host, ...extra] = s.args.slice(at);
  if (sub !== 'hook' || host === undefined || extra.length > 0) return undefined;
  const env: Record<string, string> = {};
  for (const a of s.assignments) {
    const eq = a.indexOf('=');
    env[a.slice(0, eq)] = a.slice(eq + 1);
  }
  const argv = snapshot ? [s.argv0, ...s.args.slice(at - 1)] : [s.argv0, ...s.args];
  return { host, env, argv, script, snapshot };
}
