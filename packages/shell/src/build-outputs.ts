// Whether `rm -r` removes only what a build makes again: every path lies in (or is) a directory
// named as build tools name their output (`dist`, `node_modules`, `target`, `__pycache__`, …) that
// the repository's own ignore files ignore, holds no file git has in its index or in HEAD, and is
// reached without a symlink. Each condition is read from the repository as it stands; the ignore
// files it relied on are listed (`relies_on`), so that the gate refuses the removal if the session
// ever wrote one (reading it back does not make the agent's own rule the person's). Getting
// something into such a directory first is the attack: a move into it (or into nothing) is its own
// gated step (`moves_into`), and within one command any other write there voids the judgement.
import { posix } from 'node:path';
import ignore from 'ignore';
import { type FileView, isAbsent } from './files.js';
import { cleanupName } from './find-cleanups.js';
import { findGitDir, findTopLevel } from './git-config.js';
import type { Resolver } from './resolve.js';
import { reliedFiles, rewritesWorkTree } from './scripts.js';
import type { ShellSegment } from './types.js';

/** Directory names build tools, package managers and test runners write their output under. */
const OUTPUT_NAMES: ReadonlySet<string> = new Set([
  'node_modules',
  'bower_components',
  'dist',
  'build',
  'out',
  'target',
  'coverage',
  'htmlcov',
  '.nyc_output',
  '.next',
  '.nuxt',
  '.output',
  '.svelte-kit',
  '.turbo',
  '.parcel-cache',
  '.vite',
  '.angular',
  '.docusaurus',
  '.cache',
  'storybook-static',
  '__pycache__',
  '.pytest_cache',
  '.mypy_cache',
  '.ruff_cache',
  '.hypothesis',
  '.tox',
  '.nox',
  '.eggs',
  '_build',
  '.gradle',
  '.dart_tool',
  '.build',
  '.stack-work',
  'dist-newstyle',
  'zig-out',
  'zig-cache',
  '.zig-cache',
  // Go's and .NET's binaries; Python's environments, made again from the project's requirements.
  'bin',
  'obj',
  '.venv',
  'venv',
]);
/** Output directories named after the project or configuration (`pkg.egg-info`, `cmake-build-debug`). */
const OUTPUT_PATTERN = /^(.+\.egg-info|cmake-build-[\w.-]+)$/;

/** Largest ignore file read. */
const MAX_IGNORE_BYTES = 256 * 1024;

export interface BuildOutputs {
  /** The ignore files the judgement read or would have read (`.gitignore` on the way down, info/exclude). */
  consulted: string[];
  /**
   * The removed paths with the directories on the way to them, relied on as well: that nothing the
   * session wrote stands there (a move or link made there by a job it left running would change
   * what rm finds when it runs).
   */
  paths: string[];
  /** What is removed: each removed directory as a tree (`DIR/`), each removed regular file. */
  removed: string[];
}

type Matcher = ReturnType<typeof ignore>;

/**
 * When every absolute path in `paths` is regenerable build output of the repository it lies in, or
 * a regular file that is there now (-r removes a file as plain rm does): what that relied on.
 * Undefined when any one is not, or cannot be told.
 */
export function buildOutputs(
  files: FileView,
  paths: readonly string[],
  /**
   * The program removes its operands as named (rm, after the shell expanded its globs): a glob
   * character left in one is a pattern that matched nothing, a name that is not there. rimraf
   * expands patterns itself (`dist/{,../src}`).
   */
  literal: boolean,
): BuildOutputs | undefined {
  const consulted = new Set<string>();
  const relied = new Set<string>();
  const removed: string[] = [];
  for (const path of paths) {
    const pattern = GLOB.test(path);
    if (!plainPath(path) || (pattern && !literal)) return undefined;
    // A file is removed as plain rm removes it, whoever wrote it: it vouches for nothing, and a
    // file the session wrote itself is no less removable than the person's.
    if (!pattern && files.readHead?.(path, 1) !== undefined) {
      removed.push(path);
      continue;
    }
    if (!regenerable(files, path, consulted, relied)) return undefined;
    removed.push(`${path}/`);
  }
  return { consulted: [...consulted], paths: [...relied], removed };
}

const GLOB = /[*?[\]{}!]/;

/** Absolute, normalised, printable ASCII: a name whose bytes are what the shell will use. */
function plainPath(path: string): boolean {
  return path.startsWith('/') && path === posix.normalize(path) && /^[\x20-\x7e]+$/.test(path);
}

/** Whether a path is (or lies in) build output, as buildOutputs judges a removed directory. */
export function isBuildOutput(files: FileView, path: string): boolean {
  return plainPath(path) && !GLOB.test(path) && regenerable(files, path, new Set(), new Set());
}

