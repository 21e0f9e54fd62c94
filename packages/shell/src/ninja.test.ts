// ninja's build files listed as files the command runs, and what `ninja -t clean` deletes.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeFileView, parseShell, type ResolveContext, type ShellFacts } from './index.js';
import { type TempTree, tempTree } from './testing/temp-tree.js';

let tree: TempTree;
let root: string;
let ctx: ResolveContext;

const put: TempTree['put'] = (path, text, mode) => tree.put(path, text, mode);

beforeAll(() => {
  tree = tempTree('ninja');
  root = tree.root;
  put(
    'p/build.ninja',
    'rule cc\n  command = cc -c $in -o $out\nbuild out/a.o: cc a.c\ninclude rules.ninja\n',
  );
  put('p/rules.ninja', 'rule r\n  command = touch $out\n');
  put('p/evil/build.ninja', 'rule r\n  command = true\nbuild ../../victim/file data.csv: r\n');
  put(
    'p/vars/build.ninja',
    'root = /srv\nbuild $root/data $\n    out/x | .git/config: r in\nbuild $other/y: r\n',
  );
  put('p/sub/gen.ninja', 'build ok.o: r\n');
  ctx = { cwd: join(root, 'p'), home: join(root, 'home'), path: '/usr/bin:/bin', files: nodeFileView() };
});
afterAll(() => tree.remove());

const parse = (command: string): ShellFacts => parseShell(command, { context: ctx });
const removed = (f: ShellFacts) =>
  f.segments.filter((s) => s.program === 'rm').flatMap((s) => s.args.filter((a) => a !== '-f' && a !== '--'));

describe('ninja', () => {
  it('lists build.ninja and what it includes as files the command runs', () => {
    expect(parse('ninja').scripts).toEqual([join(root, 'p/build.ninja'), join(root, 'p/rules.ninja')]);
    expect(parse('ninja -C evil all').scripts).toEqual([join(root, 'p/evil/build.ninja')]);
    expect(parse('ninja -f sub/gen.ninja').scripts).toEqual([join(root, 'p/sub/gen.ninja')]);
    expect(parse('ninja -Cevil -t clean').scripts).toEqual([join(root, 'p/evil/build.ninja')]);
  });

  it('-t clean of outputs inside the build removes nothing judged', () => {
    expect(removed(parse('ninja -t clean'))).toEqual([]);
    expect(removed(parse('ninja -t targets all'))).toEqual([]);
  });

  it('-t clean and cleandead remove outputs outside the project, hidden or unknown, as rm -f does', () => {
    expect(removed(parse('ninja -C evil -t clean'))).toEqual(['../victim/file']);
    expect(removed(parse('cd evil && ninja -t cleandead'))).toEqual(['../../victim/file']);
    // A variable the file never binds is left unresolved, which the rm rules read as any path.
    expect(removed(parse('ninja -C vars -t clean'))).toEqual([
      '/srv/data',
      'vars/.git/config',
      '$__ninja_unknown/y',
    ]);
  });
});
