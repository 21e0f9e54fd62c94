// Aliases and steering keys read from real git configuration files at decision time: a temporary
// repository made with git itself, read through a small FileView over node:fs.
import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { classify, loadPolicy } from '@tollgate/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseShell } from './facts.js';
import type { FileView } from './files.js';
import { parseGitConfig, readGitConfig } from './git-config.js';

/** A FileView over node:fs without bounds, enough for tests. */
const fsView: FileView = {
  readdir: (dir) => {
    try {
      return readdirSync(dir);
    } catch {
      return undefined;
    }
  },
  realpath: (path) => {
    try {
      return realpathSync(path);
    } catch {
      return undefined;
    }
  },
  readText: (path, maxBytes) => {
    try {
      const st = statSync(path);
      return st.isFile() && st.size <= maxBytes ? readFileSync(path, 'utf8') : undefined;
    } catch {
      return undefined;
    }
  },
};

let root: string;
let repo: string;
let home: string;
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd,
    env: { ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: '1' },
  }).toString();

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'tollgate-gitcfg-')));
  repo = join(root, 'repo');
  home = join(root, 'home');
  mkdirSync(repo);
  mkdirSync(home);
  git(repo, 'init', '-q');
  git(repo, 'config', 'alias.pf', 'push --force');
  git(repo, 'config', 'alias.wipe', '!rm -rf build');
  git(repo, 'config', 'alias.chain', 'pf');
  git(repo, 'config', 'include.path', '../../extra.gitconfig');
  writeFileSync(
    join(root, 'extra.gitconfig'),
    '[alias]\n\tnuke = reset --hard\n[remote "backup"]\n\tmirror = true\n',
  );
  writeFileSync(join(home, '.gitconfig'), '[alias]\n  hard = "reset --hard" ; a comment\n');
  mkdirSync(join(repo, 'src'));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const segmentsOf = (command: string, cwd = repo) =>
  parseShell(command, { context: { cwd, home, files: fsView } });
const gitSegment = (command: string, cwd = repo) =>
  segmentsOf(command, cwd).segments.find((s) => s.program === 'git');

describe('parseGitConfig', () => {
  it('reads sections, subsections, quotes, comments and continuations as git does', () => {
    const text = [
      '[core]',
      '\tbare = false',
      '[Alias]',
      '\tPF = push --force # trailing comment',
      '\tq = "log ; --oneline"',
      '\tlong = log \\',
      '\t  --stat',
      '[remote "Origin"]',
      '\tpush = +refs/heads/*:refs/heads/*',
      '[flag]',
      '\tbool',
    ].join('\n');
    expect(parseGitConfig(text)).toEqual([
      ['core.bare', 'false'],
      ['alias.pf', 'push --force'],
      ['alias.q', 'log ; --oneline'],
      ['alias.long', 'log    --stat'],
      ['remote.Origin.push', '+refs/heads/*:refs/heads/*'],
      ['flag.bool', 'true'],
    ]);
  });
});

describe('readGitConfig', () => {
  it('reads the user file, the repository file found upward and its includes, in order', () => {
    const config = readGitConfig({ files: fsView, cwd: join(repo, 'src'), home, env: new Map() });
    expect(config.unreadable).toBe(false);
    expect(config.entries).toEqual(
      expect.arrayContaining(['alias.hard=reset --hard', 'alias.pf=push --force', 'alias.nuke=reset --hard']),
    );
    expect(config.entries.indexOf('alias.hard=reset --hard')).toBeLessThan(
      config.entries.indexOf('alias.pf=push --force'),
    );
  });

  it('follows a .git file to a linked worktree and its common directory', () => {
    const wt = join(root, 'wt');
    git(repo, '-c', 'user.email=a@b', '-c', 'user.name=a', 'commit', '-q', '--allow-empty', '-m', 'init');
    git(repo, 'worktree', 'add', '-q', wt);
    const config = readGitConfig({ files: fsView, cwd: wt, home, env: new Map() });
    expect(config.entries).toContain('alias.pf=push --force');
  });

  it('reports a config file it cannot read', () => {
    const big = join(root, 'big');
    mkdirSync(join(big, '.git'), { recursive: true });
    writeFileSync(join(big, '.git', 'config'), `[alias]\n\tx = ${'y'.repeat(70 * 1024)}\n`);
    expect(readGitConfig({ files: fsView, cwd: big, home, env: new Map() }).unreadable).toBe(true);
  });
});

