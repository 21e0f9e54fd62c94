// Decoration: gated tools gain the tollgate argument and a sentence; read-only tools stay untouched;
// the widened output schema still validates the upstream's results and admits a decline record.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { decorateTool } from './decorate.js';

const writeFile: Tool = {
  name: 'write_file',
  description: 'Create a new file or overwrite an existing one.',
  inputSchema: {
    type: 'object',
    properties: { path: { type: 'string' }, content: { type: 'string' } },
    required: ['path', 'content'],
  },
  outputSchema: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: { content: { $ref: '#/definitions/text' } },
    required: ['content'],
    additionalProperties: false,
    definitions: { text: { type: 'string' } },
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
};

describe('decorateTool', () => {
  it('leaves read-only and unmatched tools as the same object', () => {
    expect(decorateTool(writeFile, { class: 'read-only', conditional: false, rules: [] })).toBe(writeFile);
    expect(decorateTool(writeFile, { class: 'unmatched', conditional: false, rules: [] })).toBe(writeFile);
  });

  it('adds an optional tollgate argument, one sentence, and keeps annotations and required', () => {
    const d = decorateTool(writeFile, { class: 'irreversible', conditional: false, rules: ['mcp.fs.write'] });
    expect(Object.keys(d.inputSchema.properties ?? {})).toEqual(['path', 'content', 'tollgate']);
    expect(d.inputSchema.required).toEqual(['path', 'content']);
    expect(d.annotations).toBe(writeFile.annotations);
    expect(d.description).toMatch(/^Create a new file or overwrite an existing one\.\n\nTollgate: This tool/);
    expect(d.description?.split('\n\n')[1]?.match(/\. /g) ?? []).toHaveLength(0);
    expect(writeFile.inputSchema.properties).not.toHaveProperty('tollgate');
  });

  it('says when only some calls are gated', () => {
    const d = decorateTool(writeFile, {
      class: 'irreversible',
      conditional: true,
      rules: ['mcp.sql.destructive'],
    });
    expect(d.description).toContain('Some calls of this tool are irreversible (mcp.sql.destructive)');
  });

  it('widens the output schema so upstream results and decline records both validate', () => {
    const d = decorateTool(writeFile, { class: 'irreversible', conditional: false, rules: ['r'] });
    const check = new Ajv({ strict: false }).compile(d.outputSchema as object);
    expect(check({ content: 'Successfully wrote' })).toBe(true);
    expect(check({ tollgate: { outcome: 'declined', audit_id: '01J' } })).toBe(true);
    expect(check({ content: 42 })).toBe(false);
    expect(check({})).toBe(false);
  });
});