/**
 * Whether removing `path` loses a regular file git cannot give back: one there now, not build output,
 * and either not in the index or HEAD of the repository it lies in (outside any repository, or where
 * git cannot tell, nothing gives it back) or tracked with changes the index does not hold (git gives
 * back only what it has). Written paths come resolved, so a link is judged by its target (stricter
 * than rm, which removes the link).
 */
export function unversionedFile(files: FileView, path: string): boolean {
  // A pattern left unexpanded matched nothing: no such file.
  if (!path.startsWith('/') || GLOB.test(path)) return false;
  if (files.readHead?.(path, 1) === undefined) return false;
  if (isBuildOutput(files, path)) return false;
  const at = inWorkTree(files, path);
  if (at === undefined) return true;
  if (files.tracked?.(at.top, at.rel) !== true) return true;
  return files.matchesIndex?.(at.top, at.rel) === false;
}

/** Adds to the segment's losses those of `paths` (deleted or replaced whole) that git cannot give back. */
export function noteLosses(files: FileView, segment: ShellSegment, paths: Iterable<string>): void {
  const lost = [...paths].filter((p) => unversionedFile(files, p));
  if (lost.length > 0)
    segment.loses_unversioned = [...new Set([...(segment.loses_unversioned ?? []), ...lost])];
}

/** Most entries of copied trees walked, and most files there asked whether git can give them back. */
const MAX_MIRROR_ENTRIES = 4096;
const MAX_MIRROR_CHECKS = 32;

/**
 * The files a tree copy replaces (`cp -r tpl/src .`, `rsync -a tpl/ ./`): every file of a source
 * directory whose name below the landing directory is a file there now, which the copy overwrites.
 * Build output is left out as noteLosses leaves it out. 'limit' when the trees are too large to
 * tell, or too many such files are there to ask git about each.
 */
export function mirroredFiles(
  files: FileView,
  mirrors: ReadonlyArray<{ source: string; landing: string }>,
): string[] | 'limit' {
  const found: string[] = [];
  let entries = 0;
  for (const { source, landing } of mirrors) {
    if (files.readdir(landing) === undefined) continue;
    const queue = [''];
    while (queue.length > 0) {
      const rel = queue.shift() as string;
      const names = files.readdir(posix.join(source, rel));
      if (names === undefined) continue;
      for (const name of names) {
        if (++entries > MAX_MIRROR_ENTRIES) return 'limit';
        const sub = rel === '' ? name : `${rel}/${name}`;
        if (files.readdir(posix.join(source, sub)) !== undefined) {
          queue.push(sub);
          continue;
        }
        const there = posix.join(landing, sub);
        if (files.readHead?.(there, 1) === undefined || isBuildOutput(files, there)) continue;
        if (found.length >= MAX_MIRROR_CHECKS) return 'limit';
        found.push(there);
      }
    }
  }
  return found;
}

/** The work tree holding `path` and the path within it; undefined outside one (or for its top itself). */
function inWorkTree(files: FileView, path: string): { top: string; rel: string } | undefined {
  const top = findTopLevel(files, posix.dirname(path));
  if (top === undefined) return undefined;
  const rel = posix.relative(top, path);
  return rel === '' || rel.startsWith('..') ? undefined : { top, rel };
}

/**
 * Whether `path` is a tracked file that holds what the index holds: every change made to it from now
 * on is the writer's own (core records it so: session-files.ts). False without a repository or an
 * answer.
 */
export function matchesIndexNow(files: FileView, path: string): boolean {
  if (!path.startsWith('/')) return false;
  const at = inWorkTree(files, path);
  return at !== undefined && files.matchesIndex?.(at.top, at.rel) === true;
}

/** What each segment marked `build_outputs` removes (its operands, not its redirections), and what said so. */
const REMOVED = new WeakMap<ShellSegment, { paths: readonly string[]; outputs: BuildOutputs }>();

/**
 * Marks `segment` as removing only build output (buildOutputs said so). What that relied on is kept
 * for the facts (`relies_on`): core refuses the removal if the session ever wrote any of it.
 */
export function markBuildOutputs(
  segment: ShellSegment,
  paths: readonly string[],
  outputs: BuildOutputs,
): void {
  segment.build_outputs = true;
  REMOVED.set(segment, { paths, outputs });
}

/** What the removals still judged build output remove (BuildOutputs.removed), for ShellFacts.removes. */
export function removedOutputs(segments: readonly ShellSegment[]): string[] {
  const out = new Set<string>();
  for (const segment of segments) {
    const outputs = segment.build_outputs ? REMOVED.get(segment)?.outputs : undefined;
    for (const path of outputs?.removed ?? []) out.add(path);
  }
  return [...out];
}