describe('git aliases at decision time', () => {
  it.each<[string, string[]]>([
    ['git pf origin main', ['push', '--force', 'origin', 'main']],
    ['git chain origin', ['push', '--force', 'origin']],
    ['git nuke', ['reset', '--hard']],
    ['git hard HEAD~1', ['reset', '--hard', 'HEAD~1']],
    ['git -C src pf', ['-C', 'src', 'push', '--force']],
    ['cd src && git pf', ['push', '--force']],
  ])('%s runs git %j', (command, argv) => {
    const segment = gitSegment(command);
    expect(segment?.args).toEqual(argv);
    expect(segment?.canonical).toEqual(
      expect.arrayContaining([argv.includes('push') ? '--force' : '--hard']),
    );
  });

  it('runs a `!` alias as a shell command, which is dynamic', () => {
    const facts = segmentsOf('git wipe');
    expect(facts.segments.map((s) => s.program)).toContain('rm');
    expect(facts.dynamic.map((d) => d.kind)).toContain('shell_alias');
  });

  it('never lets an alias replace a git command', () => {
    git(repo, 'config', 'alias.status', 'push --force');
    expect(gitSegment('git status')?.args).toEqual(['status']);
    git(repo, 'config', '--unset', 'alias.status');
  });

  it('reports keys that steer later pushes and cleans', () => {
    expect(gitSegment('git push backup')?.repo_config).toContain('remote.backup.mirror=true');
  });

  it('gates an unknown subcommand whose aliases cannot be read, not a git command', () => {
    const big = join(root, 'big');
    expect(segmentsOf('git pf', big).dynamic.map((d) => d.kind)).toContain('git_alias_unreadable');
    expect(segmentsOf('git status', big).dynamic).toEqual([]);
  });

  it('gates a mistyped subcommand where help.autocorrect would run the git command it resembles', () => {
    git(repo, 'config', 'help.autocorrect', 'immediate');
    expect(segmentsOf('git psuh --force').dynamic.map((d) => d.kind)).toContain('git_autocorrect');
    expect(segmentsOf('git status').dynamic).toEqual([]);
    git(repo, 'config', '--unset', 'help.autocorrect');
    expect(segmentsOf('git psuh --force').dynamic).toEqual([]);
  });

  it('without a context, reads no files', () => {
    expect(parseShell('git pf').segments[0]?.args).toEqual(['pf']);
  });
});

