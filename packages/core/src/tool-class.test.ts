// classifyTool: a tool's class from its name and hints, with rules winning over hints.
import { describe, expect, it } from 'vitest';
import { compilePolicy } from './policy/compile.js';
import { classifyTool } from './tool-class.js';

const policy = compilePolicy([
  {
    file: 'test.yaml',
    text: JSON.stringify({
      rules: [
        { id: 'fs.write', description: 'w', tool: 'write_file', class: 'irreversible', severity: 'high' },
        {
          id: 'db.drop',
          description: 'd',
          tool: 'query',
          class: 'irreversible',
          severity: 'high',
          match: { args: { type: 'object', properties: { sql: { type: 'string', pattern: 'DROP' } } } },
        },
        {
          id: 'fs.read',
          description: 'r',
          tool: ['read_text_file', 'query'],
          class: 'read-only',
          severity: 'low',
        },
        {
          id: 'edit.dry',
          description: 'r',
          tool: 'edit_file',
          class: 'read-only',
          severity: 'low',
          match: { args: { type: 'object', required: ['dryRun'], properties: { dryRun: { const: true } } } },
        },
        {
          id: 'shell.only',
          description: 'a',
          tool: 'frob',
          action: 'x',
          class: 'irreversible',
          severity: 'low',
        },
      ],
    }),
  },
]);

describe('classifyTool', () => {
  it('an unconditional gating rule makes the tool irreversible, whatever the hints say', () => {
    expect(classifyTool(policy, 'write_file', { readOnlyHint: true })).toEqual({
      class: 'irreversible',
      conditional: false,
      rules: ['fs.write'],
    });
  });

  it('a gating rule with an argument predicate makes the tool conditionally irreversible', () => {
    expect(classifyTool(policy, 'query')).toEqual({
      class: 'irreversible',
      conditional: true,
      rules: ['db.drop'],
    });
  });

  it('read rules without predicates make a read-only tool', () => {
    expect(classifyTool(policy, 'read_text_file')).toEqual({
      class: 'read-only',
      conditional: false,
      rules: ['fs.read'],
    });
  });

  it('a tool named only by conditional read rules is unmatched (and not left to the hints)', () => {
    expect(classifyTool(policy, 'edit_file', { destructiveHint: true })).toEqual({
      class: 'unmatched',
      conditional: true,
      rules: [],
    });
  });

  it('falls back to the annotations when no rule names the tool', () => {
    expect(classifyTool(policy, 'delete_entities', { destructiveHint: true }).class).toBe('irreversible');
    expect(classifyTool(policy, 'delete_entities', {}).class).toBe('irreversible');
    expect(classifyTool(policy, 'read_graph', { readOnlyHint: true }).rules).toEqual([
      'mcp.annotation.read-only',
    ]);
    expect(classifyTool(policy, 'create_entities', { destructiveHint: false }).class).toBe('unmatched');
    expect(classifyTool(policy, 'no_hints').class).toBe('unmatched');
  });

  it('ignores rules bound to an action, as a call without an action would', () => {
    expect(classifyTool(policy, 'frob', { readOnlyHint: true }).class).toBe('unmatched');
  });
});
