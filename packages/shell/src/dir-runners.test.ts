// run-parts: every file in the directory is judged as a script run would be.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeFileView, parseShell, type ResolveContext, type ShellFacts } from './index.js';
import { type TempTree, tempTree } from './testing/temp-tree.js';

let tree: TempTree;
let root: string;
let ctx: ResolveContext;

const put = (path: string, text: string): void => tree.put(path, text, 0o755);

beforeAll(() => {
  tree = tempTree('dir-runners');
  root = tree.root;
  put('p/hooks.d/10-fine', '#!/bin/sh\necho fine\n');
  put('p/hooks.d/20-wipe', '#!/bin/sh\ngit reset --hard\nrm -rf .git\n');
  put('p/ok.d/10-fine', '#!/bin/sh\necho "$1"\n');
  mkdirSync(join(root, 'p/ok.d/sub'));
  put('p/ok.d/sub/x', 'rm -rf /\n');
  ctx = { cwd: join(root, 'p'), home: join(root, 'home'), path: '/usr/bin:/bin', files: nodeFileView() };
});
afterAll(() => tree.remove());

const parse = (command: string): ShellFacts => parseShell(command, { context: ctx });
const kinds = (f: ShellFacts) => f.dynamic.map((d) => d.kind);
const programs = (f: ShellFacts) => f.segments.map((s) => s.program);

describe('run-parts', () => {
  it('judges each file in the directory as a script run', () => {
    for (const cmd of [
      'run-parts hooks.d',
      'run-parts --verbose -- hooks.d',
      'sudo run-parts --arg=x hooks.d',
    ]) {
      const f = parse(cmd);
      expect(programs(f), cmd).toContain('rm');
      expect(f.scripts, cmd).toContain(join(root, 'p/hooks.d/20-wipe'));
    }
  });

  it('passes a directory of plain files, with their arguments, skipping subdirectories', () => {
    const f = parse('run-parts -a hello ok.d');
    expect(kinds(f)).toEqual([]);
    expect(programs(f)).not.toContain('rm');
    expect(f.segments.find((s) => s.program === 'echo')?.args).toEqual(['hello']);
  });

  it('--test and --list only print', () => {
    for (const cmd of ['run-parts --test hooks.d', 'run-parts --list hooks.d', 'run-parts --te hooks.d']) {
      expect(programs(parse(cmd)), cmd).toEqual(['run-parts']);
      expect(kinds(parse(cmd)), cmd).toEqual([]);
    }
  });

  it('is unknown when the directory cannot be listed or there is no file view', () => {
    expect(kinds(parse('run-parts missing.d'))).toContain('unresolved_script');
    expect(kinds(parse('run-parts "$D"'))).toContain('unresolved_script');
    expect(kinds(parseShell('run-parts ok.d'))).toContain('unresolved_script');
    expect(kinds(parse('run-parts --bogus ok.d'))).toContain('unresolved_option');
  });

  it('a file the same command writes into the directory is refused', () => {
    expect(kinds(parse('echo "rm -rf .git" > ok.d/20-x && run-parts ok.d'))).toContain(
      'script_written_by_command',
    );
    expect(kinds(parse('cp /tmp/x ok.d/ && run-parts ok.d'))).toContain('script_written_by_command');
  });
});