describe('the shipped catalogue with the repository config', () => {
  const policy = loadPolicy([
    fileURLToPath(new URL('../../../contracts/policies/shell.yaml', import.meta.url)),
  ]);
  const rules = (command: string) =>
    classify(policy, { tool: 'shell', args: { command } }, undefined, {
      context: { cwd: repo, home, files: fsView },
      project: { root: repo, gate: [] },
    }).rules;

  it.each<[string, string]>([
    ['git pf origin topic', 'git.push.force'],
    ['git nuke', 'git.reset.discard'],
    ['git push backup', 'git.push.force'],
    ['git wipe', 'shell.dynamic'],
  ])('%s → %s', (command, rule) => {
    expect(rules(command)).toContain(rule);
  });

  it('a clean without -f deletes where the repository turned clean.requireForce off', () => {
    expect(rules('git clean -dx')).toEqual([]);
    git(repo, 'config', 'clean.requireForce', 'false');
    expect(rules('git clean -dx')).toContain('git.clean.force');
    expect(rules('git clean -n -dx')).toEqual([]);
    git(repo, 'config', '--unset', 'clean.requireForce');
  });

  it('reads a bare repository inside the project as git does, not the project around it', () => {
    const fake = join(repo, 'fake');
    git(repo, 'init', '-q', '--bare', fake);
    writeFileSync(
      join(fake, 'config'),
      '[core]\n\tbare = true\n[remote "origin"]\n\turl = ../x.git\n\tmirror = true\n[alias]\n\ttidy = !rm -rf ../src\n',
    );
    for (const command of ['git -C fake push origin', 'cd fake && git push origin']) {
      expect(rules(command)).toContain('git.push.force');
    }
    expect(rules('git -C fake tidy')).toContain('shell.dynamic');
    // The project's own repository, from below it, is still found.
    expect(rules('cd src && git push origin topic')).not.toContain('git.push.force');
    rmSync(fake, { recursive: true });
  });

  it('a forced rename or copy of the current branch onto a name no ref has overwrites nothing', () => {
    expect(rules('git branch -M trunk')).toEqual([]);
    expect(rules('git add -A && git commit -qm init && git branch -C trunk')).toEqual([]);
    git(repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'c');
    git(repo, 'branch', 'taken');
    for (const command of [
      'git branch -M taken',
      'git branch -M other taken',
      'git branch trunk && git branch -M trunk',
      'git branch -M "$B"',
      'git branch -M -f trunk --no-track',
    ]) {
      expect(rules(command)).toContain('git.branch.force-delete');
    }
    git(repo, 'branch', '-D', 'taken');
  });

  it('leaves ordinary commands alone', () => {
    for (const command of ['git status', 'git push origin topic', 'git log --oneline']) {
      expect(rules(command)).not.toContain('git.push.force');
      expect(rules(command)).not.toContain('shell.dynamic');
    }
  });
});

describe('a repository named by --git-dir or GIT_DIR that is not the one here', () => {
  it('has its configuration judged as the invocation’s own', () => {
    const bare = join(root, 'elsewhere.git');
    git(root, 'init', '-q', '--bare', bare);
    writeFileSync(
      join(bare, 'config'),
      `${readFileSync(join(bare, 'config'), 'utf8')}[diff]\n\texternal = rm -rf ~\n`,
    );
    expect(gitSegment(`git --git-dir=${bare} --work-tree=. diff`)?.config).toContain(
      'diff.external=rm -rf ~',
    );
    expect(gitSegment(`GIT_DIR=${bare} git status`)?.config).toContain('diff.external=rm -rf ~');
    // Its own repository, named: nothing more than without the option.
    expect(gitSegment('git --git-dir=.git log')?.config ?? []).toEqual([]);
  });

  it('includes the common directory it shares (commondir, GIT_COMMON_DIR)', () => {
    const bare = join(root, 'elsewhere.git');
    const linked = join(root, 'linked');
    mkdirSync(linked, { recursive: true });
    writeFileSync(join(linked, 'commondir'), '../elsewhere.git\n');
    writeFileSync(join(linked, 'config'), '[core]\n');
    expect(gitSegment(`git --git-dir=${linked} status`)?.config).toContain('diff.external=rm -rf ~');
    expect(gitSegment(`GIT_COMMON_DIR=${bare} git status`)?.config).toContain('diff.external=rm -rf ~');
    expect(segmentsOf(`export GIT_DIR=${bare}; git status`).dynamic.map((d) => d.kind)).toContain(
      'unresolved_config',
    );
  });

  it('that cannot be read (made by the same command) is unknown', () => {
    const f = segmentsOf(`git --git-dir=${join(root, 'missing.git')} status`);
    expect(f.dynamic.map((d) => d.kind)).toContain('unresolved_config');
  });
});
