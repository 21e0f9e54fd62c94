// Whether `rm -r` removes only what a build makes again: every path lies in (or is) a directory
// named as build tools name their output (`dist`, `node_modules`, `target`, `__pycache__`, …) that
// the repository's own ignore files ignore, holds no file git tracks, and is reached without a
// symlink. Each condition is read from the repository as it stands; what the judgement relied on is
// returned so that the gate can refuse it when the session wrote it (a `.gitignore` the agent
// edited, a tree it moved files into) — see facts.ts for writes by the same command.
import { posix } from 'node:path';
import ignore from 'ignore';
import type { FileView } from './files.js';
import { findGitDir, findTopLevel } from './git-config.js';
import type { ShellSegment } from './types.js';

/** Programs that only remove what they are given. */
export const REMOVERS: ReadonlySet<string> = new Set(['rm', 'rimraf']);

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
]);
/** Output directories named after the project or configuration (`pkg.egg-info`, `cmake-build-debug`). */
const OUTPUT_PATTERN = /^(.+\.egg-info|cmake-build-[\w.-]+)$/;

/** Largest index read: a larger one is not searched, and nothing is taken for regenerable. */
const MAX_INDEX_BYTES = 32 * 1024 * 1024;
/** Largest ignore file read. */
const MAX_IGNORE_BYTES = 256 * 1024;

export interface BuildOutputs {
  /** The ignore files the judgement read or would have read (`.gitignore` on the way down, info/exclude). */
  consulted: string[];
  /** The paths removed as build-output trees (the others are files, which -r removes as rm does). */
  trees: string[];
}

type Matcher = ReturnType<typeof ignore>;

/**
 * When every absolute path in `paths` is regenerable build output of the repository it lies in, or
 * a file that is there now (-r removes a file as plain rm does): what that relied on. Undefined when
 * any one is not, or cannot be told.
 */
export function buildOutputs(files: FileView, paths: readonly string[]): BuildOutputs | undefined {
  const consulted = new Set<string>();
  const trees: string[] = [];
  for (const path of paths) {
    // A glob character left in a path (a pattern rimraf expands itself, `dist/{,../src}`) says
    // nothing about what goes.
    if (!path.startsWith('/') || path !== posix.normalize(path) || /[*?[\]{}!]/.test(path)) return undefined;
    if (files.realpath(path) !== undefined && files.readdir(path) === undefined) continue;
    if (!regenerable(files, path, consulted)) return undefined;
    trees.push(path);
  }
  return { consulted: [...consulted], trees };
}

/** What each segment marked `build_outputs` removes: all its operands, and those that are trees. */
const REMOVED = new WeakMap<ShellSegment, { paths: readonly string[]; trees: readonly string[] }>();

/** Marks `segment` as removing only build output (buildOutputs said so). */
export function markBuildOutputs(
  segment: ShellSegment,
  paths: readonly string[],
  trees: readonly string[],
): void {
  segment.build_outputs = true;
  REMOVED.set(segment, { paths, trees });
}

function regenerable(files: FileView, path: string, consulted: Set<string>): boolean {
  const top = findTopLevel(files, posix.dirname(path));
  if (top === undefined) return false;
  const rel = posix.relative(top, path);
  if (rel === '' || rel.startsWith('..') || rel.startsWith('/')) return false;
  const parts = rel.split('/');
  if (parts.includes('.git')) return false;
  // No symlink on the way (rm follows none, but the name would then not say what is removed), and
  // no repository of its own inside (a clone kept in an ignored directory is not output).
  const real = files.realpath(path);
  if (real !== undefined && real !== posix.join(top, rel)) return false;
  if (real !== undefined && files.realpath(posix.join(path, '.git')) !== undefined) return false;
  const gitDir = findGitDir(files, top, { entries: [], unreadable: false });
  if (gitDir === undefined) return false;
  const ignored = ignoredOutput(files, top, gitDir, parts, consulted);
  return ignored && !tracked(files, gitDir, rel);
}

/**
 * True when some directory on the way to the path (the path included) has an output name and is
 * ignored. git does not look below an ignored directory, so the first ignored one decides.
 */
function ignoredOutput(
  files: FileView,
  top: string,
  gitDir: string,
  parts: readonly string[],
  consulted: Set<string>,
): boolean {
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
    const dir = parts.slice(0, k + 1).join('/');
    if (isIgnored(levels, dir))
      return OUTPUT_NAMES.has(parts[k] as string) || OUTPUT_PATTERN.test(parts[k] as string);
  }
  return false;
}

function rulesOf(files: FileView, path: string): Matcher | undefined {
  const text = files.readText(path, MAX_IGNORE_BYTES);
  return text === undefined ? undefined : ignore().add(text);
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
 * Whether the index may hold a file at or below `rel`. Index versions 2 and 3 store each path whole,
 * so a search of the file finds them (a match elsewhere only keeps the removal gated); version 4
 * compresses paths, and a split index keeps them in another file: neither is taken for untracked.
 */
function tracked(files: FileView, gitDir: string, rel: string): boolean {
  const index = posix.join(gitDir, 'index');
  if (files.realpath(index) === undefined) return false;
  const head = files.readHead?.(index, 8);
  if (head === undefined || head.length < 8 || !head.startsWith('DIRC')) return true;
  const version = head.charCodeAt(7);
  if (version !== 2 && version !== 3) return true;
  if ((files.readdir(gitDir) ?? []).some((name) => name.startsWith('sharedindex.'))) return true;
  return files.search?.(index, [`${rel}/`, `${rel}\0`], MAX_INDEX_BYTES) ?? true;
}

/**
 * A removal judged regenerable stays so only when no other part of the command may move something
 * into what it removes (`mv src dist && rm -rf dist`), in whatever order a loop runs them; then each
 * removed directory is `noted` as a tree, so that core refuses it when the session wrote into it
 * before (a move in an earlier call).
 */
export function settleBuildOutputs(segments: readonly ShellSegment[], note: (path: string) => void): void {
  for (const removal of segments) {
    if (!removal.build_outputs) continue;
    const { paths: removed, trees } = REMOVED.get(removal) ?? { paths: [], trees: [] };
    const fills = (other: ShellSegment) =>
      other !== removal &&
      !other.build_outputs &&
      (other.writes_unresolved === true ||
        ((other.moves?.length ?? 0) > 0 &&
          (other.writes ?? []).some((w) => removed.some((r) => overlaps(w, r)))));
    if (segments.some(fills)) {
      delete removal.build_outputs;
      continue;
    }
    for (const tree of trees) note(`${tree}/`);
  }
}

function overlaps(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}
