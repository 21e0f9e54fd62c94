// Which branch a `git checkout` / `git switch` leaves checked out, so that a later `git push` with
// no destination of its own (`git checkout main && git push`) is read as the push it is. The switch
// may fail and leave the branch where it was, so the branch before stays possible too (resolve.ts).
import type { ParsedOptions } from './option-model.js';

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
  return { branches: slash > 0 ? [word, word.slice(slash + 1)] : [word] };
}
