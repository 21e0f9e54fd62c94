// A pager or editor set for a command (variable, git -c, GIT_CONFIG_*, export) is judged as the
// command the program makes of it: harmless pagers and editors pass, ones that run or delete gate.
import { fileURLToPath } from 'node:url';
import { classify, loadPolicy } from '@tollgate/core';
import { describe, expect, it } from 'vitest';
import { parseShell } from './facts.js';

const catalogue = fileURLToPath(new URL('../../../contracts/policies/shell.yaml', import.meta.url));
const policy = loadPolicy([catalogue]);
const run = (command: string) => classify(policy, { tool: 'shell', args: { command } });

describe('pagers and editors that only page or edit pass', () => {
  it.each([
    'GIT_PAGER=cat git diff --stat',
    'PAGER=less git log -3',
    "git -c core.pager='less -FRX' show HEAD",
    'git -c pager.branch=false branch -a',
    'GIT_EDITOR=true git rebase --continue',
    'git -c core.editor=: commit --amend',
    'GIT_SEQUENCE_EDITOR=: git rebase -i HEAD~2',
    'export GIT_PAGER=cat; git log -1',
    'EDITOR=nano git commit',
    'MANPAGER=cat man tar',
  ])('%s', (command) => {
    const result = run(command);
    expect(result.gating, command).toEqual([]);
  });
});

describe('pagers and editors that run or delete gate', () => {
  it.each([
    'GIT_PAGER=bash git log',
    'PAGER=python3 git show',
    'git -c core.pager="xargs git branch -D" branch',
    'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=pager.log GIT_CONFIG_VALUE_0="sh -c \'git clean -fdx\'" git log',
    "GIT_EDITOR='git stash clear;' git commit",
    'GIT_EDITOR=sh git commit -e -m x',
    "git -c sequence.editor='rm -rf' rebase -i HEAD~2",
    'export GIT_PAGER=zsh; git log',
    'VISUAL=$TOOL git commit',
    "PAGER='git clean -fdx #' man ls",
    'sudo GIT_PAGER=sh git log',
    'git --config-env=core.pager=HOOK log',
  ])('%s', (command) => {
    const result = run(command);
    expect(['irreversible', 'unknown-dynamic'], command).toContain(result.class);
  });
});

describe('sudo NAME=value words set the command environment, as env does', () => {
  it('records them as the command assignments', () => {
    const ls = parseShell('sudo -u www A=1 B=2 ls /srv').segments.find((s) => s.program === 'ls');
    expect(ls?.assignments).toEqual(['A=1', 'B=2']);
    expect(ls?.positionals).toEqual(['/srv']);
  });

  it('an assignment that injects code gates through sudo too', () => {
    expect(run('sudo NODE_OPTIONS=--require=./x.js node app.js').class).toBe('unknown-dynamic');
  });
});

describe('SHELL names the program that runs the commands of script -c, tmux, parallel, entr -s, make', () => {
  it.each([
    'SHELL=./x script -qc true /dev/null',
    'export SHELL=./x; script -qc true /dev/null',
    'SHELL=./x tmux new -d ls',
    'SHELL=./x parallel echo ::: a',
    'SHELL=python3 entr -s "import os" < files',
    'SHELL="rm -rf keep" script -qc true /dev/null',
    'SHELL=$(cat f) make',
    'NPM_CONFIG_SCRIPT_SHELL=./x npm test',
  ])('%s gates', (command) => {
    expect(['irreversible', 'unknown-dynamic'], command).toContain(run(command).class);
  });

  it.each([
    'SHELL=/bin/bash script -qc true /dev/null',
    'export SHELL=/usr/bin/zsh; tmux new -d ls',
    'SHELL=sh make',
    'script -q log',
  ])('%s passes', (command) => {
    expect(run(command).gating, command).toEqual([]);
  });

  it('a shell given by path is judged as the program it is (listed, so one the session wrote is refused)', () => {
    const f = parseShell('SHELL=./bash script -qc true /dev/null');
    expect(f.segments.find((s) => s.via.includes('SHELL'))?.program).toBe('bash');
  });
});
