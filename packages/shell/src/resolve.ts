// What a word names on the machine the command runs on: per-parse resolution state (the
// directories the command may be in after `cd`, variables it assigns itself, globs it could not
// expand) and the answers built on it: absolute canonical paths, glob matches, the program file.
// Without a context nothing touches the file system and answers stay textual.

import { posix } from 'node:path';
import { ArithmeticFlow } from './arithmetic.js';
import type { FileView, ResolveContext } from './files.js';
import { findTopLevel } from './git-config.js';
import { currentBranch } from './git-refs.js';
import { type PipelineAt, type Switch, switchHeld, switchPlaces } from './git-switch.js';
import { expandGlob } from './glob.js';
import { mktempChained, mktempVariable } from './mktemp-variable.js';

/** Variables whose value the context gives (or that steer `cd`): an assignment in the command voids it. */
/**
 * Variables that say where an installed toolchain lives (`$JAVA_HOME/bin`). The gate is given the
 * values its own environment has, which is the one the agent's shell inherits; the entry is judged
 * as that path. One the command assigns, or the environment lacks, stays unknown.
 */
export const TOOL_HOMES: readonly string[] = [
  'JAVA_HOME',
  'GOROOT',
  'GOPATH',
  'CARGO_HOME',
  'RUSTUP_HOME',
  'PYENV_ROOT',
  'NVM_DIR',
  'VOLTA_HOME',
  'PNPM_HOME',
  'BUN_INSTALL',
  'DENO_INSTALL',
  'ANDROID_HOME',
  'ANDROID_SDK_ROOT',
  'FLUTTER_ROOT',
  'GRADLE_HOME',
  'MAVEN_HOME',
  'M2_HOME',
  'SDKMAN_DIR',
];
const TRACKED: readonly string[] = ['HOME', 'PWD', 'OLDPWD', 'CDPATH', 'TMPDIR', ...TOOL_HOMES];

/** A command text that may change the directory (`cd`, `pushd`, `popd` as words of their own). */
export const CD_COMMAND = /(^|[^\w-])(cd|pushd|popd)(?![\w-])/;
/** What `$TMPDIR` is taken to name when no environment is given. */
const DEFAULT_TEMP = '/tmp';
/** POSIX special builtins: an assignment before them stays in the shell. */
export const SPECIAL_BUILTINS: ReadonlySet<string> = new Set(
  ': . break continue eval exec exit export readonly return set shift times trap unset source'.split(' '),
);
const USES = Object.fromEntries(TRACKED.map((n) => [n, new RegExp(`\\$${n}(?!\\w)|\\$\\{${n}\\}`)]));
const MENTIONS = Object.fromEntries(TRACKED.map((n) => [n, new RegExp(`(?<!\\w)${n}(?!\\w)`)]));
/** Most directories the command is taken to be in; beyond it, relative paths are unresolved. */
const MAX_DIRS = 16;

/** Links one lookup follows before it fails with ELOOP (Linux's MAXSYMLINKS). */
const MAX_LINK_HOPS = 40;
/** Links still to follow in one resolution, counted across its nested lookups as the kernel does. */
interface Hops {
  left: number;
}

/** Builtins and keywords: no file on PATH runs for them. */
const BUILTINS = new Set(
  (
    '. : [ [[ alias bg bind break builtin caller cd command compgen complete compopt continue declare dirs disown ' +
    'echo enable eval exec exit export false fc fg getopts hash help history jobs kill let local logout mapfile ' +
    'popd printf pushd pwd read readarray readonly return set shift shopt source suspend test times trap true ' +
    'type typeset ulimit umask unalias unset wait'
  ).split(' '),
);

export interface Paths {
  /** Absolute canonical paths with a context; as written (joined to static `cd` targets) without. */
  paths: string[];
  /** Some path could not be told (unknown directory, `~` without a home, a variable). */
  unresolved: boolean;
}

