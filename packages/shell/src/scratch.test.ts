// A path the command spells in a temp directory is scratch only where it really lies in one, outside
// the work tree: the catalogue's scratch exemptions ask writes_beyond_scratch. Real directories in
// the temp directory (where the test runs), a repository among them.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { classify, loadPolicy } from '@tollgate/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeFileView, parseShell } from './index.js';

const policy = loadPolicy([
  fileURLToPath(new URL('../../../contracts/policies/shell.yaml', import.meta.url)),
]);

let root: string;
let repo: string;
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'tollgate-scratch-')));
  repo = join(root, 'repo');
  mkdirSync(join(repo, 'src'), { recursive: true });
  writeFileSync(join(repo, 'src', 'a.ts'), 'a\n');
  execFileSync('git', ['init', '-q', repo]);
  mkdirSync(join(root, 'scratch', 'x'), { recursive: true });
  symlinkSync(repo, join(root, 'into-repo'));
  symlinkSync('/usr/share', join(root, 'into-system'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const beyond = (command: string, cwd = root) =>
  parseShell(command, { context: { cwd, home: root, files: nodeFileView(), env: {} } }).segments.some(
    (s) => s.writes_beyond_scratch === true,
  );

describe('writes beyond scratch', () => {
  it('a path in the work tree the command runs in, kept in a temp directory', () => {
    expect(beyond(`rm -rf ${repo}/src`, repo)).toBe(true);
    expect(beyond('rm -rf "$PWD"/src', repo)).toBe(true);
    expect(beyond(`find ${repo}/src -delete`, repo)).toBe(true);
  });

  it('a link in a temp directory that leads into a repository or out of the temp directories', () => {
    expect(beyond(`rm -rf ${root}/into-repo/src`, repo)).toBe(true);
    expect(beyond(`shred -u ${root}/into-system/doc/x`)).toBe(true);
    expect(beyond(`ln -s ${repo} ${root}/fresh && rm -rf ${root}/fresh/src`, repo)).toBe(true);
  });

  it('keeps the catalogue from taking such a removal for scratch', () => {
    const judged = (command: string, cwd: string) =>
      classify(policy, { tool: 'shell', args: { command } }, undefined, {
        project: { root: cwd, gate: [], temp: ['/tmp'] },
        context: { cwd, home: root, files: nodeFileView(), env: {} },
      }).class;
    expect(judged(`rm -rf ${root}/into-repo/src`, repo)).toBe('irreversible');
    expect(judged(`find ${repo}/src -delete`, repo)).toBe('irreversible');
    expect(judged(`rm -rf ${root}/scratch/x`, repo)).not.toBe('irreversible');
  });

  it('not scratch that is scratch, nor a command that writes nothing', () => {
    expect(beyond(`rm -rf ${root}/scratch/x`)).toBe(false);
    expect(beyond(`rm -rf ${root}/scratch`, repo)).toBe(false);
    expect(beyond(`ls ${repo}/src`, repo)).toBe(false);
  });
});
