// The evaluation plan: built once per candidate list, every entry of one shape, and the program
// index pointing at exactly the program-bound rules, in rule order.
import { describe, expect, it } from 'vitest';
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
  ],
};

describe('planOf', () => {
  const candidates = compilePolicy([{ file: 'mem', text: '', doc }]).rulesFor('shell');

  it('is built once per candidate list', () => {
    expect(planOf(candidates)).toBe(planOf(candidates));
  });

  it('indexes the program-bound rules by program, in rule order', () => {
    const plan = planOf(candidates);
    expect(Object.fromEntries(plan.byProgram)).toEqual({ rm: [1, 3], git: [3] });
    expect(plan.entries.map((e) => [e.compiled.rule.id, e.programs ? [...e.programs].sort() : null])).toEqual(
      [
        ['any-segment', null],
        ['rm', ['rm']],
        ['no-match', null],
        ['rm-or-git', ['git', 'rm']],
      ],
    );
  });

  it('gives every entry the same keys', () => {
    const keys = planOf(candidates).entries.map((e) => Object.keys(e).join(','));
    expect(new Set(keys).size).toBe(1);
  });
});
