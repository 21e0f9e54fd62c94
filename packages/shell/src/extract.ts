// Walking the syntax tree into facts: every simple command becomes an Invocation (expanded argv,
// assignments, redirects, stdin), prefixes are peeled off, and wrappers that run other commands
// (shells, ssh, xargs, find -exec, …) hand their inner commands back to `resolve`.
import { posix } from 'node:path';
import {
  arithmeticCode,
  arithmeticNames,
  arithmeticTexts,
  indirectNames,
  unshownValue,
} from './arithmetic.js';
import type { Command, CompoundCommand, Pipeline, Redirect, Script, SimpleCommand, Word } from './ast.js';
import { BraceLimit, braceExpand } from './brace.js';
import { type Budget, enter, LimitExceeded, leave, ShellSyntaxError, tick } from './budget.js';
import {
  buildOutputs,
  markBuildOutputs,
  mirroredFiles,
  noteLosses,
  noteMovesInto,
  noteOrder,
} from './build-outputs.js';
import { checkArithmeticWord, checkAssignment, EFFECTS, steeringName } from './builtins.js';
import { commandOutput, type Env, expandWord, MAX_BRACE_WORDS } from './expand.js';
import { runsFiles } from './file-runners.js';
import { isAbsent } from './files.js';
import { type FindCleanup, printedClean } from './find-cleanups.js';
import type { PipelineAt } from './git-switch.js';
import { movesHead } from './head-moves.js';
import { noteLoadedFiles } from './loaded-files.js';
import { mention } from './mktemp-variable.js';
import { egressOf, isNetProgram, PROXY_OUTPUT_TEXT, REROUTING_TEXT } from './net.js';
import { outputVariables } from './net-hosts.js';
import { normalizeProgram } from './normalize.js';
import { assignedCommands, commandValuedOptions, packageManagerConfig } from './option-commands.js';
import { Parser } from './parser.js';
import { type Argv, isPrefix, unwrapPrefix } from './prefixes.js';
import {
  DATA_STDIN,
  databaseClient,
  interpreterLanguage,
  OPTION_INERT,
  REMOVERS,
  SHELLS,
} from './programs.js';
import { type Resolver, SPECIAL_BUILTINS } from './resolve.js';
import { notScratch } from './scratch.js';
import { noteWritten, runFoundProgram, runPathProgram } from './scripts.js';
import { buildSegment } from './segment.js';
import { serviceSql } from './sql-clients.js';
import type { DynamicConstruct, ShellRedirect, ShellSegment } from './types.js';
import { containerCopy, writeModel } from './write-model.js';
import { addPath, programWrites, type WriteSet } from './writes.js';

export interface Stdin {
  /** The text fed to stdin; undefined when it is not static. */
  text?: string;
  from: 'heredoc' | 'herestring' | 'pipe' | 'pipe-dynamic' | 'file';
  /** `< FILE`: the file, as the redirection names it (read where it is used). */
  file?: string;
  /** Piped from a find clean that prints what it finds NUL-separated (find-cleanups.ts). */
  found?: FindCleanup;
}

export interface Invocation extends Argv {
  assignments: string[];
  redirects: ShellRedirect[];
  stdin?: Stdin;
  text: string;
  via: string[];
  /** Files the command's redirections write, resolved where the redirection was read. */
  writes?: WriteSet;
  /** `$TMPDIR` as the command's words were expanded (`''`: unset; null: assigned by the command, unknown). */
  temp?: string | null;
  /**
   * Unresolved words (as expanded) whose shape is fixed (see fixedShape); keyed by text, so words a
   * handler adds or moves (xargs items, sliced argv) are never taken for one of them.
   */
  fixed?: ReadonlySet<string>;
  /** Unresolved words (as expanded) that stay one word whatever they hold (see oneWord); keyed as `fixed`. */
  single?: ReadonlySet<string>;
}

export type Handler = (ex: Extractor, inv: Invocation, env: Env, program: string) => void;

const MAX_SEGMENTS = 1000;
/**
 * A word that expands to one word of a known shape whatever its unresolved parts hold: it starts
 * with static text that is not an option's letters (`backup-$(date +%s)`, `--format="$F"`, but not
 * `-$X`), and every expansion is quoted and no unquoted glob follows (nothing splits or multiplies).
 */
function fixedShape(word: Word): boolean {
  const first = word.parts[0];
  if (first?.kind !== 'lit' || first.text === '') return false;
  if (first.text.startsWith('-') && !/^--[\w-]+=/.test(first.text)) return false;
  return oneWord(word);
}