/**
 * The files this parse let the command pass on: what removals still judged build output relied on
 * (after settleBuildOutputs), and tools run unjudged as installed (noteRelied).
 */
export function reliedOn(res: Resolver, segments: readonly ShellSegment[]): string[] {
  const out = new Set<string>(reliedFiles(res));
  for (const segment of segments) {
    const outputs = segment.build_outputs ? REMOVED.get(segment)?.outputs : undefined;
    for (const file of [...(outputs?.consulted ?? []), ...(outputs?.paths ?? [])]) out.add(file);
  }
  return [...out];
}

function regenerable(files: FileView, path: string, consulted: Set<string>, relied: Set<string>): boolean {
  const top = findTopLevel(files, posix.dirname(path));
  if (top === undefined) return false;
  const rel = posix.relative(top, path);
  if (rel === '' || rel.startsWith('..') || rel.startsWith('/')) return false;
  const parts = rel.split('/');
  if (parts.includes('.git')) return false;
  // No symlink on the way (rm -r follows one named with a trailing slash, or one on the way to a
  // deeper operand), and no repository of its own inside (a clone kept in an ignored directory).
  const real = files.realpath(path);
  if (real !== undefined && real !== posix.join(top, rel)) return false;
  if (real !== undefined && files.realpath(posix.join(path, '.git')) !== undefined) return false;
  // Not there (nor a dangling link): removing it removes nothing, whatever its name.
  const absent = isAbsent(files, path);
  const gitDir = findGitDir(files, top, { entries: [], unreadable: false });
  if (gitDir === undefined) return false;
  // The directories on the way, and the removed one as a tree: anything the session put below it.
  for (let k = 1; k < parts.length; k++) relied.add(posix.join(top, ...parts.slice(0, k)));
  relied.add(`${path}/`);
  const ignored = ignoredDir(files, top, gitDir, parts, consulted);
  // An ignore file with a second name (`link .gitignore gi`) may have been written under that one.
  if ([...consulted].some((file) => (files.links?.(file) ?? 1) > 1)) return false;
  if (ignored === undefined || !(absent || OUTPUT_NAMES.has(ignored) || OUTPUT_PATTERN.test(ignored)))
    return false;
  // What git has (staged, or in HEAD: a file taken out of the index with `git rm --cached` is still
  // there) is not output; asked of git itself, and unknown counts as tracked.
  return files.tracked?.(top, rel) === false;
}

/**
 * The name of the first directory on the way to the path (the path included) that the ignore files
 * ignore, or undefined: git does not look below an ignored directory, so the first one decides.
 */
function ignoredDir(
  files: FileView,
  top: string,
  gitDir: string,
  parts: readonly string[],
  consulted: Set<string>,
): string | undefined {
  const exclude = posix.join(gitDir, 'info', 'exclude');
  consulted.add(exclude);
  const levels: Array<{ base: string; rules: Matcher | undefined }> = [
    { base: '', rules: rulesOf(files, exclude) },
  ];
  for (let k = 0; k < parts.length; k++) {
    const base = parts.slice(0, k).join('/');
    const file = posix.join(top, base, '.gitignore');
    consulted.add(file);
    levels.push({ base, rules: rulesOf(files, file) });
    if (isIgnored(levels, parts.slice(0, k + 1).join('/'))) return parts[k];
  }
  return undefined;
}

function rulesOf(files: FileView, path: string): Matcher | undefined {
  const text = files.readText(path, MAX_IGNORE_BYTES);
  // git compares names case-sensitively unless core.ignorecase says otherwise (not read: stricter).
  return text === undefined ? undefined : ignore({ ignorecase: false }).add(text);
}

/** git's precedence: the deepest ignore file with a rule for the directory decides, info/exclude last. */
function isIgnored(
  levels: ReadonlyArray<{ base: string; rules: Matcher | undefined }>,
  dir: string,
): boolean {
  for (let k = levels.length - 1; k >= 0; k--) {
    const { base, rules } = levels[k] as { base: string; rules: Matcher | undefined };
    if (rules === undefined) continue;
    const verdict = rules.test(`${base === '' ? dir : dir.slice(base.length + 1)}/`);
    if (verdict.ignored) return true;
    if (verdict.unignored) return false;
  }
  return false;
}

/**
 * Where each segment runs in the command: its place in the text, and whether it runs there, once
 * (not in a loop, a function, a background job or pipeline, or what another program runs).
 */
const ORDER = new WeakMap<ShellSegment, { at: number; inOrder: boolean }>();
const SEQUENCE = {};

