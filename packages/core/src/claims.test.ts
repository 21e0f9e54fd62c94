import type { Claim } from '@tollgate/contracts';
import { describe, expect, it } from 'vitest';
import { evaluateClaim, falsifiabilityProblems } from './claims.js';

const always = () => true;

describe('falsifiabilityProblems', () => {
  it.each<[string, Claim]>([
    ['empty contains', { subject: 'git rev-parse HEAD', op: 'contains', value: '  ' }],
    ['match-anything pattern', { subject: 'git rev-parse HEAD', op: 'matches', value: '.*' }],
    ['pattern that does not compile', { subject: 'ls', op: 'matches', value: '(' }],
    ['empty subject', { subject: ' ', op: 'exists' }],
    ['null comparison', { subject: 'ls', op: 'eq', value: null }],
  ])('refuses a claim with %s', (_, claim) => {
    const problems = falsifiabilityProblems([claim], '/prediction/claims', always);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ code: 'claim_not_falsifiable', path: '/prediction/claims/0' });
  });

  it('refuses a subject that is not a read', () => {
    const problems = falsifiabilityProblems(
      [{ subject: 'rm -rf build', op: 'absent' }],
      '/p/claims',
      () => false,
    );
    expect(problems[0]).toMatchObject({ code: 'claim_not_falsifiable', path: '/p/claims/0/subject' });
  });

  it('accepts claims that could turn out false', () => {
    const claims: Claim[] = [
      { subject: 'git ls-remote origin refs/heads/main', op: 'contains', value: '3f2a9c1' },
      { subject: 'wc -l f', op: 'gt', value: 3 },
      { subject: 'cat f', op: 'matches', value: '^v\\d+' },
      { subject: { tool: 'read_graph' }, op: 'not_contains', value: 'alice' },
    ];
    expect(falsifiabilityProblems(claims, '/c', always)).toEqual([]);
  });
});

describe('evaluateClaim', () => {
  it('is unverifiable without an observation', () => {
    expect(evaluateClaim({ subject: 'x', op: 'exists' }, undefined)).toBe('unverifiable');
  });

  it.each<[Claim, string, number | undefined, string]>([
    [{ subject: 's', op: 'contains', value: 'a  b' }, 'xx a\nb yy', undefined, 'matched'],
    [{ subject: 's', op: 'contains', value: 'zz' }, 'xx', undefined, 'mismatched'],
    [{ subject: 's', op: 'not_contains', value: 'zz' }, 'xx', undefined, 'matched'],
    [{ subject: 's', op: 'eq', value: 'main' }, 'main\n', undefined, 'matched'],
    [{ subject: 's', op: 'eq', value: 3 }, ' 3 ', undefined, 'matched'],
    [{ subject: 's', op: 'ne', value: 'main' }, 'feat', undefined, 'matched'],
    [{ subject: 's', op: 'matches', value: '^[0-9a-f]{7}' }, '3f2a9c1 refs/heads/main', undefined, 'matched'],
    [{ subject: 's', op: 'lt', value: 10 }, '12', undefined, 'mismatched'],
    [{ subject: 's', op: 'ge', value: 12 }, '12', undefined, 'matched'],
    [{ subject: 's', op: 'gt', value: 1 }, 'not a number', undefined, 'unverifiable'],
    [{ subject: 's', op: 'exists' }, 'data', 0, 'matched'],
    [{ subject: 's', op: 'exists' }, '', 0, 'mismatched'],
    [{ subject: 's', op: 'absent' }, 'No such file', 1, 'matched'],
    [{ subject: 's', op: 'absent' }, 'data', 0, 'mismatched'],
  ])('%o against %j → %s', (claim, output, exit_code, expected) => {
    const observed = exit_code === undefined ? { output } : { output, exit_code };
    expect(evaluateClaim(claim, observed)).toBe(expected);
  });
});

describe('claims that echo their own subject', () => {
  it.each<[string, Claim]>([
    ['contains', { subject: 'echo 3f2a9c1', op: 'contains', value: '3f2a9c1' }],
    ['eq', { subject: 'echo  deployed   ok', op: 'eq', value: 'deployed ok' }],
    ['eq number', { subject: 'echo 42', op: 'eq', value: 42 }],
    ['literal matches', { subject: 'printf released', op: 'matches', value: 'released' }],
    ['tool args', { subject: { tool: 'echo_tool', args: { text: 'v1.5' } }, op: 'contains', value: 'v1.5' }],
  ])('refuses a %s claim whose value is in its subject', (_, claim) => {
    const problems = falsifiabilityProblems([claim], '/p/claims', always);
    expect(problems).toEqual([
      expect.objectContaining({ code: 'claim_not_falsifiable', path: '/p/claims/0' }),
    ]);
    expect(problems[0]?.message).toMatch(/own subject/);
  });

  it('still accepts a value the subject does not carry, and negative claims', () => {
    const claims: Claim[] = [
      { subject: 'git ls-remote origin refs/heads/main', op: 'contains', value: '3f2a9c1' },
      { subject: 'cat version.txt', op: 'not_contains', value: 'version' },
      { subject: 'cat f', op: 'matches', value: '^f\\d' },
    ];
    expect(falsifiabilityProblems(claims, '/c', always)).toEqual([]);
  });
});

describe('patterns from agents', () => {
  it.each([
    '(a+)+$',
    '(a|a)*b',
    '(\\w*)*x',
    '^(x+x+)+y',
    '((ab)*)+c',
    '(a{1,3}){2,}',
    '(a|b){10}',
    '(a)\\1',
    '(?<n>a)\\k<n>',
  ])('refuses the catastrophic or backreferencing pattern %s', (value) => {
    const problems = falsifiabilityProblems([{ subject: 'cat f', op: 'matches', value }], '/c', always);
    expect(problems).toEqual([expect.objectContaining({ code: 'claim_not_falsifiable' })]);
  });

  it.each(['^v\\d+\\.\\d+', '(ab)+c', '[a+]+z', '^(main|master)$', '(\\d{3})?-x', 'a+b*c'])(
    'accepts the ordinary pattern %s',
    (value) => {
      expect(falsifiabilityProblems([{ subject: 'cat f', op: 'matches', value }], '/c', always)).toEqual([]);
    },
  );

  it('evaluates an invalid pattern as unverifiable instead of throwing', () => {
    expect(evaluateClaim({ subject: 's', op: 'matches', value: '(' }, { output: 'x' })).toBe('unverifiable');
  });

  it('matches against the first 64 KiB of output only', () => {
    const output = `${'x'.repeat(64 * 1024)}needle`;
    expect(evaluateClaim({ subject: 's', op: 'matches', value: 'needle' }, { output })).toBe('mismatched');
    expect(evaluateClaim({ subject: 's', op: 'matches', value: '^x' }, { output })).toBe('matched');
  });
});
