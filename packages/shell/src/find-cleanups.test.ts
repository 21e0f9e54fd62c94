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
  });
});
