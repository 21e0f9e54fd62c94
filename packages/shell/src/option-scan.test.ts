import { describe, expect, it } from 'vitest';
import { firstOperand } from './option-scan.js';

const values = new Set(['-u', '-n']);

describe('firstOperand', () => {
  it.each<[string[], number]>([
    [['sudo', 'rm', '-rf', '/x'], 1],
    [['sudo', '-u', 'root', '-E', 'rm'], 4],
    [['sudo', '--', '-weird'], 2],
    [['sudo', '-u'], 3],
    [['cat', '-', 'f'], 1],
    [['sudo'], 1],
  ])('%j → %i', (argv, index) => {
    expect(firstOperand(argv, { values })).toBe(index);
  });

  it('reads an abbreviated long option that takes a value as getopt_long does', () => {
    const long = new Set(['--user', '--signal']);
    expect(firstOperand(['sudo', '--us', 'root', 'rm'], { values: long })).toBe(3);
    expect(firstOperand(['timeout', '--sig', 'KILL', '5', 'rm'], { values: long })).toBe(3);
    expect(firstOperand(['sudo', '--us=root', 'rm'], { values: long })).toBe(2);
    expect(firstOperand(['sudo', '--preserve-env', 'rm'], { values: long })).toBe(2);
  });

  it('treats a lone dash as an option where the tool does', () => {
    expect(firstOperand(['ssh', '-', 'host'], { values, loneDashIsOperand: false })).toBe(2);
  });

  it('lets a visitor take words or stop the scan', () => {
    const seen: string[] = [];
    const visit = (arg: string) => {
      seen.push(arg);
      if (arg === '-l') return 'stop' as const;
      return arg === '-5' ? 1 : undefined;
    };
    expect(firstOperand(['nice', '-5', '-n', '3', 'rm'], { values, visit })).toBe(4);
    expect(firstOperand(['sudo', '-l', 'rm'], { values, visit })).toBe(-1);
    expect(seen).toEqual(['-5', '-n', '-l']);
  });
});
