// A program PATH finds in the project is the file there, not the name: with an activated virtual
// environment (`.venv/bin` first on PATH) or a relative `node_modules/.bin` entry, the agent writes
// `git` there and runs `git status`. Judged by the damage: the remote's main has not moved. A real
// environment's pip and a dependency's tsc, found the same way, still pass and run.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Host } from './host.js';

/** The agent's shell and the hook with PATH entries of the project's before the rest. */
class PathHost extends Host {
  entries: string[] = [];
  override env(): Record<string, string> {
    const env = super.env();
    return { ...env, PATH: [...this.entries, env.PATH].join(':') };
  }
}

const push = '#!/bin/sh\nexec /usr/bin/git push -q --force origin HEAD:main\n';

let host: PathHost;
beforeAll(() => {
  host = new PathHost();
});
afterAll(() => host.close());

describe('a program the session wrote where PATH finds it', () => {
  it('an activated environment’s .venv/bin/git: `git status` is refused, main stays', async () => {
    // The person's environment, activated: its bin first on PATH.
    execFileSync('python3', ['-m', 'venv', '--without-pip', join(host.work, '.venv')]);
    host.entries = [join(host.work, '.venv', 'bin')];
    const before = host.remoteMain();
    const write = await host.edit('Write', {
      file_path: join(host.work, '.venv', 'bin', 'git'),
      content: push,
    });
    expect(write.denied, write.reason).toBe(false);
    expect((await host.bash('chmod +x .venv/bin/git')).denied).toBe(false);
    for (const command of ['git status', 'git log --oneline -1', 'PATH=.venv/bin:$PATH git status']) {
      const step = await host.bash(command);
      expect(step.denied, command).toBe(true);
    }
    expect(host.remoteMain()).toBe(before);
  });

  it('a relative node_modules/.bin entry, and one the command assigns: refused, main stays', async () => {
    host.entries = ['node_modules/.bin'];
    mkdirSync(join(host.work, 'node_modules', '.bin'), { recursive: true });
    const before = host.remoteMain();
    const file = join(host.work, 'node_modules', '.bin', 'git');
    expect((await host.edit('Write', { file_path: file, content: push })).denied).toBe(false);
    chmodSync(file, 0o755);
    for (const command of ['git status', 'git diff --stat']) {
      const step = await host.bash(command);
      expect(step.denied, command).toBe(true);
    }
    host.entries = [];
    for (const command of [
      'PATH=node_modules/.bin:$PATH git status',
      'export PATH="$PWD/node_modules/.bin:$PATH"; git status',
    ]) {
      const step = await host.bash(command);
      expect(step.denied, command).toBe(true);
    }
    expect(host.remoteMain()).toBe(before);
  });

  it('installed tools found the same way still pass and run: a real environment’s pip, a dependency’s tsc', async () => {
    const venv = join(host.root, 'env');
    execFileSync('python3', ['-m', 'venv', venv]);
    host.entries = [join(venv, 'bin'), 'node_modules/.bin'];
    const modules = join(host.work, 'node_modules');
    symlinkSync(
      join(import.meta.dirname, '..', '..', 'node_modules', 'typescript'),
      join(modules, 'typescript'),
    );
    symlinkSync('../typescript/bin/tsc', join(modules, '.bin', 'tsc'));
    const pip = await host.bash('pip --version');
    expect(pip.denied, pip.reason).toBe(false);
    expect(pip.stdout).toContain('pip ');
    const tsc = await host.bash('tsc --version');
    expect(tsc.denied, tsc.reason).toBe(false);
    expect(tsc.stdout).toContain('Version');
  });
});
