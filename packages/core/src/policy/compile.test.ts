import { describe, expect, it } from 'vitest';
import { TollgateFault } from '../faults.js';
import { compilePolicy } from './compile.js';

function faultOf(text: string): TollgateFault {
  try {
    compilePolicy([{ file: 'team.yaml', text }]);
  } catch (error) {
    if (error instanceof TollgateFault) return error;
    throw error;
  }
  throw new Error('expected a policy fault');
}

const rule = (extra: string) => `rules:
  - id: deploy.prod
    description: deploys to production
    tool: deploy
    class: irreversible
    severity: high
${extra}`;

describe('compilePolicy', () => {
  it('names the file, the rule id and the JSON path of a schema problem', () => {
    const fault = faultOf(rule('    severity_typo: 1'));
    expect(fault.code).toBe('policy_invalid');
    expect(fault.message).toBe(
      'team.yaml rule deploy.prod at /rules/0/severity_typo: /rules/0 has an unknown field "severity_typo"',
    );
  });

  it('names the rule whose predicate is not a valid JSON Schema', () => {
    const fault = faultOf(rule('    match:\n      args: { type: object, propertiez: {} }'));
    expect(fault.message).toContain(
      'team.yaml rule deploy.prod at /rules/0/match/args: predicate is not a valid JSON Schema',
    );
  });

  it('names the rule and path of an evidence matcher that is not a valid JSON Schema', () => {
    const fault = faultOf(
      rule(
        '    evidence:\n      accept:\n        - tool: shell\n          segment: { type: object, propertiez: {} }',
      ),
    );
    expect(fault.code).toBe('policy_invalid');
    expect(fault.message).toContain(
      'team.yaml rule deploy.prod at /rules/0/evidence/accept/0/segment: predicate is not a valid JSON Schema',
    );
    expect(
      faultOf(rule('    evidence:\n      accept:\n        - { tool: shell, related: nearby }')).message,
    ).toContain('rule deploy.prod at /rules/0/evidence/accept/0/related');
  });

  it('refuses YAML that does not parse, and duplicate rule ids', () => {
    expect(faultOf('rules: [').message).toMatch(/^team\.yaml: not valid YAML/);
    const twice = `${rule('')}  - id: deploy.prod\n    description: again\n    tool: x\n    class: irreversible\n    severity: low\n`;
    expect(faultOf(twice).message).toBe('team.yaml rule deploy.prod: id already defined in team.yaml');
  });

  it('indexes rules by exact tool name and by glob', () => {
    const policy = compilePolicy([
      {
        file: 'p.yaml',
        text: `rules:
  - { id: a, description: a, tool: [write_file, move_file], class: irreversible, severity: high }
  - { id: b, description: b, tool: 'delete_*', class: irreversible, severity: high }
  - { id: c, description: c, tool: '*', class: irreversible, severity: low, enabled: false }
`,
      },
    ]);
    expect(policy.rulesFor('move_file').map((r) => r.rule.id)).toEqual(['a']);
    expect(policy.rulesFor('delete_entities').map((r) => r.rule.id)).toEqual(['b']);
    expect(policy.rulesFor('read_file')).toEqual([]);
    expect(policy.byId('c')).toBeUndefined();
  });
});
