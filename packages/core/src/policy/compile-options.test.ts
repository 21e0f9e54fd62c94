// compilePolicy options: a pre-parsed document skips YAML, and a predicate source supplies compiled
// predicates (the CLI's precompiled catalogue) with ajv as the fallback when it has none; a schema
// within the fast subset (fast-predicate.ts) is evaluated by its fast form once in steady use.
import { describe, expect, it } from 'vitest';
import { compilePolicy, FAST_AFTER_CALLS, type PredicateSite } from './compile.js';
import { fastForm } from './fast-predicate.js';

const doc = {
  rules: [
    {
      id: 'deploy.prod',
      description: 'deploys to production',
      tool: 'deploy',
      class: 'irreversible',
      severity: 'high',
      match: { args: { type: 'object', required: ['env'], properties: { env: { const: 'prod' } } } },
    },
  ],
};

describe('compilePolicy options', () => {
  it('uses a pre-parsed document instead of the text', () => {
    const policy = compilePolicy([{ file: 'mem', text: 'not: [valid yaml', doc }]);
    expect(policy.byId('deploy.prod')?.args?.({ env: 'prod' })).toBe(true);
  });

  it('asks the predicate source first and tells it where the predicate sits', () => {
    const sites: PredicateSite[] = [];
    const policy = compilePolicy([{ file: 'mem', text: '', doc }], {
      predicates: (_schema, site) => {
        sites.push(site);
        return () => true;
      },
    });
    expect(sites).toEqual([{ file: 'mem', rule: 'deploy.prod', key: 'args', path: '/rules/0/match/args' }]);
    // The source's predicate answers first (a hook classifies one call: no fast form is built)...
    const args = policy.byId('deploy.prod')?.args;
    expect(args?.({ env: 'dev' })).toBe(true);
    // ...and once the predicate is in steady use, the schema's fast form (fast-predicate.ts) does.
    for (let i = 1; i < FAST_AFTER_CALLS - 1; i++) args?.({ env: 'dev' });
    expect(args?.({ env: 'dev' })).toBe(false);
  });

  it("keeps the source's predicate for a schema outside the fast subset", () => {
    const args = { type: 'object', additionalProperties: false, properties: { env: { const: 'prod' } } };
    const rule = { ...doc.rules[0], match: { args } };
    const policy = compilePolicy([{ file: 'mem', text: '', doc: { rules: [rule] } }], {
      predicates: () => () => true,
    });
    const predicate = policy.byId('deploy.prod')?.args;
    for (let i = 0; i < FAST_AFTER_CALLS * 2; i++) expect(predicate?.({ env: 'dev', extra: 1 })).toBe(true);
  });

  it('uses a fast form the source gives as it is, from the first call on', () => {
    // A fast form that answers differently from the schema shows which function answers.
    const given = fastForm(() => true);
    const policy = compilePolicy([{ file: 'mem', text: '', doc }], { predicates: () => given });
    const args = policy.byId('deploy.prod')?.args;
    expect(args).toBe(given);
    for (let i = 0; i < FAST_AFTER_CALLS * 2; i++) expect(args?.({ env: 'dev' })).toBe(true);
  });

  it('falls back to ajv when the source has no predicate', () => {
    const policy = compilePolicy([{ file: 'mem', text: '', doc }], { predicates: () => undefined });
    expect(policy.byId('deploy.prod')?.args?.({ env: 'dev' })).toBe(false);
  });
});
