// Brace expansion: the words bash runs, statically.
import { describe, expect, it } from 'vitest';
import { parseShell } from './index.js';

const argv = (command: string) => {
  const s = parseShell(command).segments[0];
  return s ? [s.argv0, ...s.args] : [];
};

describe('brace expansion', () => {
  it.each<[string, string[]]>([
    ['rm -{r,f} dir', ['rm', '-r', '-f', 'dir']],
    ['{rm,-rf,dir}', ['rm', '-rf', 'dir']],
    ['r{m,} -rf x', ['rm', 'r', '-rf', 'x']],
    ['echo {1..3}', ['echo', '1', '2', '3']],
    ['echo {3..1}', ['echo', '3', '2', '1']],
    ['echo {01..3}', ['echo', '01', '02', '03']],
    ['echo {1..7..3} {a..c}', ['echo', '1', '4', '7', 'a', 'b', 'c']],
    ['echo x{a,{b,c}}y', ['echo', 'xay', 'xby', 'xcy']],
    ['echo {a,b}{1,2}', ['echo', 'a1', 'a2', 'b1', 'b2']],
    ['echo {a}', ['echo', '{a}']],
    ['echo {}', ['echo', '{}']],
    ['echo "{a,b}" \'{c,d}\' \\{e,f\\}', ['echo', '{a,b}', '{c,d}', '{e,f}']],
    ['echo {a\\,b}', ['echo', '{a,b}']],
    ['echo ${x}{1,2}', ['echo', '${x}1', '${x}2']],
  ])('%s', (command, expected) => {
    expect(argv(command)).toEqual(expected);
  });

  it('gates rm spelled through braces like rm itself', () => {
    const rm = parseShell('{rm,-rf,/srv}').segments[0];
    expect(rm?.program).toBe('rm');
    expect(rm?.flags).toEqual(expect.arrayContaining(['-r', '-f']));
    expect(parseShell('sudo r{m,} -{r,f} /srv').segments.map((s) => s.program)).toContain('rm');
  });

  it('expands braces in sh -c strings and static substitutions', () => {
    expect(parseShell(`bash -c 'rm -{r,f} /x'`).segments.find((s) => s.program === 'rm')?.flags).toContain(
      '-r',
    );
    const rm = parseShell('$(echo rm) -{r,f} x').segments.find((s) => s.program === 'rm');
    expect(rm?.args).toEqual(['-r', '-f', 'x']);
  });

  it('bounds the expansion', () => {
    const facts = parseShell(`echo {1..100000}`);
    expect(facts.dynamic.map((d) => d.kind)).toContain('limit');
    const product = parseShell(`echo ${'{a,b,c,d}'.repeat(8)}`);
    expect(product.dynamic.map((d) => d.kind)).toContain('limit');
  });
});