/** A place onPath looks for a program: the path, and whether a file is there. */
interface PathPlace {
  at: string;
  found: boolean;
}

export class Resolver {
  /**
   * Directories the command may be in: the start (`''` when no context gives it, so relative paths
   * stay as written) and every static `cd` target seen; null after a `cd` that cannot be resolved.
   */
  dirs: string[] | null;
  /** Glob words that could not be expanded: they stay literal, and in some positions make the command dynamic. */
  get unresolvedGlobs(): Set<string> {
    this.globs ??= new Set();
    return this.globs;
  }
  private globs: Set<string> | undefined;
  /** Whether a word is a glob that could not be expanded (allocates nothing). */
  isUnresolvedGlob(word: string): boolean {
    return this.globs?.has(word) ?? false;
  }
  /** `shopt`/`set` changed how globs expand: later globs are not expanded. */
  globsUnknown = false;
  /**
   * Something that ran before may have moved HEAD (a checkout, a script, a write into .git, a loop
   * that runs later commands first): the current branch is not read from the repository then.
   */
  headMayMove = false;
  /**
   * Branches a `git checkout`/`git switch` before may have checked out (git-switch.ts): with the
   * one read from the repository, the branches a later push may be on.
   */
  readonly switchedTo: Array<{ branch: string; where: string }> = [];
  /**
   * A switch that may run again, or later, than where it is written (in a loop, a function, a
   * background job, a trap, xargs), or a push that may: facts.ts walks the command again with HEAD
   * unknown from the start.
   */
  readonly order = { moverDeferred: false, pushDeferred: false };
  /** The last such switch, and where it ran. */
  lastSwitch: Switch | undefined;
  /**
   * What a later push reads of its configuration may have changed before it: `push` (push.default
   * or a push refspec written), `upstream` (a branch's upstream set: `branch -u`, `push -u`, a
   * checkout with `--track` or from a remote's branch).
   */
  readonly pushConfigChanged = new Set<'push' | 'upstream'>();
  /**
   * Depth of background jobs being walked (`list &`, coproc, a process substitution), counted here
   * rather than on one Extractor: the quiet parses of strings inside a job (`sh -c '…' &`) make
   * extractors of their own.
   */
  background = 0;
  /** Called when a tracked variable is assigned after a use was resolved (a loop may run the use later). */
  onReassign: ((name: string) => void) | undefined;
  /** Values the command does not show and where arithmetic evaluates them (arithmetic.ts). */
  get arithmetic(): ArithmeticFlow {
    this.flow ??= new ArithmeticFlow();
    return this.flow;
  }
  /** The texts where arithmetic evaluates a value the command does not show (none when nothing was noted). */
  arithmeticFindings(): string[] {
    return this.flow?.findings() ?? [];
  }
  // Allocated on first use: most parses never need them.
  private flow: ArithmeticFlow | undefined;
  private assignedSet: Set<string> | undefined;
  private usedSet: Set<string> | undefined;
  private real: Map<string, string | undefined> | undefined;
  private targets: Map<string, string | null | undefined> | undefined;
  private lookups: Map<string, string | undefined> | undefined;
  private get assigned(): Set<string> {
    this.assignedSet ??= new Set();
    return this.assignedSet;
  }
  private get used(): Set<string> {
    this.usedSet ??= new Set();
    return this.usedSet;
  }
  readonly files: FileView | undefined;
  /** Other modules' state for this parse (see `slot`). */
  private slots: Map<object, unknown> | undefined;

  constructor(readonly ctx?: ResolveContext) {
    this.files = ctx?.files;
    this.dirs = [ctx?.cwd ?? ''];
  }

  /**
   * A module's state for this parse, made on first use: kept on the parse itself rather than in a
   * WeakMap keyed by it — V8 keeps a young key's WeakMap value alive through every young-generation
   * collection, which made per-command garbage survive and cost most of classification's time.
   */
  slot<T>(key: object, make: () => T): T {
    this.slots ??= new Map();
    let value = this.slots.get(key) as T | undefined;
    if (value === undefined) {
      value = make();
      this.slots.set(key, value);
    }
    return value;
  }

