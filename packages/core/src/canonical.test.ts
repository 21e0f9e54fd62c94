import { describe, expect, it } from 'vitest';
import { canonicalJson, digestOf, NestingTooDeep } from './canonical.js';

describe('canonicalJson', () => {
  it('sorts keys at every level and drops undefined', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[2,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('gives equal digests for equal values whatever the key order', () => {
    expect(digestOf({ tool: 'shell', args: { command: 'ls', cwd: '/' } })).toBe(
      digestOf({ args: { cwd: '/', command: 'ls' }, tool: 'shell' }),
    );
    expect(digestOf({ command: 'git push origin feat' })).not.toBe(
      digestOf({ command: 'git push --force origin main' }),
    );
  });

  it('refuses nesting past its bound instead of overflowing the stack', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 1000; i++) deep = [deep];
    expect(() => canonicalJson(deep)).toThrow(NestingTooDeep);
  });
});
