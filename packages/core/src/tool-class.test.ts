// classifyTool (and classify, per call): a tool's class from its name and hints. Rules decide, and
// hints may only make the gate stricter: destructiveHint gates what no gating rule matched.
import { describe, expect, it } from 'vitest';
import { classify } from './classify.js';
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

  it('a tool named only by conditional read rules is unmatched unless it says it is destructive', () => {
    for (const hints of [undefined, {}, { destructiveHint: false }, { readOnlyHint: true }]) {
      expect(classifyTool(policy, 'edit_file', hints)).toEqual({
        class: 'unmatched',
        conditional: true,
        rules: [],
      });
    }
    expect(classifyTool(policy, 'edit_file', { destructiveHint: true })).toEqual({
      class: 'irreversible',
      conditional: false,
      rules: ['mcp.annotation.destructive'],
    });
  });

  it('a destructive tool with only conditional gating rules is gated on every call', () => {
    expect(classifyTool(policy, 'query', { destructiveHint: true })).toEqual({
      class: 'irreversible',
      conditional: false,
      rules: ['db.drop', 'mcp.annotation.destructive'],
    });
    expect(classifyTool(policy, 'query', { readOnlyHint: true })).toEqual({
      class: 'irreversible',
      conditional: true,
      rules: ['db.drop'],
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

describe('classify with hints', () => {
  const call = (tool: string, args: Record<string, unknown>) => ({ tool, args });

  it('gates a destructive tool whose args match no gating rule', () => {
    const c = classify(policy, call('query', { sql: 'UPDATE t SET x = 1' }), { destructiveHint: true });
    expect(c).toMatchObject({ class: 'irreversible', rules: ['mcp.annotation.destructive'], gating: [] });
    // Without the hint (or with it false) the rules alone decide: query is also a read rule's tool.
    for (const hints of [undefined, {}, { destructiveHint: false }]) {
      expect(classify(policy, call('query', { sql: 'UPDATE t SET x = 1' }), hints).class).toBe('read-only');
    }
  });

  it('gates a destructive tool when only a read rule matches', () => {
    const dry = call('edit_file', { path: '/a', dryRun: true });
    expect(classify(policy, dry).class).toBe('read-only');
    expect(classify(policy, dry, { destructiveHint: true })).toMatchObject({
      class: 'irreversible',
      rules: ['mcp.annotation.destructive'],
    });
    expect(classify(policy, call('read_text_file', { path: '/a' }), { destructiveHint: true }).class).toBe(
      'irreversible',
    );
  });

  it('keeps the matching gating rule when the tool also says it is destructive', () => {
    const drop = call('query', { sql: 'DROP TABLE t' });
    expect(classify(policy, drop, { destructiveHint: true })).toMatchObject({
      class: 'irreversible',
      rules: ['db.drop'],
    });
  });

  it('never lets readOnlyHint weaken a matching gating rule', () => {
    for (const hints of [{ readOnlyHint: true }, { readOnlyHint: true, destructiveHint: false }]) {
      expect(classify(policy, call('query', { sql: 'DROP TABLE t' }), hints)).toMatchObject({
        class: 'irreversible',
        rules: ['db.drop'],
      });
      expect(classify(policy, call('write_file', { path: '/a' }), hints).rules).toEqual(['fs.write']);
    }
  });

  it('reads contradictory hints strictly when no rule names the tool', () => {
    expect(
      classify(policy, call('frobnicate', {}), { readOnlyHint: true, destructiveHint: true }).class,
    ).toBe('irreversible');
    expect(classify(policy, call('frobnicate', {}), { readOnlyHint: true }).class).toBe('read-only');
  });
});

describe('rules for every tool ("*")', () => {
  const universal = compilePolicy([
    {
      file: 'universal.yaml',
      text: JSON.stringify({
        rules: [
          {
            id: 'any.secret',
            description: 's',
            tool: '*',
            class: 'irreversible',
            severity: 'high',
            match: { args: { type: 'object', required: ['secret'], properties: { secret: {} } } },
          },
          { id: 'fs.read', description: 'r', tool: 'read_text_file', class: 'read-only', severity: 'low' },
        ],
      }),
    },
  ]);

  it('do not silence the hints of a tool no rule names', () => {
    expect(classify(universal, { tool: 'frob', args: {} }, {}).rules).toEqual(['mcp.annotation.destructive']);
    expect(classify(universal, { tool: 'frob', args: {} }, { readOnlyHint: true }).class).toBe('read-only');
    expect(classify(universal, { tool: 'frob', args: {} }, { destructiveHint: false }).class).toBe(
      'unmatched',
    );
    expect(classify(universal, { tool: 'frob', args: { secret: 1 } }, { readOnlyHint: true }).rules).toEqual([
      'any.secret',
    ]);
  });

  it('are left out of how a tool is listed', () => {
    expect(classifyTool(universal, 'read_text_file', { readOnlyHint: true })).toEqual({
      class: 'read-only',
      conditional: false,
      rules: ['fs.read'],
    });
    expect(classifyTool(universal, 'frob', {}).rules).toEqual(['mcp.annotation.destructive']);
    expect(classifyTool(universal, 'frob', { destructiveHint: false }).class).toBe('unmatched');
  });
});
