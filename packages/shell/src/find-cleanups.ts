// `find . -name '*.pyc' -delete`, `find . -type d -name __pycache__ -exec rm -rf {} +`: a clean of
// what compilers and test runners make again, as the friction of every Python and C project knows
// it. It passes only in a form whose reach is plain: start points in a git work tree, given as
// written; tests that only narrow (`-type`, `-path`, negated `-path`/`-name`, depths) joined by
// nothing but "and"; every positive `-name` a compiled file or a cache directory; the deletion last
// (`-delete` first deletes everything; `-o` or a comma would give it a second set of files).
// The same find ending in `-print0` instead, piped to `xargs -0 rm`, is the same clean: the names
// travel NUL-separated, so none is split into others (a plain `-print | xargs rm` splits
// `a.txt b.pyc` into two files, `a.txt` among them, and is still gated).
import { findTopLevel } from './git-config.js';
import type { Resolver } from './resolve.js';
import type { ShellSegment } from './types.js';

/** Cache directories of compilers and test runners: made again on the next run. */
const CACHE_DIRS: ReadonlySet<string> = new Set([
  '__pycache__',
  '.pytest_cache',
  '.mypy_cache',
  '.ruff_cache',
  '.hypothesis',
]);
/** A name, or a `*` pattern, of compiled output only: bytecode, objects, classes, TypeScript's build info. */
const COMPILED = /^(\*|[\w.-]+)\.(pyc|pyo|o|obj|class|tsbuildinfo)$/i;

/**
 * Whether a file or directory name is one a find cleanup deletes by: a compiled file's, a cache's,
 * in any case (`-iname '*.o'` finds `notes.O`).
 */
export function cleanupName(name: string): boolean {
  return CACHE_DIRS.has(name.toLowerCase()) || (COMPILED.test(name) && !name.startsWith('*'));
}

/** Tests that only narrow what is found, with how many values each takes. */
const NARROWING: ReadonlyMap<string, number> = new Map([
  ['-type', 1],
  ['-path', 1],
  ['-wholename', 1],
  ['-maxdepth', 1],
  ['-mindepth', 1],
  ['-depth', 0],
  ['-print', 0],
]);
const NEGATED_TESTS = new Set(['-path', '-wholename', '-name', '-iname']);
const RM_OPTIONS = /^(-[rRfv]+|--recursive|--force|--verbose)$/;
const RM_PROGRAMS: ReadonlySet<string> = new Set(['rm', '/bin/rm', '/usr/bin/rm']);

export interface FindCleanup {
  /** The start points, resolved: what is found lies below them. */
  starts: string[];
  /** True: the find deletes what it finds itself; false: it prints the names NUL-separated (`-print0`), for a remover down the pipe. */
  deletes: boolean;
  /**
   * It may find a directory under a compiled file's name (no `-type f`): `mv notes notes.o` makes
   * one, so a remover that recurses (`rm -r`) may not take what it finds.
   */
  dirsToo: boolean;
}

/**
 * The start points of `find ARGV` (the whole command line, `-exec … +` included), resolved, when it
 * finds only compiled files and cache directories below start points in a git work tree and deletes
 * them, or prints them with `-print0` as its only and last action; undefined otherwise.
 * `unresolved` marks words that are not static.
 */
