// `git checkout WORD` is a branch switch or a path overwrite depending on the repository: a real
// repository made with git itself (loose refs, packed refs, a remote's branch), read through the
// node file view, decides which one the gate sees.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { classify, loadPolicy } from '@tollgate/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namesRevision } from './git-refs.js';
import { nodeFileView, parseShell } from './index.js';

let root: string;
let repo: string;
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd,
    env: {
      ...process.env,
      HOME: root,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.com',
    },
  }).toString();

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'tollgate-refs-')));
  repo = join(root, 'repo');
  mkdirSync(join(repo, 'src'), { recursive: true });
  git(repo, 'init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'src', 'app.ts'), 'export {};\n');
  writeFileSync(join(repo, 'notes'), 'n\n');
  writeFileSync(join(repo, 'release'), 'r\n');
  // Names that look like revisions: an abbreviated hash, a parent of no ref.
  writeFileSync(join(repo, 'feed'), 'f\n');
  writeFileSync(join(repo, 'notes~'), 'b\n');
  writeFileSync(join(repo, 'shared'), 's\n');
  writeFileSync(join(repo, 'remo'), 'r\n');
  mkdirSync(join(repo, '@types'));
  writeFileSync(join(repo, '@types', 'x.d.ts'), 'export {};\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'one');
  git(repo, 'branch', 'feature');
  git(repo, 'tag', 'v1');
  // A branch whose name is also a file, packed; and a remote's branch with no local one.
  git(repo, 'branch', 'release');
  git(repo, 'pack-refs', '--all');
  git(repo, 'update-ref', 'refs/remotes/origin/topic', 'HEAD');
  // A branch two remotes have (git guesses none), and one a single remote has beside a file of its name.
  git(repo, 'update-ref', 'refs/remotes/origin/shared', 'HEAD');
  git(repo, 'update-ref', 'refs/remotes/upstream/shared', 'HEAD');
  git(repo, 'update-ref', 'refs/remotes/origin/remo', 'HEAD');
  // A branch under a name that is also a directory of the work tree: `docs` itself is no branch.
  git(repo, 'branch', 'docs/next');
  mkdirSync(join(repo, 'docs'));
  writeFileSync(join(repo, 'docs', 'guide.md'), 'g\n');
  writeFileSync(join(repo, 'src', 'app.ts'), 'export const changed = 1;\n');
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('namesRevision', () => {
  it('finds loose, packed and remote refs and revision syntax', () => {
    const files = nodeFileView();
    for (const word of [
      'main',
      'feature',
      'v1',
      'release',
      'topic',
      'origin/topic',
      'HEAD~1',
      'main~2',
      '@{-1}',
    ]) {
      expect(namesRevision(files, repo, word), word).toBe(true);
    }
    for (const word of ['src/app.ts', 'notes', 'src', 'docs', 'notes~', 'src/app.ts^'])
      expect(namesRevision(files, repo, word), word).toBe(false);
    // An abbreviated object name is not read from the object store: it cannot be told.
    expect(namesRevision(files, repo, 'abc1234')).toBeUndefined();
    expect(namesRevision(files, repo, 'docs/next')).toBe(true);
  });

  it('cannot tell outside a repository only when a .git file is unreadable', () => {
    expect(namesRevision(nodeFileView(), root, 'main')).toBe(false);
  });
});

describe('git checkout WORD as git reads it', () => {
  const policy = loadPolicy([
    fileURLToPath(new URL('../../../contracts/policies/shell.yaml', import.meta.url)),
  ]);
  const judged = (command: string) => {
    const context = { cwd: repo, home: root, files: nodeFileView() };
    return classify(policy, { tool: 'shell', args: { command } }, undefined, {
      context,
      project: { root: repo, gate: [] },
    });
  };

  it.each([
    'git checkout src/app.ts',
    'git checkout src',
    'git checkout notes',
    'git checkout docs',
    'git -c core.pager=cat checkout notes',
    // Moved by -C, another work tree named, or a cd that may have failed: each place is read.
    'git -C . checkout notes',
    'git --work-tree=. checkout notes',
    'cd nowhere; git checkout notes',
    // A word that may not be a revision (an abbreviated hash, `x~` of no ref x) and is a file.
    'git checkout feed',
    'git checkout notes~',
    // Where the shell is cannot be told: a word that is no revision here is a path.
    'cd "$(git rev-parse --show-toplevel)" && git checkout notes',
    'cd $D && git checkout src/app.ts',
    // A branch of two remotes is guessed from neither; --no-guess guesses none; `@types` is no `@{…}`.
    'git checkout shared',
    'git checkout --no-guess remo',
    'git checkout @types',
  ])('%s overwrites a path: gated', (command) => {
    expect(judged(command).rules).toContain('git.checkout.discard');
  });

  it.each([
    'git checkout feature',
    'git checkout release',
    'git checkout topic',
    'git checkout v1',
    'git checkout missing.ts',
    'git checkout -b next notes',
    'git -C . checkout feature',
    'git checkout feature~1',
    'cd $D && git checkout feature',
  ])('%s names a revision (or nothing): passes', (command) => {
    expect(judged(command).rules).not.toContain('git.checkout.discard');
  });

  it('without a file view the word stays ambiguous and the argv as written', () => {
    const segment = parseShell('git checkout src/app.ts').segments[0];
    expect(segment?.args).toEqual(['checkout', 'src/app.ts']);
  });

  // A forcing option with no branch of that name to overwrite only creates one.
  it.each([
    'git checkout -B next',
    'git checkout -Bnext',
    'git switch -C next main',
    'git switch --force-create=next',
    'git branch -f next',
    'git branch -M next',
  ])('%s makes a branch no ref has: passes', (command) => {
    expect(judged(command).rules).not.toContain('git.branch.force-delete');
  });

  it.each([
    'git checkout -B feature',
    'git checkout -B release',
    'git switch -C feature',
    'git branch -f feature main',
    'git branch -M feature',
    // A tag or a remote's branch of that name: read as there.
    'git checkout -B v1',
    'git checkout -B origin/topic',
    // An earlier command may have made the branch; a name that is not static may be any.
    'git checkout -b next && git checkout -B next',
    'git checkout -B "$B"',
  ])('%s may overwrite a branch: gated', (command) => {
    expect(judged(command).rules).toContain('git.branch.force-delete');
  });

  it('without a file view the force stands', () => {
    const policy = loadPolicy([
      fileURLToPath(new URL('../../../contracts/policies/shell.yaml', import.meta.url)),
    ]);
    expect(classify(policy, { tool: 'shell', args: { command: 'git checkout -B next' } }).rules).toContain(
      'git.branch.force-delete',
    );
  });
});

describe('the current branch, read where nothing before could move HEAD', () => {
  const policy = loadPolicy([
    fileURLToPath(new URL('../../../contracts/policies/shell.yaml', import.meta.url)),
  ]);
  const judged = (command: string, cwd = repo) =>
    classify(policy, { tool: 'shell', args: { command } }, undefined, {
      context: { cwd, home: root, files: nodeFileView() },
      project: { root: cwd, gate: [] },
    });
  let work: string;
  beforeAll(() => {
    work = join(root, 'work');
    git(root, 'clone', '-q', repo, work);
    git(work, 'checkout', '-q', '-b', 'topic/x');
  });

  it('git push origin "$(git branch --show-current)" pushes that branch: a feature branch passes', () => {
    for (const command of [
      'git push origin "$(git branch --show-current)"',
      'git push -u origin "$(git rev-parse --abbrev-ref HEAD)"',
      'git fetch -q && git status --short && git push origin "$(git symbolic-ref --short HEAD)"',
      // A commit leaves the branch where it is (a hook the session wrote is refused: git-hooks.ts).
      'git commit -qam wip && git push origin "$(git branch --show-current)"',
    ]) {
      expect(judged(command, work).gating, command).toEqual([]);
    }
    const push = parseShell('git push origin "$(git branch --show-current)"', {
      context: { cwd: work, home: root, files: nodeFileView() },
    }).segments.find((s) => s.subcommand === 'push');
    expect(push?.args).toEqual(['push', 'origin', 'topic/x']);
  });

  it('the default branch, a branch named like a forced refspec, or HEAD that may move first: gated', () => {
    expect(judged('git push origin "$(git branch --show-current)"', repo).rules).toContain(
      'git.push.default-branch',
    );
    git(work, 'checkout', '-q', '-b', '+main');
    expect(judged('git push origin "$(git branch --show-current)"', work).rules).toContain('git.push.force');
    git(work, 'checkout', '-q', 'topic/x');
    // The project's own script that switches: read, and its checkout counts.
    writeFileSync(join(work, 'switch.sh'), '#!/bin/sh\ngit checkout -q main\n', { mode: 0o755 });
    for (const command of [
      'bash switch.sh && git push',
      'gh pr checkout 12 && git push',
      'git checkout - && git push origin HEAD',
      'git branch -m main && git push',
      'git checkout main && git push origin "$(git branch --show-current)"',
      // A loop that switches may do so before the push written above it.
      'for r in a b; do git push origin "$(git branch --show-current)"; git checkout -q main; done',
      'f() { git push origin HEAD; git checkout -q main; }; f; f',
      './switch.sh; git push origin "$(git branch --show-current)"',
    ]) {
      expect(judged(command, work).gating, command).not.toEqual([]);
    }
    // A push without a destination of its own updates the current branch.
    for (const command of ['git push', 'git push origin', 'git push origin HEAD', 'git push -u origin @']) {
      expect(judged(command, repo).rules, command).toContain('git.push.default-branch');
      expect(judged(command, work).gating, command).toEqual([]);
    }
    // The work tree's top is read from the file view: the same branch, so the same push.
    expect(judged('cd "$(git rev-parse --show-toplevel)" && git push', work).gating).toEqual([]);
    expect(judged('cd "$(git rev-parse --show-toplevel)" && git push', repo).rules).toContain(
      'git.push.default-branch',
    );
    // Without a file view nothing is read.
    expect(parseShell('git push origin "$(git branch --show-current)"').segments[1]?.unresolved).toBe(true);
  });

  it('a push after a commit, or after a switch to the default branch, is a push to it', () => {
    for (const command of [
      'git add -A && git commit -qm wip && git push',
      'git commit -qam wip; git push origin',
      'git stash && git pull --rebase && git stash pop && git push',
    ]) {
      expect(judged(command, repo).rules, command).toContain('git.push.default-branch');
      expect(judged(command, work).gating, command).toEqual([]);
    }
    // From a feature branch: the switch is followed. It may fail, so the branch before stays possible.
    for (const command of [
      'git checkout main && git push',
      'git switch main; git push origin',
      'git checkout -q main && git merge topic/x && git push origin HEAD',
      'git checkout --track origin/main && git push',
      'git switch -c main && git push -u origin',
    ]) {
      expect(judged(command, work).rules, command).toContain('git.push.default-branch');
    }
    for (const command of [
      'git checkout -b topic/y && git push -u origin',
      'git checkout -- src/app.ts && git push',
      'git switch topic/x && git commit -qam x && git push',
    ]) {
      expect(judged(command, work).rules, command).not.toContain('git.push.default-branch');
    }
    // A loop or function that switches nothing leaves the branch known, whatever its words.
    for (const command of [
      'git commit -qam "handle null for users" && git push',
      'for d in src docs; do ls "$d"; done && git push origin HEAD',
      'until true; do sleep 1; done; git push',
    ]) {
      expect(judged(command, work).rules, command).not.toContain('git.push.default-branch');
      expect(judged(command, repo).rules, command).toContain('git.push.default-branch');
    }
    // What runs alongside or around a push that moves nothing leaves the branch known.
    for (const command of [
      'git checkout -b topic/t && timeout 60 true && git push -u origin HEAD',
      'git checkout -b topic/t && git ls-files | xargs cat && git push -u origin HEAD',
      'git checkout -b topic/t; sleep 100 & sleep 2; git push -u origin HEAD',
    ]) {
      expect(judged(command, work).rules, command).not.toContain('git.push.default-branch');
    }
    // Words of a loop in a message, beside a switch after the push, are no loop.
    expect(
      judged('git commit -qam "for users" && git push && git checkout -q main', work).rules,
    ).not.toContain('git.push.default-branch');
    // A push that may run after a switch written below it: at exit, in the background, once per input.
    for (const command of [
      "trap 'git push' EXIT; git checkout -q main",
      '(sleep 2; git push) & git checkout -q main; wait',
      "printf '1\n2\n' | xargs -I{} sh -c 'git push; git checkout -q main'",
      '(sleep 3; git push origin HEAD) | git checkout -q main',
      'coproc (sleep 3; git push origin HEAD); git checkout -q main',
      'diff <(sleep 3; git push origin HEAD) <(git checkout -q main)',
      "tmux new-session -d 'sleep 5; git push origin HEAD'; git checkout -q main",
    ]) {
      expect(judged(command, work).rules, command).toContain('git.push.default-branch');
    }
    // A switch the loop spells in a way the text does not show is found by the walk.
    expect(
      judged("for r in a b; do git push origin HEAD; git chec''kout -q main; done", work).rules,
    ).toContain('git.push.default-branch');
    // Whatever runs before the push, only what can switch branches counts.
    for (const command of [
      'npm test && git push',
      'sleep 1; git push',
      'git commit -qm x >/dev/null && git push',
      'cd src; git push',
      'git fetch -q && git rebase origin/main && git push',
    ]) {
      expect(judged(command, repo).rules, command).toContain('git.push.default-branch');
      expect(judged(command, work).rules, command).not.toContain('git.push.default-branch');
    }
    // Destinations named elsewhere: a configured push refspec, every branch.
    for (const command of [
      'git -c remote.origin.push=HEAD:refs/heads/main push',
      'git push --all origin',
      'git push origin "refs/heads/*"',
    ]) {
      expect(judged(command, work).rules, command).toContain('git.push.default-branch');
    }
    // A switch in another repository says nothing about this one's branch.
    for (const command of [
      `env -C ${work} git checkout -b topic/w && git push origin HEAD`,
      `GIT_DIR=${work}/.git git checkout -b topic/w && git push origin HEAD`,
      `git -C ${work} checkout -b topic/w && git push origin HEAD`,
    ]) {
      expect(judged(command, repo).rules, command).toContain('git.push.default-branch');
    }
    // A switch in a repository nested in the work tree is that repository's.
    mkdirSync(join(work, 'vendor', 'y'), { recursive: true });
    git(join(work, 'vendor', 'y'), 'init', '-q', '-b', 'trunk');
    for (const command of [
      'git -C vendor/y checkout -q -b v2 && git add vendor && git commit -qm bump && git push',
      'cd vendor/y && git checkout -q -b v2 && cd ../.. && git push',
    ]) {
      expect(judged(command, work).rules, command).not.toContain('git.push.default-branch');
    }
    // A repository the command makes has a branch of its own: pushing from it is not told.
    for (const command of [
      'git clone -q https://example.com/a/x.git vendor/x && cd vendor/x && git push',
      'git worktree add .wt main && git -C .wt push',
      'git rebase origin/main main && git push',
      'git branch --mov main && git push',
      `export GIT_DIR=${repo}/.git; git push`,
    ]) {
      expect(judged(command, work).rules, command).toContain('git.push.default-branch');
    }
    // What the push reads of its configuration, changed by the command before it.
    for (const command of [
      'git config push.default matching && git push',
      'git checkout -q -b fix origin/main && git -c push.default=upstream push',
      'git branch -q -u origin/main && git -c push.default=upstream push',
    ]) {
      expect(judged(command, work).rules, command).toContain('git.push.default-branch');
    }
    for (const command of [
      'git config push.autoSetupRemote true && git push',
      'git config push.default current && git push',
      // A rebase of the branch named on the command line checks that branch out first.
      'git rebase origin/main topic/x && git push',
    ]) {
      expect(judged(command, work).rules, command).not.toContain('git.push.default-branch');
    }
    for (const command of [
      'git rebase origin/main main && git push',
      'git graft topic/x main && git push',
      `GIT_CONFIG_PARAMETERS="'remote.origin.push'='HEAD:refs/heads/main'" git push`,
      'X=HEAD:refs/heads/main git --config-env=remote.origin.push=X push',
    ]) {
      expect(judged(command, work).rules, command).toContain('git.push.default-branch');
    }
    // git's external commands that do not switch branches keep it.
    expect(judged('git lfs pull && git push', work).rules).not.toContain('git.push.default-branch');
    // A local branch whose name has a slash is no remote's.
    git(work, 'branch', 'release/main');
    expect(judged('git checkout release/main && git push origin HEAD', work).rules).not.toContain(
      'git.push.default-branch',
    );
    // Other spellings of the same push: git's own options, a shell string, eval.
    for (const command of [
      'git -C . push',
      `git -C ${repo} push origin`,
      'git --git-dir=.git push',
      "bash -c 'git commit -qam x && git push'",
      "eval 'git push'",
    ]) {
      expect(judged(command, repo).rules, command).toContain('git.push.default-branch');
    }
    expect(judged(`git -C ${work} push`, repo).gating).toEqual([]);
    expect(judged(`GIT_DIR=${repo}/.git git push`, work).rules).toContain('git.push.default-branch');
    // push.default=matching pushes every branch the remote also has: main among them.
    expect(judged('git -c push.default=matching push', work).rules).toContain('git.push.default-branch');
    // From main: a push that runs only once the switch succeeded is on the new branch.
    for (const command of [
      'git checkout -b topic/z && git push -u origin HEAD',
      'git switch -c topic/z && git add -A && git commit -qm x && git push -u origin',
      'git fetch -q && git checkout -q -b topic/z origin/main && git push origin HEAD',
    ]) {
      expect(judged(command, repo).gating, command).toEqual([]);
    }
    // Where the switch may have failed (or never ran), the branch before stays possible.
    for (const command of [
      'git checkout -b topic/z; git push origin HEAD',
      'git checkout -b topic/z || true && git push origin HEAD',
      'true || git checkout -b topic/z && git push origin HEAD',
      '! git checkout -b topic/z && git push origin HEAD',
      'git checkout -b topic/z | cat && git push origin HEAD',
      '(git checkout -b topic/z) && git push origin HEAD',
      'git checkout -b topic/z && git checkout main; git push origin HEAD',
    ]) {
      expect(judged(command, repo).rules, command).toContain('git.push.default-branch');
    }
    // A switch that cannot be told leaves the branch unknown: `git push origin "$(…)"` is not resolved.
    expect(
      judged('git checkout - && git push origin "$(git branch --show-current)"', work).gating,
    ).not.toEqual([]);
  });
});
