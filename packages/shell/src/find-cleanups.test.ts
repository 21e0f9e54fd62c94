// A find that deletes compiled files and caches below a repository passes the find and rm rules;
// any find whose reach is not plain stays gated.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { classify, loadPolicy } from '@tollgate/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeFileView } from './index.js';

const catalogue = fileURLToPath(new URL('../../../contracts/policies/shell.yaml', import.meta.url));
const policy = loadPolicy([catalogue]);
let root: string;
let work: string;

const gating = (command: string, cwd = work) => {
  const project = { root: cwd, home: root, gate: [join(cwd, '.tollgate')], temp: ['/tmp'] };
  const context = { cwd, home: root, files: nodeFileView(), env: {} };
  return classify(policy, { tool: 'shell', args: { command } }, undefined, { project, context }).gating;
};

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'tollgate-find-')));
  work = join(root, 'repo');
  mkdirSync(join(work, 'src', '__pycache__'), { recursive: true });
  writeFileSync(join(work, 'src', 'a.py'), 'x = 1\n');
  execFileSync('git', ['init', '-q'], { cwd: work });
  mkdirSync(join(root, 'plain'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('find cleans of compiled files and caches', () => {
  it.each([
    "find . -name '*.pyc' -delete",
    "find . -type d -name __pycache__ -not -path './.venv/*' -exec rm -rf {} +",
    "find src -name '*.o' -delete",
    "find . -name 'tsconfig.tsbuildinfo' ! -path './node_modules/*' -delete",
    'find . -maxdepth 3 -type d -name .pytest_cache -exec rm -r {} \\;',
    "find . -type f -name '*.pyc' -exec rm -rf {} +",
    "find . -name '*.class' -print -delete",
  ])('%s passes', (command) => {
    expect(gating(command)).toEqual([]);
  });

  it.each([
    // Not only compiled files, or deleting before it tests, or a second set of files.
    "find . -name '*.py' -delete",
    "find . -delete -name '*.pyc'",
    "find . -name '*.pyc' -o -name '*.py' -delete",
    "find . \\( -name '*.pyc' \\) -delete",
    "find . -name '*.pyc' , -delete",
    // Another command, or more than the found item.
    "find . -name '*.pyc' -exec sh -c 'rm -rf src' \\;",
    "find . -name '*.pyc' -exec rm -rf {} src \\;",
    // rm -r of what a compiled file's name finds: a directory so named goes whole.
    "find . -name '*.pyc' -exec rm -rf {} +",
    "find . -iname '*.O' -exec rm -r {} \\;",
    // Links followed, start points outside a repository, above it, or not static.
    "find -L . -name '*.pyc' -delete",
    "find / -name '*.pyc' -delete",
    "find .. -name '*.pyc' -delete",
    'find "$D" -name \'*.pyc\' -delete',
  ])('%s stays gated', (command) => {
    expect(gating(command)).not.toEqual([]);
  });

  it('outside a repository stays gated', () => {
    expect(gating("find . -name '*.pyc' -delete", join(root, 'plain'))).not.toEqual([]);
    expect(gating("find . -name '*.pyc' -print0 | xargs -0 rm -f", join(root, 'plain'))).not.toEqual([]);
  });
});

describe('find cleans whose names are piped to xargs -0 rm', () => {
  it.each([
    "find . -name '*.pyc' -print0 | xargs -0 rm -f",
    'find . -type d -name __pycache__ -print0 | xargs -0 rm -rf',
    "find src -name '*.o' -print0 | xargs --null --no-run-if-empty rm --",
    "find . -name '*.class' -print0 | xargs -0r /bin/rm",
    'bash -c "find . -name \'*.pyc\' -print0 | xargs -0 rm -f"',
    "find . -type f -iname '*.O' -print0 | xargs -0 rm -rf",
  ])('%s passes', (command) => {
    expect(gating(command)).toEqual([]);
  });

  it.each([
    // Newline-separated names: `a.txt b.pyc` is split, and a.txt removed.
    "find . -name '*.pyc' | xargs rm -f",
    "find . -name '*.pyc' -print0 | xargs rm -f",
    // Something besides the names in the pipe: find's errors (`|&`, `2>&1`), another printer, a copy.
    "find . -name '*.pyc' -print0 |& xargs -0 rm -f",
    "find . -name '*.pyc' -print0 2>&1 | xargs -0 rm -f",
    "{ find . -name '*.pyc' -print0; printf 'src/a.py\\0'; } | xargs -0 rm -f",
    "find . -name '*.pyc' -print -print0 | xargs -0 rm -f",
    "find . -name '*.pyc' -print0 | tee list | xargs -0 rm -f",
    // The find is not a clean, or the remover does more than remove each name.
    "find . -name '*.py' -print0 | xargs -0 rm -f",
    "find . -name '*.pyc' -o -name '*.py' -print0 | xargs -0 rm -f",
    "find . -name '*.pyc' -print0 -delete | xargs -0 rm -f",
    "find . -name '*.pyc' -print0 | xargs -0 rm -f src/a.py",
    "find . -name '*.pyc' -print0 | xargs -0 rm -f -- src/a.py",
    "find . -name '*.pyc' -print0 | xargs -0 -I{} rm -rf {} src",
    "find . -name '*.pyc' -print0 | xargs -0 sh -c 'rm -rf src'",
    "find / -name '*.pyc' -print0 | xargs -0 rm -f",
    // Names saved and fed back later: the file may hold anything by then.
    "find . -name '*.pyc' -print0 > list; xargs -0 rm -f < list",
    // A directory under a compiled file's name (`mv notes notes.O`) is removed whole by rm -r.
    "find . -iname '*.o' -print0 | xargs -0 rm -rf",
    "find . -type d -name '*.o' -print0 | xargs -0 rm -r",
  ])('%s stays gated', (command) => {
    expect(gating(command)).not.toEqual([]);
  });
});
