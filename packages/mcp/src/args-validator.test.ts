// Argument checks: precise problems for malformed calls, and a broken upstream schema never blocks.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { ArgsValidator } from './args-validator.js';

const tool = (inputSchema: Record<string, unknown>): Tool =>
  ({ name: 't', inputSchema: { type: 'object', ...inputSchema } }) as Tool;

describe('ArgsValidator', () => {
  const writeFile = tool({
    $schema: 'http://json-schema.org/draft-07/schema#',
    properties: { path: { type: 'string' }, content: { type: 'string' } },
    required: ['path', 'content'],
  });

  it('accepts matching arguments, extra keys included when the schema allows them', () => {
    expect(new ArgsValidator().check(writeFile, { path: '/a', content: 'x', extra: 1 })).toEqual({
      ok: true,
    });
  });

  it('names each problem with its path', () => {
    const result = new ArgsValidator().check(writeFile, { path: 7 });
    expect(result).toEqual({
      ok: false,
      problems: [
        { path: '/content', message: 'the arguments are missing the required field "content"' },
        { path: '/path', message: '/path must be of type string' },
      ],
    });
  });

  it('understands 2020-12 schemas', () => {
    const t = tool({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      properties: { n: { type: 'integer' } },
      $defs: { n: { type: 'integer' } },
    });
    expect(new ArgsValidator().check(t, { n: 1.5 }).ok).toBe(false);
  });

  it('skips a schema that does not compile, and says so', () => {
    const lines: string[] = [];
    const broken = tool({ properties: { a: { $ref: '#/nowhere' } } });
    expect(new ArgsValidator((l) => lines.push(l)).check(broken, { a: 1 })).toEqual({ ok: true });
    expect(lines[0]).toMatch(/input schema of t does not compile/);
  });
});
