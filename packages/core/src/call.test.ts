import { describe, expect, it } from 'vitest';
import { parseCall } from './call.js';

describe('parseCall', () => {
  it.each([
    ['missing', {}],
    ['a number', { command: 42 }],
    ['an array', { command: ['rm', '-rf', '/'] }],
    ['null', { command: null }],
  ])('refuses a shell call whose args.command is %s', (_, args) => {
    const parsed = parseCall({ tool: 'shell', args, session: 's1' });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok)
      expect(parsed.reasons).toEqual([
        expect.objectContaining({ code: 'schema_invalid', path: '/call/args/command' }),
      ]);
  });

  it('accepts a shell call with a string command, and other tools without one', () => {
    expect(parseCall({ tool: 'shell', args: { command: 'ls' }, session: 's1' }).ok).toBe(true);
    expect(parseCall({ tool: 'deploy', args: {}, session: 's1' }).ok).toBe(true);
  });
});