  /** A module's state for this parse, if it made one. */
  peek<T>(key: object): T | undefined {
    return this.slots?.get(key) as T | undefined;
  }

  /**
   * Arithmetic (`let`, `(( ))`, `$(( ))`) can assign a variable in many spellings: any mention of a
   * tracked name other than a plain use (`$HOME`, `${HOME}`) is taken as an assignment.
   */
  scanText(text: string): void {
    if (!this.ctx) return;
    for (const name of TRACKED) {
      if (this.assigned.has(name) || !text.includes(name)) continue;
      const uses = text.split(USES[name] as RegExp).join(' ');
      if ((MENTIONS[name] as RegExp).test(uses)) this.assign(name);
    }
  }

  /**
   * A variable the command (or a wrapper it runs) assigns: its later uses are not resolved. A use
   * resolved before an assignment in the shell itself may run after it (a loop, a function): that
   * is reported. `scoped` marks an assignment before a command, which only that command sees.
   */
  /** Whether the command assigns a tracked variable (PWD, HOME, …) somewhere in what was walked so far. */
  assigns(name: string): boolean {
    return this.assignedSet?.has(name) === true;
  }

  assign(name: string, scoped = false): void {
    if (!TRACKED.includes(name)) return;
    if (!scoped && this.used.has(name)) this.onReassign?.(name);
    this.assigned.add(name);
  }

  /**
   * Whether `NAME=value program …` assigns in the shell itself: before a special builtin, or before a
   * function (which the command text may define) the assignment is seen by code walked elsewhere.
   */
  assignsInShell(program: string | undefined): boolean {
    if (program === undefined || SPECIAL_BUILTINS.has(program)) return true;
    const name = program.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return new RegExp(`(^|[\\s;&|(])(function\\s+${name}(?![\\w-])|${name}\\s*\\(\\s*\\))`).test(
      this.texts.join('\n'),
    );
  }

  /** Script texts of this parse (the command, `sh -c` and `eval` strings): where functions are defined. */
  readonly texts: string[] = [];
  /** The command's text was folded (look-alike characters read as ASCII): names are not its bytes. */
  folded = false;

  /**
   * What `$TMPDIR` expands to: the context environment's value, or `''` when that environment leaves
   * it unset (the shell then expands `"$TMPDIR/x"` to `/x`, not to a temp directory: most Linux
   * environments do not set it). Without an environment, `/tmp`: a set TMPDIR names a temp
   * directory by convention. Null when the command assigned it.
   */
  tempDir(): string | null {
    if (this.assignedSet?.has('TMPDIR')) return null;
    const env = this.ctx?.env;
    if (env === undefined) return DEFAULT_TEMP;
    return env.TMPDIR ?? '';
  }

  /**
   * What `git branch --show-current` prints where the command runs, read from the repository when
   * nothing before it could have moved HEAD; null when that cannot be told.
   */
  /** The work tree's top directory where the command runs, when one place and the file view tell it. */
  topLevel(): string | null {
    const files = this.ctx?.files;
    if (!files || this.dirs?.length !== 1) return null;
    return findTopLevel(files, this.dirs[0] as string) ?? null;
  }

  currentBranch(): string | null {
    const files = this.ctx?.files;
    if (!files || this.headMayMove || this.dirs?.length !== 1 || this.switchedTo.length > 0) return null;
    return currentBranch(files, this.dirs[0] as string) ?? null;
  }

