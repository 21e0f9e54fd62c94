// Which branch a `git checkout` / `git switch` leaves checked out, so that a later `git push` with
// no destination of its own (`git checkout main && git push`) is read as the push it is. The switch
// may fail and leave the branch where it was, so the branch before stays possible too (resolve.ts).
import { posix } from 'node:path';
import type { Script } from './ast.js';
import type { FileView } from './files.js';
import { findGitDir } from './git-config.js';
import type { ParsedOptions } from './option-model.js';

/** A pipeline of a script being walked: `script.pipelines[index]`. */
export interface PipelineAt {
  script: Script;
  index: number;
}

/**
 * Which repository a git command runs in, for each directory it may run in: the git directory
 * (`--git-dir`/`GIT_DIR` when given; a worktree has its own, with its own HEAD). `?` marks a
 * directory that does not exist yet (a clone or worktree the command makes): it may become anything.
 */
export function switchPlaces(files: FileView, cwds: readonly string[], gitDir: string | undefined): string[] {
  return cwds.map((cwd) => {
    if (gitDir !== undefined) return posix.resolve(cwd, gitDir);
    if (files.realpath(cwd) === undefined) return '?';
    return findGitDir(files, cwd, { entries: [], unreadable: false }) ?? '-';
  });
}

/** A switch whose target can be told, and where it ran. */
export interface Switch {
  branches: string[];
  at: PipelineAt | undefined;
  /** switchPlaces of where it ran. */
  where: string[];
}

/**
 * Whether a command at `later` runs only once the switch has succeeded: the switch is a pipeline
 * of its own (not negated, not after `||`, which may skip it) and every operator from it to `later`
 * in the same and-or list is `&&` (`git checkout -b topic && git commit … && git push`). Anywhere
 * else (`;`, `||`, a nested script) the switch may have failed and left the branch as it was.
 */
export function switchHeld(last: Switch, later: PipelineAt | undefined): boolean {
  const at = last.at;
  if (!at || !later || at.script !== later.script || later.index <= at.index) return false;
  const pipelines = at.script.pipelines;
  const own = pipelines[at.index];
  if (own?.commands.length !== 1 || own.negated || own.joined === '||') return false;
  for (let k = at.index + 1; k <= later.index; k++) if (pipelines[k]?.joined !== '&&') return false;
  return true;
}

/**
 * What the switch does to the checked-out branch: `keeps` it (a path checkout, no operand), checks
 * out one of `branches` (none: a detached HEAD, on which a push without a destination fails), or
 * `unknown` (`-`, `@{-1}`, a word that cannot be told).
 */
export type SwitchEffect = 'keeps' | 'unknown' | { branches: string[] };

const CREATES = /^(-b|-B|--orphan|--create|--force-create)=(.+)$/;

export function switchEffect(
  sub: string,
  args: readonly string[],
  read: ParsedOptions,
  unresolved: boolean,
  remotes: ReadonlySet<string>,
): SwitchEffect {
  if (unresolved) return 'unknown';
  // `git checkout [REV] -- PATH…` and `git checkout -p` change files, not the branch.
  if (sub === 'checkout' && (args.includes('--') || read.canonical.some((o) => /^--patch$/.test(o))))
    return 'keeps';
  for (const option of read.canonical) {
    const m = CREATES.exec(option);
    if (m) return { branches: [m[2] as string] };
  }
  const operands = read.positionals.slice(1);
  if (read.canonical.includes('--detach')) return { branches: [] };
  if (operands.length === 0) return sub === 'checkout' ? 'keeps' : 'unknown';
  // `git checkout REV PATH…` checks paths out of REV.
  if (sub === 'checkout' && operands.length > 1) return 'keeps';
  const word = operands[0] as string;
  if (word === '-' || word.includes('@{')) return 'unknown';
  // A remote's branch (`--track origin/dev`, or DWIM) is checked out as the local branch of its name.
  const slash = word.indexOf('/');
  return {
    branches: slash > 0 && remotes.has(word.slice(0, slash)) ? [word, word.slice(slash + 1)] : [word],
  };
}

/**
 * `git rebase [--onto X] UPSTREAM BRANCH` checks BRANCH out before rebasing it (`--root BRANCH`
 * likewise); without a branch operand the branch stays.
 */
export function rebaseEffect(read: ParsedOptions, unresolved: boolean): SwitchEffect {
  const operands = read.positionals.slice(1);
  const root = read.canonical.includes('--root');
  const branch = root ? operands[0] : operands[1];
  if (branch === undefined) return 'keeps';
  if (unresolved || branch === '-' || branch.includes('@{')) return 'unknown';
  return { branches: [branch] };
}