/** Every expansion is quoted and no unquoted glob follows: the word stays one word (`"$MSG"`). */
function oneWord(word: Word): boolean {
  return word.parts.every((p) => (p.kind === 'lit' ? p.quoted || !/[*?[]/.test(p.text) : p.quoted));
}

/** What may assign a loop's variable where its text does not show it. */
const HIDDEN_ASSIGNMENT =
  /\w\s*\(\s*\)|\bfunction\s|(^|[\s;&|(])(source|\.|eval|trap|let|read|mapfile|readarray|getopts|printf|declare|typeset|local|export|command_not_found_handle)(?=[\s;&|)]|$)|\(\(/;

/** Most values of a `for` list whose body is walked once per value. */
const MAX_LOOP_VALUES = 16;

/**
 * Whether a loop's text mentions its variable only in its header and as `$NAME`, `${NAME}` or a
 * read of it (`${NAME%.ts}`): no assignment (`NAME=`, `${NAME:=}`, `read NAME`, `for NAME` again).
 */
function onlyRead(name: string, text: string): boolean {
  let header = false;
  for (const m of text.matchAll(mention(name))) {
    const at = (m.index ?? 0) + (m[1] as string).length;
    const before = text.slice(0, at);
    const after = text.slice(at + name.length);
    if (!header && /(^|[\s;&|(])for\s+$/.test(before)) {
      header = true;
      continue;
    }
    if (before.endsWith('$') && !before.endsWith('\\$')) continue;
    if (before.endsWith('${') && !/^(:?=|\[)/.test(after)) continue;
    return false;
  }
  return header;
}

/** A pipeline that is one plain `cd` or `pushd` (its status is the cd's own). */
function isCd(pipeline: Pipeline): boolean {
  const command = pipeline.commands[0];
  if (pipeline.commands.length !== 1 || pipeline.negated || pipeline.background || command?.type !== 'simple')
    return false;
  const first = command.words[0]?.parts;
  return first?.length === 1 && first[0]?.kind === 'lit' && /^(cd|pushd)$/.test(first[0].text);
}

/** Programs that run the command they are given later or more than once (a trap at exit, each input line, a session). */
const DEFERRING = /^(trap|xargs|parallel|watch|find|entr|at|batch|tmux|screen|systemd-run|<\(\))\b/;

/**
 * Via entries that start the command apart from the call, to run on after it returns or later:
 * nohup and setsid (with `&` or `-f`, and a hangup that does not stop it), at/batch jobs,
 * systemd-run units, tmux and screen sessions, daemonizing wrappers.
 */
const DETACHING = /^(nohup|setsid|at|batch|systemd-run|tmux|screen|daemonize|daemon|start-stop-daemon)\b/;

/** `git-reset`, `git-lfs`: git's commands as the programs git itself runs. */
const DASHED_GIT = /^git-([a-z0-9][a-z0-9-]*)$/;
/** A program named (static, found on PATH: not `./ls`) whose options can do no harm, whatever a glob expands to. */
const optionInert = (word: string, unresolved: boolean | undefined): boolean =>
  !unresolved && !word.includes('/') && OPTION_INERT.has(normalizeProgram(word));
/** Arguments of an unknown program read as command lines (each one a quiet parse). */
const MAX_COMMAND_ARGS = 8;
/**
 * Programs whose command-line arguments name a command without running it: the gate's own CLI
 * (`tollgate predict --for 'git push --force origin main'` files a prediction about that call).
 * What `tollgate run -- CMD` runs is still read, by the wrapper rule after `--`.
 */
const NAMES_COMMANDS = new Set(['tollgate']);
/** Devices output is thrown into or passed on by: writing them changes no file. */
const SINK_PATH = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;
const MAX_EXPANSION = 1000;
const MAX_HOPS = 24;
const TEXT_CAP = 2000;

export class Extractor {
  readonly segments: ShellSegment[] = [];
  readonly dynamic: DynamicConstruct[] = [];
  /**
   * Functions the command defines, by name (every definition: which one a branch leaves in place is
   * not told), and those being walked for a call, with the pipeline depth the call entered at
   * (recursion stops there).
   */
  private readonly functions = new Map<string, Script[]>();
  private readonly calling = new Map<string, number>();

  constructor(
    readonly budget: Budget,
    private readonly handlers: Record<string, Handler>,
    private readonly fallbacks: { interpreter: Handler; database: Handler; shell: Handler },
    /** Resolution state shared by every extractor of one parse. */
    readonly res: Resolver,
  ) {}

  /**
   * `inherited`: the stdin the script's commands share when they run inside another command (a
   * `sh -c` string, eval, a `{ …; }` or loop body): `curl … | bash -c bash` runs what it downloads.
   */
  walkScript(script: Script, env: Env, via: string[], inherited?: Stdin): void {
    const outer = this.at;
    /** Where the shell would be had a `cd X` before `&&` failed: only once that and-or run ends. */
    let unlessCd: { dirs: string[] | null } | undefined;
    for (let index = 0; index < script.pipelines.length; index++) {
      const pipeline = script.pipelines[index] as Pipeline;
      if (unlessCd !== undefined && pipeline.joined !== '&&') {
        this.res.mergeDirs(unlessCd.dirs);
        unlessCd = undefined;
      }
      this.at = { script, index };
      // `cd X && cmd`: cmd runs only if the cd succeeded, so only in X.
      // Not a cd after `||` (it may be skipped), `pushd -n` (it moves nothing), or with cdable_vars.
      const sureCd =
        isCd(pipeline) &&
        pipeline.joined !== '||' &&
        script.pipelines[index + 1]?.joined === '&&' &&
        this.res.dirs !== null &&
        !this.res.texts.some((t) => /cdable_vars|\bpushd\s+(-\S*\s+)*-n\b/.test(t));
      const before = sureCd ? this.res.dirs : null;
      if (sureCd) this.res.lastCd = undefined;
      // A background job, and the commands of a pipeline, run alongside what follows them.
      const alongside = pipeline.background === true || pipeline.commands.length > 1;
      if (alongside) {
        this.deferred++;
        this.alongside++;
      }
      if (pipeline.background === true) this.res.background++;
      const maybe = alongside || pipeline.joined !== undefined;
      if (maybe) this.unsure++;
      let previous: Command | undefined;
      let printed: FindCleanup | undefined;
      for (const [k, command] of pipeline.commands.entries()) {
        let stdin: Stdin | undefined = inherited;
        if (previous) {
          const text = commandOutput(previous, env, this.res);
          stdin = text === null ? { from: 'pipe-dynamic' } : { text, from: 'pipe' };
          if (printed) stdin.found = printed;
        }
        const first = this.segments.length;
        const set = this.walkCommand(command, env, via, stdin);
        // `exec < FILE` alone: the shell's own stdin, which every later command inherits.
        if (set && pipeline.commands.length === 1) inherited = set;
        previous = command;
        // Only a plain find, all of whose output is the names (no redirection, no `|&`), hands them on.
        const alone =
          command.type === 'simple' &&
          command.redirects.length === 0 &&
          !pipeline.stderrPiped?.includes(k) &&
          this.segments.length === first + 1;
        printed = alone ? printedClean(this.segments[first] as ShellSegment) : undefined;
      }
      if (alongside) {
        this.deferred--;
        this.alongside--;
      }
      if (pipeline.background === true) this.res.background--;
      if (maybe) this.unsure--;
      const moved = this.res.lastCd;
      if (sureCd && moved !== undefined && before !== null) {
        const prior = unlessCd === undefined ? [] : unlessCd.dirs;
        unlessCd = { dirs: prior === null ? null : [...prior, ...before] };
        this.res.dirs = moved.targets;
      }
    }
    if (unlessCd !== undefined) this.res.mergeDirs(unlessCd.dirs);
    this.at = outer;
  }

  /** Depth of code that may run again, or later, than where it is written (loops, functions, jobs). */
  private deferred = 0;
  /** Depth of pipelines and background jobs being walked: what runs there runs as a process of its own. */
  private alongside = 0;

  /** An extractor for what another program runs, when and as often as it likes: out of order. */
  private nested(): Extractor {
    const inner = new Extractor(this.budget, this.handlers, this.fallbacks, this.res);
    inner.deferred = this.deferred + 1;
    return inner;
  }
  /**
   * Above 0 while the walk is somewhere the shell may not run, or runs elsewhere: after && or ||, in
   * a pipeline or background job, a compound's body, a substitution, a function's body.
   */
  private unsure = 0;

  /**
   * A `for` loop's environments, one per value of its list, where the list is static (globs expanded
   * here), short, and holds plain values, and the loop's text uses the variable only as `$NAME` or
   * `${NAME}` (nothing in it assigns the name again); undefined otherwise (the variable stays unknown).
   */
  private loopValues(command: CompoundCommand, name: string, env: Env): Env[] | undefined {
    if (command.words.length === 0 || !onlyRead(name, command.text)) return undefined;
    // Anything that may assign the name out of sight (a function, a sourced file, eval, a trap, a
    // nameref, arithmetic, printf -v, read): the variable stays unknown.
    if (this.res.texts.some((t) => HIDDEN_ASSIGNMENT.test(t))) return undefined;
    const values: string[] = [];
    for (const word of command.words) {
      let each: Word[];
      try {
        each = braceExpand(word, MAX_LOOP_VALUES + 1);
      } catch {
        return undefined;
      }
      for (const one of each) {
        const expanded = expandWord(one, env, this.res);
        if (expanded.unresolved) return undefined;
        for (const [k, value] of expanded.values.entries()) {
          const pattern = expanded.patterns?.[k];
          const matches = pattern ? this.res.glob(pattern) : undefined;
          if (pattern && matches === undefined && this.res.files) return undefined;
          // A glob over a directory this command has written in already may find what it wrote.
          if (pattern && this.writesUnder(posix.dirname(pattern))) return undefined;
          // Without a file view a glob stays as written: a path of the project all the same.
          if (matches === undefined && /[*?[\]]/.test(value) && !pattern) return undefined;
          values.push(...(matches !== undefined && matches.length > 0 ? matches : [value]));
        }
      }
    }
    if (values.length === 0 || values.length > MAX_LOOP_VALUES || values.some((v) => /\s/.test(v)))
      return undefined;
    return values.map((value) => ({ ...env, loop: new Map([...(env.loop ?? []), [name, value]]) }));
  }

  /** Whether a segment so far writes in `dir` (as written, relative to the command), or somewhere unknown. */
  private writesUnder(dir: string): boolean {
    const { paths } = this.res.paths(dir === '' ? '.' : dir);
    return this.segments.some(
      (s) =>
        s.writes_unresolved === true ||
        (s.writes ?? []).some((w) => paths.some((p) => posix.dirname(w) === p || w.startsWith(`${p}/`))),
    );
  }

  /** Depth of `(( … ))` bodies being walked (read as commands for their substitutions only). */
  private arithmetic = 0;

  /** The pipeline being walked, in its script (git-switch.ts tells which commands must have succeeded). */
  at: PipelineAt | undefined;

  /**
   * A call of a function the command defines, with the call's stdin (`f < s.sh`, `… | f`): its
   * bodies are walked again, as the call runs them (a call written before the definition included).
   */
  private callFunction(name: string, inv: Invocation, env: Env): void {
    const bodies = this.functions.get(name);
    if (!bodies) return;
    const entered = this.calling.get(name);
    if (entered !== undefined) {
      // `:(){ :|:& };:`: a function that calls itself as a process of its own (in a pipeline or a
      // job inside its own body) multiplies processes until the machine can start no more.
      if (this.alongside > entered) this.flag('fork_bomb', inv.text);
      return;
    }
    this.calling.set(name, this.alongside);
    this.deferred++;
    // The body sees the call's words as $1, $2, … (`run() { "$@"; }; run npm publish`).
    const params = inv.argv.map((word, k) => (inv.unresolved[k] ? null : word));
    const inner: Env = { ...env, params };
    this.unsure++;
    for (const body of bodies) this.walkScript(body, inner, [...inv.via, `${name}()`], inv.stdin);
    this.unsure--;
    // The function runs in this shell: IFS it sets stays set.
    if (inner.ifs === null) env.ifs = null;
    this.deferred--;
    this.calling.delete(name);
  }

  /** Walk one command; returns the stdin an `exec` with only redirections gives the rest of the script. */
  private walkCommand(
    command: Command,
    env: Env,
    via: string[],
    stdin: Stdin | undefined,
  ): Stdin | undefined {
    tick(this.budget);
    for (const redirect of command.redirects) {
      this.walkRedirectSubs(redirect, env, via);
      // `exec {TMPDIR}>/dev/null`: TMPDIR now holds a descriptor's number, a path relative to here.
      if (redirect.fdName !== undefined) {
        this.res.assign(redirect.fdName);
        if (steeringName(redirect.fdName)) this.flag('dynamic_name', command.text);
      }
    }
    if (command.type === 'compound') {
      const repeats = command.repeats === true || command.defines !== undefined;
      if (command.defines !== undefined && command.body[0]) {
        const known = this.functions.get(command.defines) ?? [];
        this.functions.set(command.defines, [...known, command.body[0]]);
      }
      for (const word of command.words) this.walkWordSubs(word, env, via);
      if (command.assigns !== undefined) {
        this.res.assign(command.assigns);
        this.noteLoopValues(command, command.assigns);
        // `for PATH in bin:/usr/bin; do git status; done`: a loop may set what steers every command.
        if (steeringName(command.assigns)) this.flag('dynamic_name', command.text);
      }
      if (command.kind === 'arith') this.res.scanText(command.text);
      // `((IFS=1))`: arithmetic may assign IFS too.
      if (command.kind === 'arith' && /\bIFS\b/.test(command.text)) env.ifs = null;
      // `(( x = 'a[$(…)]' ))`, `[[ 'a[$(…)]' -eq 0 ]]`: a subscript bash evaluates, and its `$(…)` runs.
      if (command.kind === 'arith' || command.text.startsWith('[['))
        checkArithmeticWord(this, command.text, command.text);
      if (command.arith !== undefined) this.checkArithmetic(command.arith, command.text);
      if (command.text.startsWith('[['))
        this.checkTestOperands(
          command.words.map((w) => w.raw),
          command.text,
        );
      const inner = command.kind === 'arith' ? [...via, '(( ))'] : via;
      const writes: WriteSet = { paths: [], unresolved: false };
      const redirects = command.redirects.map((r) => this.redirect(r, env, writes));
      const input =
        command.kind === 'arith' ? undefined : (this.ownStdin(command.redirects, redirects, env) ?? stdin);
      if (repeats) this.deferred++;
      // Arithmetic read as commands: `*` there is multiplication, not a glob.
      if (command.kind === 'arith') this.arithmetic++;
      // `for f in a.ts src/*.ts; do …"$f"…; done`: the body once per value, where the list is known.
      const bound =
        command.assigns === undefined ? undefined : this.loopValues(command, command.assigns, env);
      // A subshell's `cd` is its own: the shell around it stays where it was.
      const outside = command.kind === 'subshell' ? this.res.dirs : undefined;
      this.unsure++;
      for (const each of bound ?? [env])
        for (const body of command.body) this.walkScript(body, each, inner, input);
      this.unsure--;
      if (outside !== undefined) this.res.dirs = outside;
      if (command.kind === 'arith') this.arithmetic--;
      if (repeats) this.deferred--;
      if (command.kind !== 'arith' && (writes.paths.length > 0 || writes.unresolved)) {
        this.emit({ argv: [], unresolved: [], assignments: [], redirects, text: command.text, via, writes });
      }
      return;
    }
    for (const word of command.assigns) this.walkWordSubs(word, env, via);
    for (const word of command.words) this.walkWordSubs(word, env, via);
    const assigned = command.assigns.map((w) => this.assignment(w, env));
    const assignments = assigned.map((a) => a.text);
    // `IFS=,` on its own, run for sure in this shell, sets the separators; set where this walk cannot
    // tell whether or where it runs (`false && IFS=`, `(IFS=)`, a function), splitting is unknown.
    // A prefix assignment before a special builtin stays in POSIX shells (`IFS=: :`), and one before a
    // function is what its body sees: where they land is not told either.
    if (command.words.length > 0 && assignments.some((a) => /^IFS\+?=/.test(a))) {
      const head = command.words[0]?.parts.map((p) => (p.kind === 'lit' ? p.text : '$')).join('') ?? '';
      if (SPECIAL_BUILTINS.has(head) || this.functions.has(head)) env.ifs = null;
    }
    if (command.words.length === 0) {
      for (const [k, a] of assignments.entries()) {
        const m = /^IFS(\+?)=(.*)$/s.exec(a);
        if (!m) continue;
        if (this.unsure > 0 || env.ifs === null || assigned[k]?.unresolved) env.ifs = null;
        else env.ifs = m[1] ? env.ifs + (m[2] as string) : (m[2] as string);
      }
    }
    const { argv, unresolved, fixed, single } = this.expandWords(command.words, env, command.text);
    if (argv.length > command.words.length + MAX_EXPANSION) {
      this.flag('limit', `${command.text.slice(0, 200)} (expands to more than ${MAX_EXPANSION} extra words)`);
    }
    const head = command.words[0];
    if (head?.escaped) this.flag('escaped_program', command.text);
    if (head && isQuotedCommandLine(head)) {
      // A whole command line quoted as one word: no such program exists, but it reads as intent.
      // Read it as lines and as one line.
      const line = argv[0] as string;
      this.parseString(line, [...via, 'quoted'], env, true);
      if (line.includes('\n')) this.parseString(line.replace(/\n/g, ' '), [...via, 'quoted'], env, true);
    }
    const writes: WriteSet = { paths: [], unresolved: false };
    const redirects = command.redirects.map((r) => this.redirect(r, env, writes));
    const own = this.ownStdin(command.redirects, redirects, env);
    const inv: Invocation = {
      argv,
      unresolved,
      assignments,
      redirects,
      text: command.text,
      via,
      writes,
      temp: this.res.tempDir(),
    };
    if (fixed) inv.fixed = fixed;
    if (single) inv.single = single;
    const input = own ?? stdin;
    if (input) inv.stdin = input;
    // Words and redirections were expanded with the values before these assignments; what runs
    // next (the command's own `sh -c` string included) sees them.
    for (const a of assigned) checkAssignment(this, a.text, a.unresolved, command.text, argv[0]);
    this.resolve(inv, env);
    this.noteStaticWrite(command, env, inv);
    return argv.length === 1 && argv[0] === 'exec' ? own : undefined;
  }

  /** Peel prefixes and dispatch to the handler of the program. */
  resolve(start: Invocation, env: Env): void {
    let inv = start;
    for (let hop = 0; hop < MAX_HOPS; hop++) {
      tick(this.budget);
      const first = inv.argv[0];
      if (first === undefined) {
        if (inv.redirects.length > 0 || inv.assignments.length > 0) this.emit(inv);
        return;
      }
      if (inv.unresolved[0]) {
        this.flag('substitution_in_command_position', inv.text);
        this.emit(inv);
        return;
      }
      // A glob that could not be expanded in command position could run any file.
      if (this.res.isUnresolvedGlob(first)) this.flag('unresolved_glob', inv.text);
      // A function the command defines runs first (bash finds functions before programs), here
      // after any prefix (`time f`): its bodies, then the word as a program too.
      this.callFunction(first, inv, env);
      const program = normalizeProgram(first);
      // A program named by a path is that file, whatever its name (`./bin/git`, `tools/../bin/npm`):
      // read and judged as the script it may be, and its words as that program's too.
      if (first.includes('/')) runPathProgram(this, inv, first);
      // A bare name is the file PATH finds for it: one in the project is judged as that path would be.
      else runFoundProgram(this, inv, first);
      // `git-reset --hard`, /usr/libexec/git-core/git-push: git runs `git X` as its program git-X.
      const dashed = DASHED_GIT.exec(program);
      if (dashed) {
        inv = {
          ...inv,
          argv: ['git', dashed[1] as string, ...inv.argv.slice(1)],
          unresolved: [false, false, ...inv.unresolved.slice(1)],
        };
        continue;
      }
      // Own properties only: a program named `constructor` is not Object's.
      if (Object.hasOwn(EFFECTS, program)) EFFECTS[program]?.(this, inv, env);
      const handler = Object.hasOwn(this.handlers, program) ? this.handlers[program] : undefined;
      if (handler) {
        handler(this, inv, env, program);
        return;
      }
      if (isPrefix(program)) {
        const inner = unwrapPrefix(program, inv);
        if (!inner) {
          this.emit(inv);
          return;
        }
        for (const a of inner.assignments)
          checkAssignment(this, a, false, inv.text, inner.argv[0] ?? program);
        // `time -o FILE cmd`: a prefix whose own words write a file (its write model says so) is a
        // segment of its own, judged for that write.
        const ownWords = inv.argv.length - inner.argv.length;
        const own = { argv: inv.argv.slice(0, ownWords), unresolved: inv.unresolved.slice(0, ownWords) };
        const ownWrites = programWrites(program, own.argv, own.unresolved, this.res, inv.temp ?? null);
        if (ownWrites.paths.length > 0 || ownWrites.unresolved) this.emit({ ...inv, ...own });
        inv = {
          ...inv,
          argv: inner.argv,
          unresolved: inner.unresolved,
          assignments: [...inv.assignments, ...inner.assignments],
          via: [...inv.via, program],
        };
        if (inner.cwd !== undefined) {
          // `env -C DIR cmd`: the command, and only it, starts in DIR.
          const next = inv;
          enter(this.budget);
          this.res.inDirectory(inner.cwd, () => this.resolve(next, env));
          leave(this.budget);
          return;
        }
        continue;
      }
      if (SHELLS.has(program)) {
        this.fallbacks.shell(this, inv, env, program);
        return;
      }
      if (interpreterLanguage(program)) {
        this.fallbacks.interpreter(this, inv, env, program);
        return;
      }
      if (databaseClient(program)) {
        this.fallbacks.database(this, inv, env, program);
        return;
      }
      const ranPackage = runsFiles(this, inv, env, program);
      if (!ranPackage && !DATA_STDIN.has(program)) this.unknownProgram(inv, env, program);
      // SQL a cloud or service CLI sends (aws athena, wrangler d1 execute) is judged as a client's is.
      const sql = serviceSql(this, inv, program);
      this.emit(inv, sql?.payload !== undefined ? { payload: sql.payload } : undefined);
      const segment = this.segments[this.segments.length - 1];
      if (sql && segment) segment.sql = sql.facts;
      return;
    }
    this.flag('limit', inv.text);
  }

  /**
   * What the gate's own CLI runs: `tollgate observe|run --command STR` runs STR through `sh -c`, and
   * `-- CMD…` runs CMD (one word holding a blank through `sh -c`), as its argv parser reads them
   * (cli/src/args.ts: exact long options, `--opt=value` or `--opt value`, `--` ends them). The other
   * subcommands only name a command (`predict --for STR`): nothing of it runs.
   */
  private gateRuns(inv: Invocation, env: Env, program: string): boolean {
    const via = [...inv.via, program];
    // The subcommand is the first word, always (cli/src/main.ts).
    const sub = inv.argv[1];
    if (sub !== 'observe' && sub !== 'run') return false;
    for (let k = 2; k < inv.argv.length; k++) {
      const word = inv.argv[k] as string;
      if (word === '--') {
        const rest = inv.argv.slice(k + 1);
        if (rest.length === 1 && /\s/.test(rest[0] as string)) this.gateString(inv, k + 1, via, env);
        else if (rest.length > 0)
          this.resolve({ ...inv, argv: rest, unresolved: inv.unresolved.slice(k + 1), via }, env);
        return true;
      }
      const named = /^--command(=|$)/.exec(word);
      if (named) {
        if (named[1] === '=') this.gateString(inv, k, via, env, word.slice('--command='.length));
        else this.gateString(inv, ++k, via, env);
      }
    }
    return true;
  }

  /** A command line the gate's CLI runs through `sh -c` (argv[k], or `text` taken from it). */
  private gateString(inv: Invocation, k: number, via: string[], env: Env, text = inv.argv[k]): void {
    if (text === undefined) return;
    if (inv.unresolved[k]) this.flag('unresolved_code', inv.text);
    else this.parseString(text, via, env);
  }

  /**
   * An unknown program may be a wrapper (`doppler run -- CMD`, `tool git …`) or a shell in disguise
   * reading a heredoc: read a known program among its first words, and the heredoc body, as commands.
   */
  private unknownProgram(inv: Invocation, env: Env, program: string): void {
    this.heredocAsCommands(inv, program);
    if (NAMES_COMMANDS.has(program) && this.gateRuns(inv, env, program)) return;
    // An argument that is a whole command line (`retry 'git reset --hard'`, `s = 'mkfs /dev/sda1'`
    // read from a heredoc): a program we do not know may run it as `sh -c` would. Only a line that
    // starts with a program this package models: prose (`--notes "example: git reset --hard"`) is not.
    let lines = 0;
    for (let k = 1; k < inv.argv.length && lines < MAX_COMMAND_ARGS && !NAMES_COMMANDS.has(program); k++) {
      // `tool --command="rm -rf data"`: an option's value may be the command line too.
      const given = inv.argv[k] as string;
      const word = /^--?[\w-]+=/.test(given) ? given.slice(given.indexOf('=') + 1) : given;
      if (inv.unresolved[k] || !/\S\s+\S/.test(word)) continue;
      if (!this.modelled(normalizeProgram(word.trimStart().split(/\s/, 1)[0] ?? ''))) continue;
      lines++;
      this.parseString(word, [...inv.via, program], env, true);
    }
    // A file tool's operands are files, never a program it runs (`cp truncate backup` copies a file).
    if (OPERATES_ON_FILES.has(program)) return;
    let seen = 0;
    for (let k = 1; k < inv.argv.length && seen < 4; k++) {
      const word = inv.argv[k] as string;
      if (word.startsWith('-')) continue;
      // After `--` a wrapper's command starts (`retry -t 3 -- dropdb prod`), however far in.
      if (inv.argv[k - 1] === '--') seen = 0;
      seen++;
      // A program is named by its name or by a path to it; `@types/node` is a package, not node.
      if (word.includes('/') && !/^(\/|\.\.?\/|~\/)/.test(word)) continue;
      // A path to a file the kernel would run (`strace -o log ./deploy.sh`, `fakeroot ./build`): the
      // wrapper runs it, and it is judged as that program, its script read (scripts.ts).
      if (
        word.includes('/') &&
        !inv.unresolved[k] &&
        !INSPECTS_PROGRAMS.has(program) &&
        this.executable(word)
      ) {
        this.wrapped(inv, env, program, k);
        return;
      }
      const name = normalizeProgram(word);
      // `rm` is also a common subcommand (`gsutil rm`, `npm rm`): read it first, or right after `--`
      // or an option (`strace -o /dev/null -f rm -rf ~`).
      const commandPosition = seen === 1 || (inv.argv[k - 1] as string).startsWith('-');
      // An interpreter's name is also a package, a version or a tool's subject (`brew install python
      // node`, `which node`, `uv python install`): it runs only given code or a script.
      // Right after `--`, or last with something on stdin (`printf … | nerdctl exec -i c -- sh`), it runs.
      const runs = inv.argv[k - 1] === '--' || (k === inv.argv.length - 1 && inv.stdin !== undefined);
      if (
        WRAPPED_INTERPRETERS.has(name) &&
        !runs &&
        !givenCode(inv.argv[k + 1]) &&
        !this.isFile(inv.argv[k + 1])
      )
        continue;
      const destroys = WRAPPED.has(name) || /^mkfs(\.|$)/.test(name) || (name === 'rm' && commandPosition);
      if (!inv.unresolved[k] && destroys) {
        this.wrapped(inv, env, program, k);
        return;
      }
    }
  }

  /** An unknown program's words from `k` on, judged as the command it runs. */
  private wrapped(inv: Invocation, env: Env, program: string, k: number): void {
    const inner = this.nested();
    inner.resolve(
      {
        ...inv,
        argv: inv.argv.slice(k),
        unresolved: inv.unresolved.slice(k),
        via: [...inv.via, program],
      },
      env,
    );
    this.segments.push(...inner.segments);
    // A known program in a command's place runs as itself: what cannot be read in it counts.
    for (const d of inner.dynamic) this.flag(d.kind, d.text);
  }

  /** Whether a word names an executable file where the command runs (FileView.executable). */
  private executable(word: string): boolean {
    const files = this.res.files;
    if (files?.executable === undefined) return false;
    const { paths, unresolved } = this.res.paths(word);
    return !unresolved && paths.some((p) => files.executable?.(p) === true);
  }

  /**
   * Whether a word names a file where the command runs (`strace -f bash setup` runs ./setup). Without
   * a file view any word may: the interpreter is read as running it.
   */
  private isFile(word: string | undefined): boolean {
    if (word === undefined || word === '') return false;
    if (!this.res.files) return true;
    const { paths, unresolved } = this.res.paths(word);
    return unresolved || paths.some((p) => this.res.files?.realpath(p) !== undefined);
  }

  /** Whether the file view shows no entry at this absolute path (a dangling link is an entry). */
  private absent(path: string): boolean {
    const files = this.res.files;
    return files !== undefined && path.startsWith('/') && isAbsent(files, path);
  }

  /** A program whose behaviour this package models: a handler, a wrapper, a shell, or a writer. */
  private modelled(name: string): boolean {
    return (
      Object.hasOwn(this.handlers, name) ||
      WRAPPED.has(name) ||
      /^mkfs(\.|$)/.test(name) ||
      SHELLS.has(name) ||
      writeModel(name) !== undefined
    );
  }

  /**
   * A heredoc fed to a program that may run what it reads (an unknown program, a script file we do
   * not read here): its body is read as commands, quietly (prose that does not parse adds nothing).
   * Not a here-string or piped text: a one-line message (`echo "feat: delete x" | commitlint`) is
   * prose far more often than a script.
   */
  heredocAsCommands(inv: Invocation, program: string): void {
    if (inv.stdin?.from === 'heredoc' && inv.stdin.text !== undefined) {
      this.parseString(inv.stdin.text, [...inv.via, `${program} <<heredoc`], { ifs: ' \t\n' }, true);
    }
  }

  emit(inv: Invocation, extra?: { payload?: string; config?: string[]; argv?: string[] }): void {
    if (this.segments.length >= MAX_SEGMENTS)
      throw new LimitExceeded(`more than ${MAX_SEGMENTS} simple commands`);
    // A word bash may evaluate as arithmetic (`test -v`, `declare -i`, `let`, `unset 'a[…]'`): only
    // the shell's own builtins do; another program's data (`aws --query '…[?x==`1`]'`) is not code.
    // An arithmetic expansion left as written (`$(( 'a[$(…)]' ))`) is evaluated whatever the program.
    const builtin = ARITHMETIC_BUILTINS.has(normalizeProgram(inv.argv[0] ?? ''));
    for (const word of inv.argv)
      if (builtin || word.includes('$((') || word.includes('$[')) checkArithmeticWord(this, word, inv.text);
    // `test -v NAME`: NAME's subscript is evaluated.
    if (/^(test|\[)$/.test(inv.argv[0] ?? ''))
      for (const [k, word] of inv.argv.entries())
        if (word === '-v' && inv.argv[k + 1] !== undefined)
          this.checkArithmetic(inv.argv[k + 1] as string, inv.text);
    const segment = buildSegment({
      argv: extra?.argv ?? inv.argv,
      unresolved: inv.unresolved.some(Boolean),
      // The invocation's own words, also where an alias rewrote the argv (it adds static words only).
      unresolvedOpen: inv.unresolved.some((u, k) => u && !inv.fixed?.has(inv.argv[k] as string)),
      text: cap(inv.text),
      via: inv.via,
      assignments: inv.assignments,
      redirects: inv.redirects,
      stdin: inv.stdin?.text === undefined ? undefined : cap(inv.stdin.text),
      stdinFrom: inv.stdin?.from,
      payload: extra?.payload,
      config: extra?.config,
    });
    let paths = inv.writes?.paths ?? [];
    let unresolved = inv.writes?.unresolved ?? false;
    let own: ReturnType<typeof programWrites> | undefined;
    // A rewritten argv (git aliases) no longer lines up with the unresolved flags: only redirections count.
    if (!extra?.argv) {
      own = programWrites(segment.program, inv.argv, inv.unresolved, this.res, inv.temp ?? null);
      if (own.paths.length > 0) paths = [...new Set([...paths, ...own.paths])];
      if (own.unresolved) unresolved = true;
      if (own.moved) segment.moves = [...new Set(own.moved)];
      // A link made here changes what later paths through it name (resolve.ts follows it).
      for (const link of own.links ?? []) this.res.noteLink(link.path, link.target);
      if (own.paths.length > 0 && writesTrees(segment)) segment.writes_trees = true;
    }
    // A copy: handlers emit several segments from one invocation.
    segment.writes = paths.length > 0 ? [...paths] : [];
    segment.writes_unresolved = unresolved;
    // Written later than the call is decided: core keeps such a write unread whatever is read after.
    if (
      (paths.length > 0 || unresolved) &&
      (this.res.background > 0 || segment.via.some((v) => DETACHING.test(v)))
    )
      segment.writes_async = true;
    noteMovesInto(segment, this.res);
    // rm -r of what a build makes again (build-outputs.ts); the ignore files it read are listed, so
    // that one the session wrote, or this command writes, is refused as a script would be.
    // Its redirections are judged by their own rules (`2>/dev/null`, `> log`).
    if (
      own !== undefined &&
      REMOVERS.has(segment.program) &&
      own.paths.length > 0 &&
      !own.unresolved &&
      this.res.files &&
      !this.res.folded
    ) {
      const outputs = buildOutputs(this.res.files, own.paths, segment.program === 'rm');
      if (outputs !== undefined) markBuildOutputs(segment, own.paths, outputs);
    }
    // A file it deletes, or whose contents it replaces whole, that git cannot give back (core keeps
    // those the session did not write).
    // And what it writes under a temp directory's name but resolves into the work tree, or out of
    // the temp directories through a link: the catalogue's scratch exemptions do not hold (scratch.ts).
    if (this.res.files && !this.res.folded) {
      noteLosses(this.res.files, segment, replacedFiles(segment, own, inv.writes));
      // A tree copied over one that is there: the files of the same name below it are replaced.
      if (own?.mirrors && !own.unresolved && segment.writes_trees && !keepsDestination(segment)) {
        const mirrored = mirroredFiles(this.res.files, own.mirrors);
        if (mirrored === 'limit')
          this.flag('limit', `${inv.text.slice(0, 200)} (a tree copied over too many files to tell)`);
        else noteLosses(this.res.files, segment, mirrored);
      }
      if (own?.paths.some((p) => p.startsWith('/') && notScratch(this.res, p)))
        segment.writes_beyond_scratch = true;
    }
    // Every file it writes is new (`cp .env.example .env` where there is no .env yet): nothing is lost.
    // Output thrown away (`2>/dev/null`) writes no file.
    const files = paths.filter((p) => !SINK_PATH.test(p));
    if (files.length > 0 && !unresolved && files.every((p) => this.absent(p))) segment.creates_only = true;
    if (this.res.ctx && segment.argv0 !== '') {
      const file = this.res.program(segment.argv0);
      if (file !== undefined) segment.resolved_program = file;
    }
    // Data leaving the machine: network clients only (one lookup), and bash's /dev/tcp redirections.
    if (isNetProgram(segment.program) || segment.redirects.length > 0 || segment.assignments.length > 0) {
      const texts = this.res.texts;
      const egress = egressOf(segment, {
        rerouted: () => texts.some((t) => REROUTING_TEXT.test(t)),
        outputNames: () => {
          // Texts parsed later (`sh -c` strings) may assign more.
          const known = this.res.slot(OUTPUT_NAMES, () => ({ count: -1, names: new Set<string>() }));
          if (known.count !== texts.length)
            Object.assign(known, { count: texts.length, names: outputVariables(texts) });
          return known.names;
        },
        proxiedOutput: () => texts.some((t) => PROXY_OUTPUT_TEXT.test(t)),
      });
      if (egress) segment.egress = egress;
    }
    this.segments.push(segment);
    const moves = movesHead(segment);
    if (!this.res.headMayMove && moves) this.res.headMayMove = true;
    // A switch or a push that may run out of the text's order (facts.ts walks again then).
    const outOfOrder = this.deferred > 0 || segment.via.some((v) => DEFERRING.test(v));
    noteOrder(segment, this.res, !outOfOrder);
    if (outOfOrder && moves) this.res.order.moverDeferred = true;
    if (outOfOrder && segment.program === 'git' && segment.subcommand === 'push')
      this.res.order.pushDeferred = true;
    // EDITOR=, PAGER=, GIT_SSH_COMMAND=, … set for (or exported by) this command are commands it may run.
    assignedCommands(this, inv, segment.program);
    packageManagerConfig(this, inv, segment.program);
    commandValuedOptions(this, inv, segment.program);
    noteLoadedFiles(this, inv, segment.program);
  }

  /** Brace, parameter and pathname expansion of a simple command's words. */
  private expandWords(
    words: Word[],
    env: Env,
    text: string,
  ): { argv: string[]; unresolved: boolean[]; fixed?: Set<string>; single?: Set<string> } {
    const argv: string[] = [];
    const unresolved: boolean[] = [];
    let fixed: Set<string> | undefined;
    let single: Set<string> | undefined;
    let options = true;
    for (const word of words) {
      let each: Word[];
      try {
        each = braceExpand(word, MAX_BRACE_WORDS);
      } catch (error) {
        if (!(error instanceof BraceLimit)) throw error;
        this.flag('limit', `${text.slice(0, 200)} (${error.message})`);
        each = [word];
      }
      for (const one of each) {
        const expanded = expandWord(one, env, this.res);
        for (const [k, value] of expanded.values.entries()) {
          const pattern = expanded.patterns?.[k];
          const matches = pattern ? this.res.glob(pattern) : [];
          if (pattern && matches === undefined) {
            this.res.unresolvedGlobs.add(value);
            // Unexpanded, it could be any file name, an option (`-rf`) included.
            if (
              options &&
              this.arithmetic === 0 &&
              argv.length > 0 &&
              /^[-*?[]/.test(value) &&
              !optionInert(argv[0] as string, unresolved[0])
            )
              this.flag('unresolved_glob', text);
          }
          if (matches && matches.length > 0) {
            for (const match of matches) {
              argv.push(match);
              unresolved.push(false);
            }
          } else {
            argv.push(value);
            unresolved.push(expanded.unresolved);
            if (expanded.unresolved && oneWord(one)) {
              single ??= new Set();
              single.add(value);
              if (fixedShape(one)) {
                fixed ??= new Set();
                fixed.add(value);
              }
            }
          }
          if (value === '--' && !expanded.unresolved) options = false;
        }
      }
    }
    return { argv, unresolved, ...(fixed ? { fixed } : {}), ...(single ? { single } : {}) };
  }

  /** `name=value` as expanded; `name=(a b)` for an array. */
  private assignment(word: Word, env: Env): { text: string; unresolved: boolean } {
    const value = expandWord(word, env, this.res);
    let text = value.values.join(' ');
    let unresolved = value.unresolved;
    if (word.array) {
      const elements = word.array.map((w) => expandWord(w, env, this.res));
      text += `(${elements.map((e) => e.values.join(' ')).join(' ')})`;
      unresolved ||= elements.some((e) => e.unresolved);
    }
    return { text, unresolved };
  }

  /**
   * Text bash evaluates as arithmetic: a substitution in it runs (whatever quotes surround it, unless
   * it only prints a number), and a variable it reads is evaluated in turn (see ArithmeticFlow).
   */
  checkArithmetic(text: string, source: string): void {
    if (arithmeticCode(text)) this.flag('arithmetic_substitution', source);
    for (const name of arithmeticNames(text)) this.res.arithmetic.use(name, source);
  }

  /** A `$((…))` or `${…}`: its subscripts and offsets are arithmetic, and `${!x}` evaluates x's value as a name. */
  private checkExpansion(src: string): void {
    for (const text of arithmeticTexts(src)) this.checkArithmetic(text, src);
    for (const name of indirectNames(src)) this.res.arithmetic.use(name, src);
    // `${x:=$(cat f)}` assigns x the output.
    const assigned = /^\$\{([A-Za-z_]\w*):?=/.exec(src);
    if (assigned && unshownValue(src.slice(assigned[0].length)))
      this.res.arithmetic.unknown(assigned[1] as string, src);
  }

  /** `[[ A -eq B ]]` (and -ne, -lt, …) evaluates both operands as arithmetic; `-v NAME` its subscript. */
  private checkTestOperands(words: string[], source: string): void {
    for (const [k, word] of words.entries()) {
      const operands = ARITHMETIC_TEST.test(word)
        ? [words[k - 1], words[k + 1]]
        : word === '-v'
          ? [words[k + 1]]
          : [];
      for (const operand of operands) if (operand !== undefined) this.checkArithmetic(operand, source);
    }
  }

  /** A loop over words the command does not show (a substitution's output, file names a glob finds). */
  private noteLoopValues(command: CompoundCommand, name: string): void {
    for (const word of command.words) {
      const globbed = word.parts.some((p) => p.kind === 'lit' && !p.quoted && /[*?[]/.test(p.text));
      if (globbed || unshownValue(word.raw)) this.res.arithmetic.unknown(name, command.text);
      else this.res.arithmetic.assign(name, word.raw, true, command.text);
    }
  }

  flag(kind: string, text: string): void {
    if (this.dynamic.some((d) => d.kind === kind && d.text === cap(text))) return;
    this.dynamic.push({ kind, text: cap(text) });
  }

  /** Parse a string as a script and walk it (a `sh -c` string, an ssh command, an eval). */
  /** Parse and walk shell text a command runs; `stdin` is that command's, which the text's commands read. */
  parseString(text: string, via: string[], env: Env, quiet = false, stdin?: Stdin): void {
    enter(this.budget);
    this.res.texts.push(text);
    let script: Script;
    try {
      script = new Parser(text, this.budget).parseScript();
    } catch (error) {
      if (!(error instanceof ShellSyntaxError)) throw error;
      leave(this.budget);
      if (!quiet) this.flag('parse_error', text);
      return;
    }
    if (quiet) {
      const inner = this.nested();
      inner.walkScript(script, env, via, stdin);
      this.segments.push(...inner.segments);
    } else this.walkScript(script, env, via, stdin);
    leave(this.budget);
  }

  private walkWordSubs(word: Word, env: Env, via: string[]): void {
    for (const element of word.array ?? []) {
      this.walkWordSubs(element, env, via);
      // `a=(['$(cmd)']=1)`, `declare -a a=(…)`: an indexed array's key is arithmetic, where quotes do not quote.
      const key = /^\[(.*)\]\+?=/s.exec(element.raw)?.[1];
      if (key !== undefined) this.checkArithmetic(key, element.raw);
    }
    for (const part of word.parts) {
      if (part.kind === 'sub') {
        // A process substitution runs alongside the command that reads it; either runs in a subshell,
        // whose `cd` is its own. bash 5.3's `${ list; }` runs in this shell: its `cd` stays.
        // Nothing waits for a process substitution: what it writes may land after the command.
        if (part.proc) {
          this.deferred++;
          this.res.background++;
        }
        const outside = this.res.dirs;
        this.unsure++;
        this.walkScript(part.script, env, [...via, part.proc ? '<()' : '$()']);
        this.unsure--;
        if (!part.src.startsWith('${')) this.res.dirs = outside;
        if (part.proc) {
          this.deferred--;
          this.res.background--;
        }
      } else if (part.kind === 'arith' || part.kind === 'param') {
        for (const sub of part.subs) this.walkScript(sub, env, [...via, '$()']);
        this.checkExpansion(part.src);
        // `${x@P}` expands the value as a prompt string: a `$(…)` in the value runs then.
        if (part.kind === 'param' && /@P\}$/.test(part.src)) this.flag('prompt_substitution', part.src);
        // zsh's `${(e)x}` substitutes in the value, `${(%)x}` expands it as a prompt: its `$(…)` runs.
        if (part.kind === 'param' && /^\$\{\([^)]*[e%]/.test(part.src))
          this.flag('prompt_substitution', part.src);
      }
    }
  }

  private walkRedirectSubs(redirect: Redirect, env: Env, via: string[]): void {
    if (redirect.target && !redirect.heredoc) this.walkWordSubs(redirect.target, env, via);
    for (const sub of redirect.heredoc?.subs ?? []) this.walkScript(sub, env, [...via, '$()']);
  }

  private redirect(redirect: Redirect, env: Env, writes: WriteSet): ShellRedirect {
    const op = redirect.op;
    let target = '';
    let unresolved = false;
    let written: string[] = [];
    if (redirect.target && redirect.heredoc) target = expandWord(redirect.target, env).values.join(' ');
    else if (redirect.target) {
      const expanded = expandWord(redirect.target, env, this.res);
      target = expanded.values.join(' ');
      unresolved = expanded.unresolved;
      written = [target];
      const pattern = expanded.patterns?.[0];
      if (pattern && expanded.values.length === 1) {
        // bash expands a redirection glob that matches one file; more than one is an error.
        const matches = this.res.glob(pattern);
        if (matches === undefined) this.res.unresolvedGlobs.add(target);
        else if (matches.length === 1) target = matches[0] as string;
        if (matches && matches.length > 0) written = matches;
      }
    }
    const dup = /^(\d+-?|-)$/.test(target);
    const truncates = op === '>' || op === '>|' || op === '&>' || (op === '>&' && !dup);
    if (WRITING.has(op) && !(op === '>&' && dup)) {
      for (const path of written) {
        const added = addPath(writes, path, unresolved, this.res, this.res.tempDir());
        if (truncates && !unresolved) writes.replaced = [...(writes.replaced ?? []), ...added];
      }
    }
    const out: ShellRedirect = { op, target, truncates };
    if (redirect.fd !== undefined) out.fd = redirect.fd;
    return out;
  }

  /**
   * A file this simple command writes with text that may be static (`cat > s.sh <<'EOF'`, `printf '…'
   * > s.sh`), for a later run of it in the same command (scripts.ts); other writes are in its segments.
   */
  private noteStaticWrite(command: SimpleCommand, env: Env, inv: Invocation): void {
    const paths = inv.writes?.paths;
    const path = paths?.length === 1 ? paths[0] : undefined;
    if (path === undefined || inv.writes?.unresolved) return;
    let target: Redirect | undefined;
    for (const r of command.redirects) {
      if (!WRITING.has(r.op) || (r.fd !== undefined && r.fd !== 1)) continue;
      if (target || (r.op !== '>' && r.op !== '>|')) return;
      target = r;
    }
    if (!target) return;
    // The text is worked out only if a run of the file asks for it (rarely): keep what it needs.
    const rest = command.redirects.filter((r) => r !== target);
    const at = { ...env };
    noteWritten(
      this.res,
      path,
      () => commandOutput({ ...command, redirects: rest }, at, this.res),
      this.segments.length,
    );
  }

  /** What the command's own redirections put on fd 0 (`mapped`: the same redirections, expanded). */
  private ownStdin(redirects: Redirect[], mapped: ShellRedirect[], env: Env): Stdin | undefined {
    let stdin: Stdin | undefined;
    for (const [i, r] of redirects.entries()) {
      if (r.fd !== undefined && r.fd !== 0) continue;
      if (r.op === '<&' && mapped[i]?.target !== '-') {
        // A duplicated descriptor (`3<evil.sh <&3`) is input this reading does not follow.
        stdin = { from: 'pipe-dynamic' };
      } else if (r.op === '<' || r.op === '<>') {
        const file = mapped[i]?.target ?? '';
        stdin = file === '/dev/null' ? { text: '', from: 'file', file } : { from: 'file', file };
      } else if (r.heredoc) stdin = { text: r.heredoc.body, from: 'heredoc' };
      else if (r.op === '<<<' && r.target) {
        const value = expandWord(r.target, env, this.res);
        stdin = value.unresolved
          ? { from: 'herestring' }
          : { text: `${value.values.join(' ')}\n`, from: 'herestring' };
      }
    }
    return stdin;
  }
}

/** The key of the variables a parse found assigned from a command's output (Resolver.slot). */
const OUTPUT_NAMES = {};

/** Programs that fill the directories they write with files they do not name (archives, patches, syncs, moves). */
const TREE_WRITERS = new Set(
  'mv ln rsync tar bsdtar unzip 7z 7za 7zr 7zz unrar rar patch cpio cmake ditto jar zipfile tarfile'.split(
    ' ',
  ),
);

/** Does the segment's program write whole trees (`cp -r`, `tar -x -C dir`, `rsync a/ b/`, `mv dir x`)? */
function writesTrees(segment: ShellSegment): boolean {
  if (TREE_WRITERS.has(segment.program)) return true;
  // A container CLI's `cp` (write-model.ts containerCopy): what it writes locally is a tree.
  if (writeModel(segment.program)?.custom === containerCopy) return segment.positionals.includes('cp');
  if (segment.program !== 'cp' && segment.program !== 'scp') return false;
  const options = segment.canonical ?? segment.flags;
  return options.some((o) => /^(-[rRa]|--recursive|--archive)$/.test(o));
}

/** Programs that delete the files they name. */
const UNLINKS = new Set(['rm', 'unlink']);
/**
 * Programs that replace a file they write whole (a copy's, move's, install's or rsync's destination,
 * dd's `of=`, tee's and sponge's file, sort's `-o`), and the options with which they keep what is
 * there instead (a backup, no clobbering, only newer, appending).
 */
const KEEPS_DESTINATION = /^(-[a-zA-Z]*[nbu]|--(no-clobber|backup|update)(=|$))/;
const REPLACERS: Readonly<Record<string, RegExp | undefined>> = {
  cp: KEEPS_DESTINATION,
  mv: KEEPS_DESTINATION,
  install: /^(-[a-zA-Z]*b|--backup(=|$))/,
  rsync: /^(-[a-zA-Z]*[bu]|--(backup|update|ignore-existing|append|append-verify)(=|$))/,
  dd: undefined,
  tee: /^(-[a-zA-Z]*a|--append$)/,
  sponge: /^-[a-zA-Z]*a/,
  sort: undefined,
  convert: undefined,
  magick: undefined,
};

/** The program keeps what is at its destination (`cp -n`, `rsync --ignore-existing`, a backup). */
function keepsDestination(segment: ShellSegment): boolean {
  const keeps = Object.hasOwn(REPLACERS, segment.program) ? REPLACERS[segment.program] : undefined;
  return keeps !== undefined && segment.flags.some((f) => keeps.test(f));
}

/** Paths whose present contents the segment deletes or replaces whole (a move's sources are not lost). */
function replacedFiles(
  segment: ShellSegment,
  own: WriteSet | undefined,
  redirects: WriteSet | undefined,
): Set<string> {
  const out = new Set<string>(redirects?.unresolved ? [] : (redirects?.replaced ?? []));
  if (own === undefined || own.unresolved) return out;
  for (const p of own.replaced ?? []) out.add(p);
  if (UNLINKS.has(segment.program)) for (const p of own.paths) out.add(p);
  else if (Object.hasOwn(REPLACERS, segment.program)) {
    if (keepsDestination(segment)) return out;
    for (const p of own.paths) if (!own.moved?.includes(p)) out.add(p);
  }
  return out;
}

/** Redirection operators that write their target (`>&` only when the target is not a descriptor). */
const WRITING = new Set(['>', '>>', '>|', '&>', '&>>', '<>', '>&']);

/** Programs that, found among an unknown program's first words, are read as the command it wraps. */
const WRAPPED = new Set(
  (
    'find git dd shred wipefs kubectl docker podman helm terraform tofu pulumi aws gcloud az gsutil psql mysql ' +
    'redis-cli mongosh sqlite3 chmod chown shutdown reboot systemctl crontab iptables twine gh rsync sudo xargs ' +
    'bash sh zsh eval ' +
    // Programs that destroy whatever wraps them (`gosu postgres dropdb prod`, `strace -f mkfs.ext4 …`).
    'dropdb dropuser pg_restore pg_dropcluster mysqladmin mariadb mongo valkey-cli keydb-cli parted fdisk ' +
    'sfdisk sgdisk gdisk cryptsetup mdadm lvremove vgremove pvremove zfs zpool btrfs truncate srm kill pkill ' +
    'killall userdel nft ufw rimraf terragrunt helmfile cdk sls serverless firebase vercel netlify wrangler ' +
    'supabase heroku fly flyctl doctl hcloud npm pnpm yarn gem cargo dotnet mkswap blkdiscard nvme hdparm ' +
    // Interpreters given code (`tool python -c '…'`): their code is judged as theirs.
    'python python3 node perl ruby php'
  ).split(' '),
);

/** `[[ … ]]` operators whose operands are evaluated as arithmetic. */
const ARITHMETIC_TEST = /^-(eq|ne|lt|le|gt|ge)$/;

/** Builtins that evaluate their words as arithmetic or as (subscripted) variable names. */
const ARITHMETIC_BUILTINS = new Set(
  'test [ [[ declare typeset local export readonly let unset read printf mapfile readarray shift return exit break continue wait getopts builtin command eval source . ulimit'.split(
    ' ',
  ),
);

/**
 * Programs that read, check or open a program file without running it (`shellcheck ./deploy.sh`,
 * `code ./run`): an executable file among their words is their subject, not a command.
 */
const INSPECTS_PROGRAMS = new Set(
  (
    'shellcheck shfmt checkbashisms bashate beautysh code codium subl gedit kate idea atom zed ' +
    'bat batcat hexdump hd xxd objdump readelf nm strings size upx patchelf codesign otool ' +
    'sha224sum sha384sum sha512sum b2sum b3sum gpg scp sftp git-lfs'
  ).split(' '),
);

/**
 * Programs whose operands are files or text they read, list, compare or copy: none of their words is
 * a program they run, whatever it is named (a file called `truncate`, `grep -l kill src`).
 */
const OPERATES_ON_FILES = new Set(
  (
    'cat tac ls dir vdir cp mv ln link install mkdir rmdir touch head tail wc file stat du realpath ' +
    'readlink basename dirname sort uniq cut paste join comm diff cmp md5sum sha1sum sha256sum sum ' +
    'cksum od fold fmt nl pr expand unexpand grep egrep fgrep rg ag less more tree whereis whatis ' +
    'man info apropos locate zcat'
  ).split(' '),
);

/** Interpreters among WRAPPED, which an unknown program runs only when code or a script follows them. */
const WRAPPED_INTERPRETERS = new Set('python python3 node perl ruby php bash sh zsh'.split(' '));

/** The word after an interpreter's name gives it code (`-c`, `-e`, `-`), options, or a script file. */
function givenCode(next: string | undefined): boolean {
  if (next === undefined) return false;
  if (next.startsWith('-')) return true;
  return next.includes('/') || /\.(py|js|mjs|cjs|ts|sh|bash|zsh|rb|pl|pm|php)$/i.test(next);
}

function isQuotedCommandLine(word: Word): boolean {
  return (
    word.parts.length > 0 &&
    word.parts.every((p) => p.kind === 'lit' && p.quoted) &&
    /\S[\s;|&]+\S/.test(word.parts.map((p) => (p.kind === 'lit' ? p.text : '')).join(''))
  );
}

function cap(text: string): string {
  return text.length > TEXT_CAP ? `${text.slice(0, TEXT_CAP)}…` : text;
}

export { LimitExceeded };