  /**
   * The branches that may be checked out where the command runs: the repository's, and any a
   * switch before may have moved to (a failed switch leaves the first); null when that cannot be told.
   */
  possibleBranches(where: {
    cwds: readonly string[];
    gitDir?: string | undefined;
    at?: PipelineAt | undefined;
  }): string[] | null {
    const files = this.ctx?.files;
    if (!files || this.headMayMove || !this.dirs || where.cwds.length === 0) return null;
    const places = switchPlaces(files, where.cwds, where.gitDir);
    // A directory that does not exist yet (a clone, a worktree made by the command), or a switch
    // made in one: what is checked out there is not told.
    if (places.includes('?') || this.switchedTo.some((s) => s.where === '?')) return null;
    // Run only once the last switch succeeded: on the branch it checked out.
    const last = this.lastSwitch;
    if (last?.where.every((w) => places.every((p) => p === w)) && switchHeld(last, where.at))
      return [...last.branches];
    // For every directory the command may be in (a `cd` that may have failed leaves two): the
    // branch read there, and those the switches made in its repository may have checked out.
    const out = new Set<string>();
    where.cwds.forEach((cwd, k) => {
      const read = currentBranch(files, cwd, where.gitDir);
      if (read !== undefined) out.add(read);
      for (const s of this.switchedTo) if (s.where === places[k]) out.add(s.branch);
    });
    return [...out];
  }