export function noteOrder(segment: ShellSegment, res: Resolver, inOrder: boolean): void {
  const counter = res.slot(SEQUENCE, () => ({ next: 0 }));
  ORDER.set(segment, { at: counter.next++, inOrder });
}

/** Whether `later` surely runs after `first` has finished: both in order, `later` after it in the text. */
function runsAfter(later: ShellSegment, first: ShellSegment): boolean {
  const a = ORDER.get(first);
  const b = ORDER.get(later);
  return a !== undefined && b !== undefined && a.inOrder && b.inOrder && b.at > a.at;
}

/** Writers that only make empty directories or files: they cannot put anything of value, or a link, in a removed path. */
const EMPTY_MAKERS: ReadonlySet<string> = new Set(['mkdir', 'touch']);

/**
 * After the walk, with every segment's writes known: a removal judged regenerable stays so only when
 * no other part of the command that may run before it writes where it removes (`mv src dist && rm -rf
 * dist`, `ln -s ../notes dist && rm -rf dist/`, either in a loop or a background job).
 */
export function settleBuildOutputs(segments: readonly ShellSegment[]): void {
  // A write was resolved against the tree as it is now: in a directory a removal takes away first,
  // it may land in the directory itself (`rm -rf d; cp -r src d` fills d, not d/src).
  const gone = segments.flatMap((s) => (s.build_outputs ? (REMOVED.get(s)?.paths ?? []) : []));
  const landsElsewhere = (w: string, r: string) => {
    const dir = posix.dirname(w);
    return gone.some((g) => dir === g || dir.startsWith(`${g}/`)) && overlaps(dir, r);
  };
  for (const removal of segments) {
    if (!removal.build_outputs) continue;
    const entry = REMOVED.get(removal);
    const removed = entry?.paths ?? [];
    const consulted = entry?.outputs.consulted ?? [];
    // An ignore file written by the same command (`echo 'build/' >> .gitignore && rm -rf build`)
    // was read before it changed.
    // git putting other content in the work tree (a stash popped into it) is a write there too.
    // What runs once the removal is done cannot have put anything where it removed.
    const fills = (other: ShellSegment) =>
      other !== removal &&
      !runsAfter(other, removal) &&
      (other.writes_unresolved === true ||
        rewritesWorkTree(other) ||
        (other.writes ?? []).some((w) => consulted.includes(w)) ||
        (!other.build_outputs &&
          !EMPTY_MAKERS.has(other.program) &&
          (other.writes ?? []).some((w) => removed.some((r) => overlaps(w, r) || landsElsewhere(w, r)))));
    if (segments.some(fills)) delete removal.build_outputs;
  }
}

/**
 * Marks a move with where it puts what it moves, when that loses it: into build output (whose
 * removal passes) from outside it, or into nothing (`/dev/null`, an archive on stdout or a pipe).
 */
export function noteMovesInto(segment: ShellSegment, res: Resolver): void {
  const moved = segment.moves ?? [];
  const files = res.files;
  // A move whose sources cannot be told (`mv "$X" dist/`) may move anything: its static words say where.
  const mover = segment.program === 'mv' || (segment.program === 'git' && segment.subcommand === 'mv');
  const unknown = segment.writes_unresolved === true;
  if (moved.length === 0 && !(mover && unknown)) return;
  const to = (segment.writes ?? []).filter((w) => !moved.includes(w));
  if (!unknown && to.every((w) => w.startsWith('/dev/'))) {
    segment.moves_into = 'nothing';
    return;
  }
  if (files === undefined) return;
  const named = unknown ? segment.args.flatMap((word) => staticPaths(res, optionValue(word))) : [];
  // Into build output, or under a name a find cleanup deletes by (`mv notes notes.o`).
  const output = (w: string) => isBuildOutput(files, w) || w.split('/').some(cleanupName);
  if (![...to, ...named].some(output)) return;
  // Output moved about within output loses nothing.
  if (!unknown && moved.every(output)) return;
  segment.moves_into = 'output';
}

/** A word, or the value an option carries in it (`--target-directory=dist`, `-tdist`); '' for a bare option. */
function optionValue(word: string): string {
  if (!word.startsWith('-')) return word;
  const eq = word.indexOf('=');
  if (word.startsWith('--')) return eq < 0 ? '' : word.slice(eq + 1);
  return word.length > 2 ? word.slice(2) : '';
}

function staticPaths(res: Resolver, word: string): readonly string[] {
  if (word === '') return [];
  const { paths, unresolved } = res.paths(word);
  return unresolved ? [] : paths;
}

/** Whether a write `a` lands where `b` removes: the same path, below or above it; anywhere in the directory of a pattern. */
function overlaps(a: string, b: string): boolean {
  if (GLOB.test(b)) b = posix.dirname(b);
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}
