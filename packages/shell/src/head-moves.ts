// Which commands may change the branch checked out, so that a later push without a destination of
// its own is not read from a stale `.git/HEAD` (resolve.ts possibleBranches). What moves HEAD is
// named: git's switching commands, forge and stacking CLIs that check out branches, a write into
// `.git`, and a git command that cannot be told. Anything else the command runs is either walked
// (a script, a Makefile recipe, an npm script, `sh -c`: their own git commands count), the
// project's own code, or code the gate already refuses as unknown (written by the session, dynamic).
import { GIT_COMMANDS } from './git.js';
import { SHELLS } from './programs.js';
import type { ShellSegment } from './types.js';

/** git subcommands that check out another branch, or rename or repoint the current one. */
const MOVING_GIT = new Set(['checkout', 'switch', 'bisect']);
/**
 * git's external commands (`git-NAME` programs) that check out branches: other external commands
 * (lfs, absorb, …) keep it. An alias is resolved before this is asked; one that cannot be read is
 * refused by itself.
 */
const MOVING_EXTERNAL = new Set([
  'town',
  'flow',
  'branchless',
  'machete',
  'spr',
  'stack',
  'ps',
  // git-extras
  'graft',
  'rename-branch',
  'create-branch',
  'fresh-branch',
  'feature',
  'refactor',
  'bug',
  'chore',
  'pr',
  'mr',
]);
/** CLIs that check out branches themselves (a pull request's, a stack's). */
const BRANCH_TOOLS = new Set([
  'gt',
  'graphite',
  'jj',
  'git-town',
  'spr',
  'ghstack',
  'stg',
  'git-branchless',
  'git-machete',
  'sl',
  'av',
  'repo',
]);
/** Forge CLIs: `pr checkout` (az: `repos pr checkout`) checks out a pull request's branch. */
const FORGES = new Set(['gh', 'hub', 'glab', 'tea', 'az']);

export function movesHead(segment: ShellSegment): boolean {
  // A write into a repository's own files (`.git/HEAD`, `.git/refs/…`) may repoint HEAD.
  if (segment.writes?.some((w) => /(^|\/)\.git(\/|$)/.test(w))) return true;
  const program = segment.program;
  if (BRANCH_TOOLS.has(program)) return true;
  if (FORGES.has(program)) return segment.positionals.some((p) => p === 'checkout' || p === 'co');
  // A `sh -c` string or eval text that could not be read: what it runs is not known.
  if ((SHELLS.has(program) && segment.flags.includes('-c')) || program === 'eval')
    return segment.unresolved === true;
  if (program !== 'git') return false;
  const sub = segment.subcommand ?? '';
  const operands = segment.positionals.slice(1);
  if (segment.unresolved && sub === '') return true;
  if (MOVING_GIT.has(sub)) return true;
  if (!GIT_COMMANDS.has(sub)) return MOVING_EXTERNAL.has(sub);
  const options = [...segment.flags, ...(segment.canonical ?? [])];
  switch (sub) {
    case 'branch':
      // Renaming the current branch (`git branch -m main`, `--mov main`) changes what a push updates.
      return options.some((f) => /^(-m|-M|--move)$/.test(f) || /^--mo(v|ve)?$/.test(f));
    case 'rebase':
      // `git rebase UPSTREAM BRANCH` checks BRANCH out first; otherwise the branch stays (or a
      // stopped rebase leaves HEAD detached, where a push without a destination fails).
      return operands.length >= 2 || (options.includes('--root') && operands.length >= 1);
    case 'symbolic-ref':
      return operands.length > 1;
    case 'update-ref':
      return operands.includes('HEAD') || options.includes('--stdin');
    case 'stash':
      return operands[0] === 'branch';
    default:
      return false;
  }
}