export function findCleanup(
  res: Resolver,
  argv: readonly string[],
  unresolved: readonly boolean[],
): FindCleanup | undefined {
  if (unresolved.some(Boolean) || res.files === undefined) return undefined;
  let i = 1;
  const words: string[] = [];
  for (; i < argv.length && !/^[-(!,]/.test(argv[i] as string); i++) words.push(argv[i] as string);
  const starts = startsInRepository(res, words.length > 0 ? words : ['.']);
  if (starts === undefined) return undefined;
  let names = 0;
  let deletes = false;
  let compiled = false;
  let recursive = false;
  const typeFile = argv.some((a, k) => a === '-type' && argv[k + 1] === 'f');
  while (i < argv.length) {
    const arg = argv[i] as string;
    if (deletes && arg !== '-delete' && arg !== '-exec' && arg !== '-execdir' && arg !== '-print')
      return undefined;
    if (arg === '-name' || arg === '-iname') {
      const pattern = argv[i + 1] ?? '';
      if (!CACHE_DIRS.has(pattern) && !COMPILED.test(pattern)) return undefined;
      if (!CACHE_DIRS.has(pattern.toLowerCase())) compiled = true;
      names++;
      i += 2;
    } else if (arg === '-not' || arg === '!') {
      if (!NEGATED_TESTS.has(argv[i + 1] ?? '') || argv[i + 2] === undefined) return undefined;
      i += 3;
    } else if (NARROWING.has(arg)) {
      i += 1 + (NARROWING.get(arg) as number);
    } else if (arg === '-delete') {
      deletes = true;
      i++;
    } else if (arg === '-exec' || arg === '-execdir') {
      const found = removesFound(argv, i + 1);
      if (found === undefined) return undefined;
      deletes = true;
      recursive ||= found.recursive;
      i = found.end + 1;
    } else if (arg === '-print0' && i === argv.length - 1 && !deletes && !argv.includes('-print')) {
      return names > 0 ? { starts, deletes: false, dirsToo: compiled && !typeFile } : undefined;
    } else return undefined;
  }
  const dirsToo = compiled && !typeFile;
  if (dirsToo && recursive) return undefined;
  return deletes && names > 0 ? { starts, deletes: true, dirsToo } : undefined;
}

/** Find segments that print a clean's names NUL-separated. */
const PRINTED = new WeakMap<ShellSegment, FindCleanup>();

export function notePrintedClean(segment: ShellSegment, cleanup: FindCleanup): void {
  PRINTED.set(segment, cleanup);
}

/** The clean `segment` prints (a find ending in `-print0`), or undefined. */
export function printedClean(segment: ShellSegment): FindCleanup | undefined {
  return PRINTED.get(segment);
}

/** `xargs` options a piped clean may carry: NUL-separated items (required), and no run on none. */
const XARGS_CLEAN = /^(-0|--null|-r|--no-run-if-empty|-0r|-r0)$/;

/**
 * Whether `xargs ARGV` removes exactly the NUL-separated names it reads: `xargs -0 [-r] rm
 * [-rf…] [--]`, nothing else on the line (no `-I`, no other program, no operand of its own).
 */
export function xargsRemovesItems(
  argv: readonly string[],
  unresolved: readonly boolean[],
  /** What is piped in may hold a directory under a compiled file's name: no recursive removal. */
  dirsToo: boolean,
): boolean {
  if (unresolved.some(Boolean)) return false;
  let k = 1;
  let nul = false;
  for (; k < argv.length && (argv[k] as string).startsWith('-'); k++) {
    const arg = argv[k] as string;
    if (!XARGS_CLEAN.test(arg)) return false;
    if (arg.includes('0') || arg === '--null') nul = true;
  }
  if (!nul || !RM_PROGRAMS.has(argv[k] ?? '')) return false;
  k++;
  const from = k;
  while (RM_OPTIONS.test(argv[k] ?? '')) k++;
  if (dirsToo && argv.slice(from, k).some(recurses)) return false;
  if (argv[k] === '--') k++;
  return k === argv.length;
}

/** An rm option that removes directories with what they hold. */
const recurses = (option: string) => option === '--recursive' || /^-[a-zA-Z]*[rR]/.test(option);

/**
 * The index of the `;` or `+` ending `rm [OPTIONS] {}`, and whether the options recurse; undefined
 * when the command is anything else.
 */
function removesFound(
  argv: readonly string[],
  from: number,
): { end: number; recursive: boolean } | undefined {
  if (!RM_PROGRAMS.has(argv[from] ?? '')) return undefined;
  let k = from + 1;
  while (RM_OPTIONS.test(argv[k] ?? '')) k++;
  const recursive = argv.slice(from + 1, k).some(recurses);
  if (argv[k] === '--') k++;
  if (argv[k] !== '{}') return undefined;
  return argv[k + 1] === ';' || argv[k + 1] === '+' ? { end: k + 1, recursive } : undefined;
}

/** The start points resolved, when each is static, has no `..` and lies in a git work tree; undefined otherwise. */
function startsInRepository(res: Resolver, starts: readonly string[]): string[] | undefined {
  const files = res.files;
  if (files === undefined) return undefined;
  const out: string[] = [];
  for (const start of starts) {
    if (start.split('/').includes('..')) return undefined;
    const { paths, unresolved } = res.paths(start);
    if (unresolved || paths.length === 0) return undefined;
    for (const p of paths) {
      if (!p.startsWith('/') || p === '/' || findTopLevel(files, p) === undefined) return undefined;
      out.push(p);
    }
  }
  return out;
}
