// A git command runs the hooks of its repository: they are listed among the scripts it runs, so core
// can refuse one the session wrote (`.husky/pre-commit`, `.githooks/pre-push`) before it runs.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hookFiles, mayRunHooks } from './git-hooks.js';
import { nodeFileView, parseShell } from './index.js';

let root: string;
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd,
    env: { ...process.env, HOME: root, GIT_CONFIG_NOSYSTEM: '1' },
  }).toString();

/** A repository with its own hooks: none, `.git/hooks`, a work-tree hooks directory, husky's layout. */
function repo(name: string, layout: 'samples' | 'git' | 'githooks' | 'husky'): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'src'), { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  if (layout === 'git') writeFileSync(join(dir, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nexit 0\n');
  if (layout === 'githooks') {
    mkdirSync(join(dir, '.githooks'));
    writeFileSync(join(dir, '.githooks', 'pre-push'), '#!/bin/sh\nexit 0\n');
    writeFileSync(join(dir, '.githooks', 'README.md'), 'not a hook\n');
    git(dir, 'config', 'core.hooksPath', '.githooks');
  }
  if (layout === 'husky') {
    mkdirSync(join(dir, '.husky', '_'), { recursive: true });
    writeFileSync(join(dir, '.husky', '_', 'pre-commit'), '. "$(dirname "$0")/h"\n');
    writeFileSync(join(dir, '.husky', '_', 'h'), '#!/bin/sh\n');
    writeFileSync(join(dir, '.husky', 'pre-commit'), 'npx lint-staged\n');
    writeFileSync(join(dir, '.lintstagedrc.json'), '{}\n');
    git(dir, 'config', 'core.hooksPath', '.husky/_');
  }
  return dir;
}

const context = (cwd: string) => ({ cwd, home: root, files: nodeFileView(), env: {} });
const scripts = (cwd: string, command: string) =>
  parseShell(command, { context: context(cwd), deadlineMs: 2000 }).scripts ?? [];

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'tollgate-hooks-')));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('hookFiles', () => {
  it('lists nothing where only the sample hooks are', () => {
    const dir = repo('samples', 'samples');
    expect(hookFiles(nodeFileView(), dir, {})).toEqual([]);
    expect(scripts(dir, 'git commit -qm x')).toEqual([]);
  });

  it("lists a hook in the repository's hooks directory", () => {
    const dir = repo('plain', 'git');
    expect(scripts(join(dir, 'src'), 'git commit -qm x')).toEqual([join(dir, '.git', 'hooks', 'pre-commit')]);
  });

  it('reads core.hooksPath from the repository, relative to the top of the work tree', () => {
    const dir = repo('githooks', 'githooks');
    expect(scripts(join(dir, 'src'), 'git push origin feature')).toEqual([
      join(dir, '.githooks', 'pre-push'),
    ]);
    // Through -C, from outside the repository.
    expect(scripts(root, 'git -C githooks/src push')).toEqual([join(dir, '.githooks', 'pre-push')]);
  });

  it("follows husky's stubs to the hooks they run, and the hook managers' files", () => {
    const dir = repo('husky', 'husky');
    expect(scripts(dir, 'git add -A && git commit -m "feat: x"').sort()).toEqual(
      [
        join(dir, '.husky', '_', 'pre-commit'),
        join(dir, '.husky', '_', 'h'),
        join(dir, '.husky', 'pre-commit'),
        join(dir, '.lintstagedrc.json'),
      ].sort(),
    );
  });

  it("husky v4–8's helper the hooks source, and hook settings kept in package.json", () => {
    const dir = repo('husky8', 'githooks');
    git(dir, 'config', 'core.hooksPath', '.husky');
    mkdirSync(join(dir, '.husky', '_'), { recursive: true });
    writeFileSync(join(dir, '.husky', 'pre-commit'), '. "$(dirname "$0")/_/husky.sh"\nnpx lint-staged\n');
    writeFileSync(join(dir, '.husky', '_', 'husky.sh'), '#!/bin/sh\n');
    writeFileSync(join(dir, 'package.json'), '{"name": "p", "lint-staged": {"*.ts": "eslint --fix"}}\n');
    expect(scripts(dir, 'git commit -m x').sort()).toEqual(
      [
        join(dir, '.husky', 'pre-commit'),
        join(dir, '.husky', '_', 'husky.sh'),
        join(dir, 'package.json'),
      ].sort(),
    );
    // A package.json without hook settings is no hook's.
    writeFileSync(join(dir, 'package.json'), '{"name": "p"}\n');
    expect(scripts(dir, 'git commit -m x')).not.toContain(join(dir, 'package.json'));
  });

  it("lefthook's other configuration files and its scripts directory", () => {
    const dir = repo('lefthook', 'git');
    mkdirSync(join(dir, '.lefthook', 'pre-commit'), { recursive: true });
    writeFileSync(join(dir, '.lefthook', 'pre-commit', 'lint.sh'), 'exit 0\n');
    writeFileSync(join(dir, 'lefthook.toml'), '[pre-commit]\n');
    expect(scripts(dir, 'git commit -m x')).toEqual(
      expect.arrayContaining([join(dir, 'lefthook.toml'), join(dir, '.lefthook', 'pre-commit', 'lint.sh')]),
    );
    // Written by the same command as the commit: a script written, then run.
    const kinds = parseShell(
      "printf 'rm -rf ~' > .lefthook/pre-commit/lint.sh && git commit -m x",
    ).dynamic.map((d) => d.kind);
    expect(kinds).toContain('script_written_by_command');
  });

  it('a patch git apply writes into a hook, then the commit', () => {
    const dir = repo('apply', 'githooks');
    writeFileSync(
      join(dir, 'fix.diff'),
      'diff --git a/.githooks/pre-push b/.githooks/pre-push\n--- a/.githooks/pre-push\n+++ b/.githooks/pre-push\n',
    );
    const facts = parseShell('git apply fix.diff && git push origin feature', {
      context: context(dir),
      deadlineMs: 2000,
    });
    // The hooks' own commands are judged as well: the apply is the first git segment.
    const apply = facts.segments.find((s) => s.program === 'git' && s.subcommand === 'apply');
    expect(apply?.writes).toEqual([join(dir, '.githooks', 'pre-push')]);
    expect(facts.dynamic.map((d) => d.kind)).toContain('script_written_by_command');
    // The patch written by the same command is not what is read now.
    const same = parseShell("printf 'x' > fix.diff && git apply fix.diff", {
      context: context(dir),
      deadlineMs: 2000,
    });
    expect(same.dynamic.map((d) => d.kind)).toContain('script_written_by_command');
  });

  it('where the directory cannot be told, the hooks of the repository the command starts in', () => {
    const dir = repo('toplevel', 'githooks');
    expect(scripts(join(dir, 'src'), 'cd "$(git rev-parse --show-toplevel)" && git push')).toEqual([
      join(dir, '.githooks', 'pre-push'),
    ]);
  });

  it('lists no hook for a command that only reads', () => {
    const dir = repo('reads', 'git');
    for (const command of ['git log --oneline', 'git diff', 'git show HEAD', 'git rev-parse HEAD']) {
      expect(scripts(dir, command), command).toEqual([]);
    }
    expect(mayRunHooks('commit')).toBe(true);
    expect(mayRunHooks('status')).toBe(true);
    expect(mayRunHooks('log')).toBe(false);
  });

  it('follows an alias to the command it runs', () => {
    const dir = repo('alias', 'git');
    git(dir, 'config', 'alias.ci', 'commit');
    expect(scripts(dir, 'git ci -m x')).toEqual([join(dir, '.git', 'hooks', 'pre-commit')]);
  });
});

