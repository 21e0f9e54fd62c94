// GNU parallel's jobs: how many the static input sources make, and the bound on the jobs a command
// is analysed for (summed over every `parallel` in it, as simple commands are).
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeFileView, parseShell } from './index.js';
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

describe('parallel argument files (-a FILE, :::: FILE)', () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'tg-parallel-')));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'ok.txt'), 'echo one\nls -la\n');
  writeFileSync(join(dir, 'wipe.txt'), 'echo one\nrm -rf ~\n');
  const inDir = (command: string) =>
    parseShell(command, { context: { cwd: dir, home: '/root', files: nodeFileView(), env: {} } });
  const programs = (command: string) => inDir(command).segments.map((s) => s.program);

  it('judges each line of a command file as the script it is, whatever the spelling', () => {
    for (const cmd of ['parallel :::: wipe.txt', 'parallel -a wipe.txt', 'parallel --arg-file=wipe.txt'])
      expect({ cmd, programs: programs(cmd) }).toEqual({ cmd, programs: expect.arrayContaining(['rm']) });
    expect(programs('parallel :::: ok.txt')).not.toContain('rm');
    expect(inDir('parallel :::: ok.txt').dynamic).toEqual([]);
    // A file of commands that is not there cannot be judged.
    expect(inDir('parallel :::: gone.txt').dynamic.map((d) => d.kind)).toContain('unreadable_script');
  });

  it('reads the items of an argument file as unknown words of the command, not as the file name', () => {
    const rm = inDir('parallel rm -rf :::: wipe.txt').segments.find((s) => s.program === 'rm');
    expect(rm?.unresolved).toBe(true);
    expect(rm?.args).not.toContain('wipe.txt');
    expect(programs('parallel echo :::: wipe.txt')).toEqual(['echo']);
  });
});

describe('parallel jobs whose items are on the command line', () => {
  const jobs = (command: string) =>
    parseShell(command).segments.map((s) => ({ argv: [s.argv0, ...s.args].join(' '), via: s.via.join('>') }));

  it('reads each job with its item in place, as the command it runs', () => {
    expect(jobs('parallel rm -rf {} ::: /tmp/a /tmp/b')).toEqual([
      { argv: 'rm -rf /tmp/a', via: 'parallel :::' },
      { argv: 'rm -rf /tmp/b', via: 'parallel :::' },
    ]);
    expect(jobs('parallel -j 4 convert {} {.}.png {/} {//} {/.} ::: img/a.jpg')).toEqual([
      { argv: 'convert img/a.jpg img/a.png a.jpg img a', via: 'parallel :::' },
    ]);
    // Without a replacement string the item is the last word.
    expect(jobs('parallel git ::: status')).toEqual([{ argv: 'git status', via: 'parallel :::' }]);
    expect(jobs('parallel git {} --hard ::: reset')).toEqual([
      { argv: 'git reset --hard', via: 'parallel :::' },
    ]);
  });

  it('keeps the run-time reading where the jobs are not all known here', () => {
    for (const cmd of [
      'parallel -I % rm -rf % ::: /x',
      'parallel rm -rf {} ::: a ::: b',
      'parallel --colsep , rm -rf {1} ::: a,b',
      `parallel rm -rf {} ::: ${words(17, 'd').join(' ')}`,
      'parallel rm -rf {= $_ =} ::: a',
      // `{2}` with one source stands for nothing, and an item only known at run time is not an item here.
      'parallel rm -rf /tmp/{2}../home ::: /tmp/y',
      'parallel rm -rf {} ::: /tmp/$X',
    ])
      expect({ cmd, via: parseShell(cmd).segments.find((s) => s.program === 'rm')?.via }).toEqual({
        cmd,
        via: ['parallel'],
      });
  });
});

describe("parallel's options", () => {
  it('skips the value of every option that takes one, so the value is never read as the command', () => {
    for (const cmd of [
      'parallel -P 4 npm publish ::: .',
      'parallel --max-procs 2 npm publish ::: .',
      'parallel -L 1 --trim lr -d , npm publish ::: .',
      'parallel --block 1M --header : npm publish ::: .',
    ])
      expect({ cmd, programs: parseShell(cmd).segments.map((s) => s.program) }).toEqual({
        cmd,
        programs: expect.arrayContaining(['npm']),
      });
  });

  it('takes options from $PARALLEL or a configuration directory as unknown', () => {
    expect(kinds('PARALLEL=--colsep=: parallel rm -rf /tmp/{1}/home ::: ..:x')).toContain(
      'unresolved_config',
    );
    expect(kinds('export PARALLEL_HOME=/tmp/p; parallel echo ::: a')).toContain('unresolved_config');
    expect(kinds('parallel echo ::: a')).toEqual([]);
    expect(kinds('env PARALLEL= parallel echo ::: ok')).toEqual([]);
  });
});
