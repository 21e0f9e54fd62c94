// A literal command line handed to the shell from interpreter code is a command of the call: a
// harmless one passes, a destructive one is judged like the same command typed directly, and a
// call whose argument is not one plain literal keeps the code unknown-dynamic.
import { fileURLToPath } from 'node:url';
import { classify, loadPolicy } from '@tollgate/core';
import { describe, expect, it } from 'vitest';
import { shellCalls } from './shell-calls.js';

const catalogue = fileURLToPath(new URL('../../../contracts/policies/shell.yaml', import.meta.url));
const policy = loadPolicy([catalogue]);
const run = (command: string) => classify(policy, { tool: 'shell', args: { command } });

describe('shellCalls', () => {
  it('finds the command lines and leaves the rest of the code', () => {
    expect(shellCalls('awk', 'BEGIN { system("date -u"); print 1 }')).toEqual({
      commands: ['date -u'],
      rest: 'BEGIN {  ""; print 1 }',
    });
    expect(shellCalls('python', "import os, sys; os.system('uname -a')")?.commands).toEqual(['uname -a']);
    expect(
      shellCalls('python', "import subprocess; subprocess.run(['git', 'log', '-1'], check=True)")?.commands,
    ).toEqual(["'git' 'log' '-1'"]);
  });

  it('reads every element of an argv list, brackets inside them included', () => {
    expect(shellCalls('python', "subprocess.call(['rm', ']', '-rf', '/srv'])")?.commands).toEqual([
      "'rm' ']' '-rf' '/srv'",
    ]);
  });

  it('drops os / subprocess imports only when nothing else uses them', () => {
    expect(shellCalls('python', "import os, json; os.system('ls')")?.rest).not.toMatch(/\bos\b/);
    expect(shellCalls('python', "import os; os.system('ls'); os.remove('x')")?.rest).toMatch(/\bos\b/);
  });

  it.each<[string, string]>([
    ['ruby', 'system("ls #{dir}")'],
    ['perl', 'system("ls $dir")'],
    ['perl', 'system("rm", "-rf", "x")'],
    ['python', "subprocess.run(['rm -rf x'], shell=True)"],
    ['python', 'os.system(cmd)'],
    ['awk', 'BEGIN { system("ls " d) }'],
    ['php', 'system("ls $d");'],
  ])('%s: %s is not a literal call', (language, code) => {
    expect(shellCalls(language as 'ruby', code)).toBeNull();
  });
});

describe('classified through the catalogue', () => {
  it.each([
    `awk 'BEGIN { system("date") }'`,
    `python3 -c "import os; os.system('git status --short')"`,
    `python3 -c "import subprocess; print(subprocess.check_output(['git', 'rev-parse', 'HEAD'], text=True))"`,
    `ruby -e 'system("ls -la")'`,
    `perl -e 'system "uname -r";'`,
    `node -e "require('child_process').execSync('git log -1', { stdio: 'inherit' })"`,
    `php -r 'echo shell_exec("whoami");'`,
  ])('%s passes', (command) => {
    expect(run(command).gating, command).toEqual([]);
  });

  it.each([
    [`awk 'BEGIN { system("git reset --hard") }'`, 'git.reset.discard'],
    [`python3 -c "import os; os.system('rm -rf /srv/data')"`, 'fs.rm.recursive-or-force'],
    [`python3 -c "import subprocess; subprocess.run(['git', 'push', '--force'])"`, 'git.push.force'],
    [`ruby -e 'puts \`git stash clear\`'`, 'git.stash.drop'],
    [`perl -e 'exec("git clean -fdx")'`, 'git.clean.force'],
    [`node -e "require('child_process').execSync('git branch -D old')"`, 'git.branch.force-delete'],
    [`python3 -c "import os; os.system('ls'); os.remove('x')"`, 'shell.dynamic'],
    [`awk 'BEGIN { system("ls"); system(cmd) }'`, 'shell.dynamic'],
  ])('%s → %s', (command, rule) => {
    expect(run(command).rules).toContain(rule);
  });
});
