// GNU parallel's jobs: how many the static input sources make, and the bound on the jobs a command
// is analysed for (summed over every `parallel` in it, as simple commands are).
import { describe, expect, it } from 'vitest';
import { parseShell } from './index.js';
import { parallelJobs } from './iterators.js';

const words = (n: number, word = 'a') => Array.from({ length: n }, () => word);
// A generous deadline: these commands are long, and the machine running the tests may be loaded.
const kinds = (command: string) => parseShell(command, { deadlineMs: 10_000 }).dynamic.map((d) => d.kind);

describe('parallelJobs', () => {
  it('multiplies the ::: groups and links a :::+ group to the one before it', () => {
    expect(parallelJobs(['parallel', 'echo', ':::', 'a', 'b', 'c'], 2)).toBe(3);
    expect(parallelJobs(['parallel', 'echo', ':::', 'a', 'b', ':::', 'x', 'y', 'z'], 2)).toBe(6);
    expect(parallelJobs(['parallel', 'echo', ':::', 'a', 'b', ':::+', 'x', 'y'], 2)).toBe(2);
    expect(parallelJobs(['parallel', 'echo', ':::'], 2)).toBe(0);
  });

  it('does not count the items of files (::::), whose size is not known here', () => {
    expect(parallelJobs(['parallel', 'echo', '::::', 'list.txt', ':::', 'a', 'b'], 2)).toBe(2);
  });
});

describe('the bound on parallel jobs', () => {
  it('flags a command whose parallel runs more than 1,000 jobs', () => {
    expect(kinds(`parallel echo ::: ${words(1001).join(' ')}`)).toContain('limit');
    expect(kinds(`parallel echo ::: ${words(40).join(' ')} ::: ${words(30).join(' ')}`)).toContain('limit');
  });

  it('sums the jobs of every parallel of the command, nested ones included', () => {
    const half = words(600).join(' ');
    expect(kinds(`parallel echo ::: ${half}; parallel echo ::: ${half}`)).toContain('limit');
    expect(kinds(`parallel echo ::: ${half} && bash -c 'parallel echo ::: ${half}'`)).toContain('limit');
  });

  it('leaves a command under the bound alone', () => {
    expect(kinds(`parallel echo ::: ${words(1000).join(' ')}`)).toEqual([]);
    expect(kinds(`parallel echo ${words(30, 'v').join(' ')} ::: ${words(512).join(' ')}`)).toEqual([]);
    expect(kinds(`parallel echo ::: ${words(40).join(' ')} ::: ${words(25).join(' ')}`)).toEqual([]);
  });
});
