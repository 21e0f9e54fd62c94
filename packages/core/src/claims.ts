// Claims: whether each one could turn out false before the call, and afterwards whether the
// observed post-state matched it.
import type { Claim, ClaimResult, Reason } from '@tollgate/contracts';
import { ownText } from './call.js';
import { reason } from './reasons.js';
import { quoted } from './sanitise.js';
import { containsFolded, foldWhitespace } from './text-match.js';

export interface ObservedOutput {
  output: string;
  exit_code?: number;
}

/** Problems that make a claim unfalsifiable; `isRead` says whether a subject is something the gate can re-read. */
export function falsifiabilityProblems(
  claims: readonly Claim[],
  pathPrefix: string,
  isRead: (claim: Claim) => boolean,
): Reason[] {
  const problems: Reason[] = [];
  for (const [i, claim] of claims.entries()) {
    const path = `${pathPrefix}/${i}`;
    const why = unfalsifiable(claim);
    if (why) problems.push(reason('claim_not_falsifiable', `claim ${path} ${why}`, path));
    else if (!isRead(claim)) {
      problems.push(
        reason(
          'claim_not_falsifiable',
          `claim ${path} has a subject that is not a read (it would change state, or cannot be resolved); name a read-only command or tool call whose output shows the post-state`,
          `${path}/subject`,
        ),
      );
    }
  }
  return problems;
}

function unfalsifiable(claim: Claim): string | undefined {
  const subject = claim.subject;
  if (typeof subject === 'string' ? subject.trim() === '' : subject.tool.trim() === '')
    return 'has an empty subject';
  const value = claim.value;
  if (echoesItself(claim)) {
    return `expects ${quoted(String(value), 60)}, which its own subject already carries, so the read would show it whatever the state; name a read whose output depends on the state`;
  }
  switch (claim.op) {
    case 'contains':
    case 'not_contains':
      return typeof value === 'string' && foldWhitespace(value) !== ''
        ? undefined
        : 'needs a non-empty value';
    case 'matches': {
      if (typeof value !== 'string') return 'needs a pattern';
      let re: RegExp;
      try {
        re = new RegExp(value, 'u');
      } catch (error) {
        return `has a pattern that does not compile: ${(error as Error).message}`;
      }
      if (re.test('')) return `has a pattern ${quoted(value, 60)} that matches any output`;
      const risky = riskyPattern(value);
      return risky
        ? `has a pattern ${quoted(value, 60)} with ${risky}, which can take exponential time; write a simpler pattern`
        : undefined;
    }
    case 'eq':
    case 'ne':
      return value === null || value === undefined
        ? 'compares with null; use "absent" or "exists"'
        : undefined;
    case 'lt':
    case 'le':
    case 'gt':
    case 'ge':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'needs a finite number';
    default:
      return undefined;
  }
}

// Regex metacharacters: a pattern without any is a literal string.
const REGEX_META = /[\\^$.|?*+()[\]{}]/;

/** A positive claim whose expected value occurs in the subject's own text (`echo X` contains X). */
function echoesItself(claim: Claim): boolean {
  const { op, value } = claim;
  const own = ownText(claim.subject);
  if (typeof value === 'number' && op === 'eq') return foldWhitespace(own).split(' ').includes(String(value));
  if (typeof value !== 'string') return false;
  if (op === 'contains' || op === 'eq' || (op === 'matches' && !REGEX_META.test(value)))
    return containsFolded(own, value);
  return false;
}

/** `matches` looks at no more of an output than this (characters), to bound its cost. */
export const MATCH_WINDOW = 64 * 1024;

/**
 * Why a pattern risks catastrophic backtracking, or undefined: a backreference, or a repeated group
 * that itself contains a quantifier or an alternation (`(a+)+`, `(a|a)*`, `(\w*)*`).
 */
export function riskyPattern(pattern: string): string | undefined {
  const groups: { inner: boolean }[] = [];
  let inClass = false;
  const repeats = (at: number) => {
    const c = pattern[at];
    if (c === '*' || c === '+') return true;
    const bound = c === '{' ? /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(at)) : null;
    if (!bound) return false;
    const max = bound[2] === undefined ? bound[1] : bound[3];
    return max === '' || Number(max) > 1;
  };
  const mark = () => {
    const top = groups.at(-1);
    if (top) top.inner = true;
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (!inClass && (/[1-9]/.test(next) || next === 'k')) return 'a backreference';
      i++;
      if (!inClass && (repeats(i + 1) || pattern[i + 1] === '?')) mark();
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      else continue;
      if (repeats(i + 1) || pattern[i + 1] === '?') mark();
      continue;
    }
    if (c === '[') {
      inClass = true;
      continue;
    }
    if (c === '(') groups.push({ inner: false });
    else if (c === '|') mark();
    else if (c === '*' || c === '+' || c === '?' || c === '{') {
      // A quantifier applies to what precedes it; `?` right after `(` or another quantifier is syntax.
      const prev = pattern[i - 1];
      if (!(c === '?' && (prev === '(' || prev === '*' || prev === '+' || prev === '?' || prev === '}')))
        mark();
    } else if (c === ')') {
      const group = groups.pop();
      const repeated = repeats(i + 1);
      if (group?.inner && repeated) return 'a repeated group that itself repeats or alternates';
      if (group?.inner || repeated) mark();
    }
  }
  return undefined;
}

/** One claim against the observed output of its subject (undefined: nothing was observed). */
export function evaluateClaim(claim: Claim, observed: ObservedOutput | undefined): ClaimResult['result'] {
  if (observed === undefined) return 'unverifiable';
  const out = observed.output;
  const failed = observed.exit_code !== undefined && observed.exit_code !== 0;
  const value = claim.value;
  switch (claim.op) {
    case 'exists':
      return !failed && out.trim() !== '' ? 'matched' : 'mismatched';
    case 'absent':
      return failed || out.trim() === '' ? 'matched' : 'mismatched';
    case 'contains':
      return containsFolded(out, String(value)) ? 'matched' : 'mismatched';
    case 'not_contains':
      return containsFolded(out, String(value)) ? 'mismatched' : 'matched';
    case 'matches': {
      let re: RegExp;
      try {
        re = new RegExp(String(value), 'u');
      } catch {
        return 'unverifiable';
      }
      return re.test(out.slice(0, MATCH_WINDOW)) ? 'matched' : 'mismatched';
    }
    case 'eq':
    case 'ne': {
      const equal =
        typeof value === 'number'
          ? Number(out.trim()) === value
          : foldWhitespace(out) === foldWhitespace(String(value));
      return equal === (claim.op === 'eq') ? 'matched' : 'mismatched';
    }
    default: {
      const n = Number(out.trim());
      if (out.trim() === '' || Number.isNaN(n) || typeof value !== 'number') return 'unverifiable';
      const ok =
        claim.op === 'lt'
          ? n < value
          : claim.op === 'le'
            ? n <= value
            : claim.op === 'gt'
              ? n > value
              : n >= value;
      return ok ? 'matched' : 'mismatched';
    }
  }
}
