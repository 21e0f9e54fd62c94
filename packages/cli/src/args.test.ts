// The argv parser: declared options only, values in both spellings, lists in order, `--` verbatim.
import { describe, expect, it } from 'vitest';
import { list, option, parseArgs } from './args.js';

describe('parseArgs', () => {
  const spec = { session: 'string', claim: 'list', op: 'list', batch: 'boolean' } as const;

  it('parses options, positionals and the command after --', () => {
    const a = parseArgs(
      ['show', '--session=s1', '--claim', 'a', '--op', 'eq', '--claim', 'b', '--', 'git', '--force'],
      spec,
      'x',
    );
    expect(a.positionals).toEqual(['show']);
    expect(option(a, 'session')).toBe('s1');
    expect(list(a, 'claim')).toEqual(['a', 'b']);
    expect(a.sequence.map((s) => s.name)).toEqual(['session', 'claim', 'op', 'claim']);
    expect(a.rest).toEqual(['git', '--force']);
  });

  it('names unknown options, missing values, repeated single options and values on flags', () => {
    expect(() => parseArgs(['--nope'], spec, 'check')).toThrow('unknown option --nope for tollgate check');
    expect(() => parseArgs(['--session'], spec, 'x')).toThrow('--session needs a value');
    expect(() => parseArgs(['--session', 'a', '--session', 'b'], spec, 'x')).toThrow('--session given twice');
    expect(() => parseArgs(['--batch=yes'], spec, 'x')).toThrow('--batch takes no value');
  });
});
