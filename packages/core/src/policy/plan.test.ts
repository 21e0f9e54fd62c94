// The evaluation plan: built once per candidate list, every entry of one shape, and the program
// index pointing at exactly the program-bound rules, in rule order.

import { parseShell } from '@tollgate/shell';
import { describe, expect, it } from 'vitest';
import { classifyNormalised } from '../classify.js';
import { compilePolicy } from './compile.js';
import { planOf } from './plan.js';

const rule = (id: string, segment?: object) => ({
  id,
  description: id,
  tool: 'shell',
  class: 'irreversible',
  severity: 'high',
  ...(segment ? { match: { segment } } : {}),
});
const doc = {
  rules: [
    rule('any-segment', {
      type: 'object',
      required: ['program'],
      properties: { program: { type: 'string' } },
    }),
    rule('rm', { type: 'object', required: ['program'], properties: { program: { const: 'rm' } } }),
    rule('no-match'),
    rule('rm-or-git', {
      type: 'object',
      required: ['program'],
      properties: { program: { enum: ['git', 'rm'] } },
    }),
    // Gated (segment-gate.ts): any redirection to /etc, or tee whatever its target.
    rule('etc-redirect-or-tee', {
      type: 'object',
      anyOf: [
        {
          type: 'object',
          required: ['redirects'],
          properties: {
            redirects: {
              type: 'array',
              contains: { type: 'object', properties: { target: { type: 'string', pattern: '^/etc/' } } },
            },
          },
        },
        { type: 'object', required: ['program'], properties: { program: { const: 'tee' } } },
      ],
    }),
  ],
};

describe('planOf', () => {
  const candidates = compilePolicy([{ file: 'mem', text: '', doc }]).rulesFor('shell');

  it('is built once per candidate list', () => {
    expect(planOf(candidates)).toBe(planOf(candidates));
  });

  it('indexes the program-bound rules by program, in rule order', () => {
    const plan = planOf(candidates);
    expect(Object.fromEntries(plan.byProgram)).toEqual({ rm: [1, 3], git: [3], tee: [4] });
    expect(plan.entries.map((e) => [e.compiled.rule.id, e.programs ? [...e.programs].sort() : null])).toEqual(
      [
        ['any-segment', null],
        ['rm', ['rm']],
        ['no-match', null],
        ['rm-or-git', ['git', 'rm']],
        ['etc-redirect-or-tee', ['tee']],
      ],
    );
    expect(plan.byList).toEqual([['redirects', [4]]]);
    expect(plan.entries.map((e) => e.lists ?? null)).toEqual([null, null, null, null, ['redirects']]);
  });

  it('matches a gated rule on its program or on a segment whose list is non-empty, and not elsewhere', () => {
    const policy = compilePolicy([{ file: 'mem', text: '', doc }]);
    const rulesOf = (command: string) => {
      const call = { tool: 'shell', args: { command } };
      return classifyNormalised(policy, call, { ...call, facts: parseShell(command) }).rules;
    };
    expect(rulesOf('echo x > /etc/motd')).toContain('etc-redirect-or-tee');
    expect(rulesOf('ls; echo x > /etc/motd')).toContain('etc-redirect-or-tee');
    expect(rulesOf('tee out.txt')).toContain('etc-redirect-or-tee');
    expect(rulesOf('echo x > notes.txt')).not.toContain('etc-redirect-or-tee');
    expect(rulesOf('cat /etc/motd')).not.toContain('etc-redirect-or-tee');
  });

  it('gives every entry the same keys', () => {
    const keys = planOf(candidates).entries.map((e) => Object.keys(e).join(','));
    expect(new Set(keys).size).toBe(1);
  });
});