describe('a hook written and run by one command', () => {
  const dynamic = (command: string, cwd?: string) =>
    parseShell(command, cwd ? { context: context(cwd), deadlineMs: 2000 } : {}).dynamic.map((d) => d.kind);

  it.each([
    "printf 'rm -rf ~\\n' > .husky/pre-commit && git commit -m x",
    "cat > .githooks/pre-push <<'EOF'\nrm -rf src\nEOF\ngit push origin feature",
    'cp /tmp/x hooks/post-checkout; git switch feature',
    'echo "pre-commit: rm -rf ." > lefthook.yml; git commit -m x',
    'git add . && tee .pre-commit-config.yaml < /tmp/c && git commit -m x',
  ])('is a script the command writes before it runs: %s', (command) => {
    expect(dynamic(command)).toContain('script_written_by_command');
    const dir = repo(`same-${Math.random().toString(36).slice(2, 8)}`, 'githooks');
    expect(dynamic(command, dir)).toContain('script_written_by_command');
  });

  it('not where the git command runs no hook, or nothing written is a hook', () => {
    expect(dynamic("printf 'x' > .husky/pre-commit && git diff")).not.toContain('script_written_by_command');
    expect(dynamic('echo x > notes.txt && git commit -am x')).not.toContain('script_written_by_command');
  });
});

describe("a hook's own commands", () => {
  it('are judged: a hook running npm test runs the package script', () => {
    const dir = repo('hook-runs', 'githooks');
    writeFileSync(join(dir, '.githooks', 'pre-commit'), '#!/bin/sh\nnpm test\n');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { test: 'rm -rf src' } }));
    const facts = parseShell('git commit -qm x', { context: context(dir), deadlineMs: 2000 });
    expect(facts.segments.map((s) => s.program)).toContain('rm');
    expect(facts.scripts).toContain(join(dir, 'package.json'));
  });

  it("add nothing where they cannot be resolved (husky's stub), and a hook running git is read once", () => {
    const dir = repo('hook-husky', 'husky');
    const facts = parseShell('git commit -qm x', { context: context(dir), deadlineMs: 2000 });
    expect(facts.dynamic).toEqual([]);
    const loop = repo('hook-loop', 'githooks');
    writeFileSync(
      join(loop, '.githooks', 'pre-commit'),
      '#!/bin/sh\ngit add -u\ngit commit --amend --no-edit\n',
    );
    const again = parseShell('git commit -qm x', { context: context(loop), deadlineMs: 2000 });
    expect(again.dynamic).toEqual([]);
    expect(again.segments.filter((s) => s.program === 'git').length).toBeGreaterThan(1);
  });

  it('a hook in another language is listed, not read', () => {
    const dir = repo('hook-py', 'githooks');
    writeFileSync(join(dir, '.githooks', 'pre-commit'), '#!/usr/bin/env python3\nimport shutil\n');
    const facts = parseShell('git commit -qm x', { context: context(dir), deadlineMs: 2000 });
    expect(facts.scripts).toContain(join(dir, '.githooks', 'pre-commit'));
    expect(facts.segments.filter((s) => s.via.includes('git hook pre-commit'))).toEqual([]);
  });
});