  /**
   * `"$tmp"` where the command assigned `tmp=$(mktemp -d)` once (mktemp-variable.ts): a new path in
   * the temp directory, as mktemp makes it there; null otherwise. `below`: the word goes on below it
   * (`"$tmp"/x`), which names `/x` if mktemp failed — only where nothing runs after a failed mktemp.
   */
  mktempPath(word: string, below = false): string | null {
    const temp = this.tempDir();
    if (temp === null || /[\s*?[]/.test(temp) || !this.texts.some((t) => t.includes('mktemp'))) return null;
    const name = mktempVariable(word, this.texts);
    if (name === undefined || (below && !mktempChained(name, this.texts))) return null;
    this.noteUse('TMPDIR');
    return `${temp === '' ? '/tmp' : temp.replace(/\/+$/, '')}/tmp.XXXXXXXXXX`;
  }

  /** A value of a tracked variable was used (see `assign`). */
  noteUse(name: string): void {
    this.used.add(name);
  }

  /** The static value of `$HOME`, `$PWD` or (with a context environment) `$TMPDIR`, or null. */
  variable(name: string): string | null {
    if (!this.ctx || this.assigned.has(name)) return null;
    let value: string | null | undefined;
    if (name === 'HOME') value = this.ctx.home;
    else if (name === 'PWD' && this.dirs?.length === 1) value = this.dirs[0];
    else if (name === 'TMPDIR') {
      // Only an environment the context gives is expanded: without one the word keeps its text.
      value = this.ctx.env === undefined ? null : this.tempDir();
      if (value === null) return null;
      this.used.add(name);
      return value;
    }
    if (!value) return null;
    this.used.add(name);
    return value;
  }

  /** The value the context's environment gives a toolchain home (TOOL_HOMES) the command does not assign, or null. */
  toolHome(name: string): string | null {
    if (!this.ctx || this.assigned.has(name) || !TOOL_HOMES.includes(name)) return null;
    const value = this.ctx.env?.[name];
    if (value === undefined) return null;
    this.used.add(name);
    return value;
  }

  /**
   * `cd DIR` / `pushd DIR`: null for a target that is not static (`cd $X`, `cd -`, `popd`). The
   * shell folds `..` in the name as written, unless `physical` (`cd -P`), where the kernel follows
   * each link first.
   */
  cd(target: string | null, physical = false): void {
    if (this.dirs === null) return;
    let to = target;
    if (to === '') to = this.variable('HOME');
    // `~user`, `~-`, `~+` are left as written by expansion: another user's home, OLDPWD, PWD.
    // CDPATH (assigned here, or in the environment) sends a name not starting with / or . elsewhere.
    const cdpath = this.assigned.has('CDPATH') || (this.ctx?.env?.CDPATH ?? '') !== '';
    if (to === null || to === '-' || to.startsWith('~') || (cdpath && !/^\.{0,2}\//.test(to))) {
      this.dirs = null;
      this.lastCd = { targets: null };
      return;
    }
    const next = new Set(this.dirs);
    // `cd -P link/..` goes to the parent of the link's target; without `..` the names are the same.
    const kernel = physical && to.split('/').includes('..');
    const targets: string[] = [];
    for (const dir of this.dirs) {
      const target = kernel ? this.physical(dir, to) : this.join(dir, to);
      if (target === undefined) {
        this.dirs = null;
        this.lastCd = { targets: null };
        return;
      }
      targets.push(target);
    }
    for (const dir of targets) next.add(dir);
    this.dirs = next.size > MAX_DIRS ? null : [...next];
    this.lastCd = { targets };
  }

  /** Where `cd -P` from `dir` lands: as the kernel resolves it; undefined when that cannot be told. */
  private physical(dir: string, to: string): string | undefined {
    if (to.startsWith('/')) return this.canonical(to);
    if (dir.startsWith('/')) return this.canonical(`${dir}/${to}`);
    return this.textual(dir, to);
  }

  /** The directories the last `cd` moved to (null: unknown), for a `cd X && …` that must have succeeded. */
  lastCd: { targets: string[] | null } | undefined;

  /** Directories the shell may also be in (a `cd` before `&&` that failed, once its and-or run ends). */
  mergeDirs(others: string[] | null): void {
    if (this.dirs === null || others === null) this.dirs = null;
    else {
      const next = new Set([...this.dirs, ...others]);
      this.dirs = next.size > MAX_DIRS ? null : [...next];
    }
  }

  /**
   * Runs `fn` with the directory moved to `target` (relative to each current one; null: unknown)
   * for one command a wrapper starts elsewhere (`env -C DIR`), then restores it: unlike `cd`, the
   * shell itself stays where it was.
   */
  inDirectory(target: string | null, fn: () => void): void {
    const saved = this.dirs;
    this.dirs =
      target === null || target.startsWith('~') || saved === null
        ? null
        : saved.map((dir) => this.join(dir, target));
    try {
      fn();
    } finally {
      this.dirs = saved;
    }
  }

  /** Where a written path lands, against every directory the command may be in. */
  paths(word: string): Paths {
    if (word === '') return { paths: [], unresolved: false };
    if (word.startsWith('~')) return { paths: [word], unresolved: true };
    if (word.startsWith('/')) {
      const path = this.canonical(word);
      return path === undefined ? { paths: [word], unresolved: true } : { paths: [path], unresolved: false };
    }
    if (this.dirs === null) return { paths: [word], unresolved: true };
    // Joined without folding: `link/..` is for canonical() to resolve as the kernel does.
    const joined = this.dirs.map((dir) =>
      dir.startsWith('/') ? this.canonical(`${dir}/${word}`) : this.textual(dir, word),
    );
    if (joined.includes(undefined)) return { paths: [word], unresolved: true };
    return { paths: [...new Set(joined as string[])], unresolved: false };
  }

  /**
   * Symbolic links the command itself makes (`ln -s .. c/p`), by where they are (as `paths` gives
   * it), to their target joined to the link's directory (null: not told). They are not on the file
   * system yet, so a later path through one (`c/p/..`, `q/fh/.bashrc` after `ln -s c/p/.. q`) is
   * followed here as the kernel would, or is unresolved.
   */
  private madeLinks: Map<string, string | null> | undefined;

  /** A symbolic link the command makes at `path` (from `paths`), to `target` as the link stores it. */
  noteLink(path: string, target: string | null): void {
    this.madeLinks ??= new Map();
    const key = path.startsWith('/') ? path : posix.normalize(path);
    const to = target === null || target.startsWith('/') ? target : `${posix.dirname(key)}/${target}`;
    this.madeLinks.set(key, to);
  }

  /** A relative path without a context: as written, unless it goes through a link the command made. */
  private textual(dir: string, word: string): string | undefined {
    const joined = this.join(dir, word);
    if (this.madeLinks === undefined) return joined;
    const walked = this.walk(joined);
    if (walked === undefined) return undefined;
    return walked.followed ? walked.at || '.' : joined;
  }

  /**
   * `path` with `.`/`..` folded as the kernel does (`link/..` is the parent of the link's target),
   * following the links the command made itself wherever a name comes after one; undefined when one
   * of those cannot be followed (its target not told, or links in a loop).
   */
  private walk(
    path: string,
    depth = 0,
    hops: Hops = { left: MAX_LINK_HOPS },
  ): { at: string; followed: boolean } | undefined {
    const parts = path.split('/');
    let last = parts.length - 1;
    while (last >= 0 && (parts[last] === '' || parts[last] === '.')) last--;
    // `link/` (and `link/.`) is the directory the link points to; so is a link's target's last name.
    const throughEnd = last < parts.length - 1 || depth > 0;
    let at = path.startsWith('/') ? '/' : '';
    let followed = false;
    for (let k = 0; k <= last; k++) {
      const part = parts[k] as string;
      if (part === '' || part === '.') continue;
      if (part === '..') {
        const up = this.up(at, hops);
        if (up === undefined) return undefined;
        at = up;
      } else at = at === '/' ? `/${part}` : at === '' ? part : `${at}/${part}`;
      if (this.madeLinks === undefined || (k === last && !throughEnd)) continue;
      const target = this.madeLink(at, hops);
      if (target === undefined) continue;
      if (target === null || depth >= 8) return undefined;
      const next = this.walk(target, depth + 1, hops);
      if (next === undefined) return undefined;
      at = next.at;
      followed = true;
    }
    return { at, followed };
  }

  /** The target of a link the command made at `at` (as written, or as it resolves); undefined: none. */
  private madeLink(at: string, hops: Hops): string | null | undefined {
    const links = this.madeLinks;
    if (links === undefined) return undefined;
    const key = at.startsWith('/') ? at : posix.normalize(at || '.');
    if (links.has(key)) return links.get(key);
    if (!this.files || !at.startsWith('/')) return undefined;
    const settled = this.settle(at, hops);
    // Where `at` leads cannot be told: nor can whether it is one of them.
    if (settled === undefined) return null;
    return links.has(settled) ? links.get(settled) : undefined;
  }

  /** The directory `..` names from `at`: the parent of where `at` leads on the file system. */
  private up(at: string, hops: Hops): string | undefined {
    if (at.startsWith('/')) {
      if (!this.files) return posix.dirname(at);
      const real = this.settle(at, hops);
      return real === undefined ? undefined : posix.dirname(real);
    }
    if (at === '' || at === '..' || at.endsWith('/..')) return at === '' ? '..' : `${at}/..`;
    const parent = posix.dirname(at);
    return parent === '.' ? '' : parent;
  }

  /** Whether a written word names an existing directory; undefined when that cannot be told. */
  isDirectory(word: string): boolean | undefined {
    if (!this.files) return undefined;
    const { paths, unresolved } = this.paths(word);
    if (unresolved) return undefined;
    // `dir/.` resolves only for a directory: one operation, no entries read.
    return paths.some((p) => this.realpath(`${p.replace(/\/$/, '')}/.`) !== undefined);
  }

  /** The matches of a glob pattern; [] when none match; undefined when it cannot be told. */
  glob(pattern: string): string[] | undefined {
    if (!this.files || this.globsUnknown) return undefined;
    if (pattern.startsWith('/')) return expandGlob(pattern, '/', this.files);
    const dir = this.dirs?.length === 1 ? this.dirs[0] : undefined;
    if (!dir) return undefined;
    return expandGlob(pattern, dir, this.files);
  }

  /** The file a program word runs: an explicit path, or the first PATH entry holding it; symlinks resolved. */
  program(word: string): string | undefined {
    if (!this.ctx || !this.files || word === '') return undefined;
    this.lookups ??= new Map();
    if (this.lookups.has(word)) return this.lookups.get(word);
    let found: string | undefined;
    if (word.includes('/')) {
      const { paths, unresolved } = this.paths(word);
      if (!unresolved && paths.length === 1) found = this.realpath(paths[0] as string);
    } else if (!BUILTINS.has(word)) {
      for (const entry of (this.ctx.path ?? '').split(':')) {
        const dir = entry === '' ? this.ctx.cwd : this.join(this.ctx.cwd, entry);
        found = this.realpath(`${dir.replace(/\/$/, '')}/${word}`);
        if (found !== undefined) break;
      }
    }
    this.lookups.set(word, found);
    return found;
  }

  /**
   * PATH values the command assigns (`PATH=… cmd`, `export PATH=…`, `env PATH=… cmd`), as written
   * once expanded: a bare program name may be looked up on any of them (see onPath).
   */
  private pathValues: string[] | undefined;

  /** A PATH value the command assigns somewhere (builtins.ts checkAssignment). */
  notePathValue(value: string): void {
    this.pathValues ??= [];
    if (!this.pathValues.includes(value)) this.pathValues.push(value);
  }

  /**
   * Where a bare program name may be found on PATH, not realpath'd (`<cwd>/node_modules/.bin/tsc`,
   * as the link a path names): on the context's PATH and on each one the command assigns, the
   * first entry holding the name, and before it any file of that name the command itself writes
   * (`written`) — it may be there by the time the name is looked up. A relative entry is found
   * where the command stands (each place a `cd` may leave); `unknown` where that cannot be told.
   * Entries that are not static (`$X/bin`) are skipped: a PATH so assigned is refused by itself
   * (path_in_project).
   */
  onPath(name: string, written: (path: string) => boolean): { paths: string[]; unknown: boolean } {
    if (!this.ctx || !this.files || name === '' || name.includes('/') || BUILTINS.has(name))
      return { paths: [], unknown: false };
    const out = new Set<string>();
    const { places, unknown } = this.pathPlaces(name);
    for (const place of places) {
      for (const { at, found } of place) if (found || written(at)) out.add(at);
    }
    return { paths: [...out], unknown };
  }

  /** onPath's places by name, for the PATH values and directories they were found under. */
  private placesByName: Map<string, { places: PathPlace[][]; unknown: boolean }> | undefined;

  /**
   * Where onPath looks for a name: a group of places per PATH entry (one per directory the command
   * may stand in), each with whether a file is there, up to the first entry that holds the name in
   * every place. A script runs the same few programs many times: the search is made once per name.
   */
  private pathPlaces(name: string): { places: PathPlace[][]; unknown: boolean } {
    const ctx = this.ctx as ResolveContext;
    const key = `${name}\0${this.dirs?.join('\0') ?? '\u0001'}\0${this.pathValues?.join('\0') ?? ''}`;
    this.placesByName ??= new Map();
    const known = this.placesByName.get(key);
    if (known !== undefined) return known;
    const places: PathPlace[][] = [];
    let unknown = false;
    const inherited = ctx.path ?? '';
    for (const value of [inherited, ...(this.pathValues ?? [])]) {
      const entries = value
        .split(':')
        .flatMap((e) => (/^(\$PATH|\$\{PATH\})$/.test(e) ? inherited.split(':') : [e]));
      for (const raw of entries) {
        const entry = ctx.home && /^~(\/|$)/.test(raw) ? ctx.home + raw.slice(1) : raw;
        if (/[$`~]/.test(entry)) continue;
        let dirs: string[];
        if (entry.startsWith('/')) dirs = [entry];
        else if (this.dirs === null) {
          unknown = true;
          break;
        } else dirs = this.dirs.map((dir) => posix.join(dir, entry));
        const group = dirs.map((dir) => {
          const at = posix.normalize(`${dir}/${name}`);
          return { at, found: this.realpath(at) !== undefined };
        });
        places.push(group);
        // Found in every place the command may stand: later entries are not searched.
        if (group.every((p) => p.found)) break;
      }
    }
    const result = { places, unknown };
    this.placesByName.set(key, result);
    return result;
  }

  /**
   * An absolute path as the kernel resolves it to create a file there (open with O_CREAT, a rename's
   * target): `.`/`..` folded, links followed, the part that does not exist yet appended; undefined
   * when a link cannot be followed (one the command made whose target is not told, a loop).
   */
  canonical(path: string): string | undefined {
    if (!this.files) {
      const plain = posix.normalize(path).replace(/(.)\/+$/, '$1');
      if (this.madeLinks === undefined) return plain;
      const walked = this.walk(path);
      return walked === undefined ? undefined : walked.followed ? walked.at : plain;
    }
    return this.kernel(path, { left: MAX_LINK_HOPS });
  }

  private kernel(path: string, hops: Hops): string | undefined {
    // `link/..` is the parent of the link's target, not the directory holding the link.
    const walked = this.walk(path, 0, hops);
    return walked === undefined ? undefined : this.settle(walked.at, hops);
  }

  /**
   * An absolute path with `..` folded: its deepest existing part realpath'd, the rest appended. A
   * dangling link there is followed: open(O_CREAT) creates its target, not the link's own name.
   */
  private settle(at: string, hops: Hops): string | undefined {
    const tail: string[] = [];
    for (let cur = at; ; cur = posix.dirname(cur)) {
      let end = this.realpath(cur);
      if (end === undefined) {
        const link = this.readlink(cur);
        // A link that cannot be read, or a bound hit: where the path leads cannot be told.
        if (link === null) return undefined;
        if (link !== undefined) {
          end = this.follow(cur, link, hops);
          if (end === undefined) return undefined;
        }
      }
      if (end !== undefined) return tail.length === 0 ? end : posix.join(end, ...tail.reverse());
      if (cur === '/') return at;
      tail.push(posix.basename(cur));
    }
  }

  /** Where the link at `at` (whose target does not resolve) leads: its target, from the link's own directory. */
  private follow(at: string, link: string, hops: Hops): string | undefined {
    // ELOOP: a loop, or more links than the kernel follows in one lookup.
    if (--hops.left < 0 || link === '') return undefined;
    if (link.startsWith('/')) return this.kernel(link, hops);
    const dir = this.realpath(posix.dirname(at));
    return dir === undefined ? undefined : this.kernel(`${dir}/${link}`, hops);
  }

  /** What the link at `path` holds: undefined when no link is there, null when that cannot be told. */
  private readlink(path: string): string | null | undefined {
    this.targets ??= new Map();
    if (this.targets.has(path)) return this.targets.get(path);
    const target = this.files?.readlink?.(path);
    this.targets.set(path, target);
    return target;
  }

  /** A path's real path, asked of the file view once a parse. */
  realpath(path: string): string | undefined {
    this.real ??= new Map();
    if (this.real.has(path)) return this.real.get(path);
    const real = this.files?.realpath(path);
    this.real.set(path, real);
    return real;
  }

  private join(dir: string, path: string): string {
    if (path.startsWith('/')) return this.ctx ? posix.normalize(path) : path;
    if (dir === '') return path;
    return this.ctx ? posix.normalize(posix.join(dir, path)) : posix.join(dir, path);
  }
}

/**
 * Where a word (already expanded: no quotes, no variables) names a file, for a command starting in
 * `ctx.cwd`: absolute, `.`/`..` folded, symlinks of its existing part resolved. Undefined when the
 * word cannot name a path statically (`~user`). For callers resolving a script operand or a file
 * argument outside parseShell.
 */
export function resolvePath(word: string, ctx: ResolveContext): string | undefined {
  const resolver = new Resolver(ctx);
  const expanded = ctx.home && (word === '~' || word.startsWith('~/')) ? ctx.home + word.slice(1) : word;
  const { paths, unresolved } = resolver.paths(expanded);
  return unresolved ? undefined : paths[0];
}
