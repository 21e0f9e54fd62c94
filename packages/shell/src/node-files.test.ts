import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeFileView } from './node-files.js';
import { tempTree } from './testing/temp-tree.js';

const tree = tempTree('node-files');
tree.put('file.txt', 'x');
symlinkSync('../missing/.gitconfig', join(tree.root, 'dangling'));
symlinkSync('file.txt', join(tree.root, 'live'));
afterAll(() => tree.remove());

describe('readlink', () => {
  const at = (name: string) => join(tree.root, name);

  it('tells what a link holds, dangling or not', () => {
    const view = nodeFileView();
    expect(view.readlink?.(at('dangling'))).toBe('../missing/.gitconfig');
    expect(view.readlink?.(at('live'))).toBe('file.txt');
    // realpath answers only for what exists: a dangling link needs readlink.
    expect(view.realpath(at('dangling'))).toBeUndefined();
  });

  it('answers undefined where no link is: a file, nothing, below a file', () => {
    const view = nodeFileView();
    expect(view.readlink?.(at('file.txt'))).toBeUndefined();
    expect(view.readlink?.(at('nothing'))).toBeUndefined();
    expect(view.readlink?.(at('file.txt/x'))).toBeUndefined();
  });

  it('answers null once the bound is spent: not told, never "no link"', () => {
    const view = nodeFileView({ maxOps: 0 });
    expect(view.readlink?.(at('dangling'))).toBeNull();
    expect(view.exhausted).toBe(true);
  });
});

describe('executable', () => {
  const at = (name: string) => join(tree.root, name);

  it('is true for a regular file with an execute bit, through a link', () => {
    tree.put('run.sh', '#!/bin/sh\n', 0o755);
    tree.put('user-only', '', 0o700);
    symlinkSync('run.sh', join(tree.root, 'run-link'));
    const view = nodeFileView();
    expect(view.executable?.(at('run.sh'))).toBe(true);
    expect(view.executable?.(at('user-only'))).toBe(true);
    expect(view.executable?.(at('run-link'))).toBe(true);
  });

  it('is false for a file without one, a directory, nothing; undefined once the bound is spent', () => {
    expect(nodeFileView().executable?.(at('file.txt'))).toBe(false);
    expect(nodeFileView().executable?.(tree.root)).toBe(false);
    expect(nodeFileView().executable?.(at('nothing'))).toBe(false);
    const spent = nodeFileView({ maxOps: 0 });
    expect(spent.executable?.(at('run.sh'))).toBeUndefined();
    expect(spent.exhausted).toBe(true);
  });
});
