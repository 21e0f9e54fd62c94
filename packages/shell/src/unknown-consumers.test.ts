// A program the gate does not know may run what it is given: a here-document on its stdin, or an
// argument that is a whole command line (`retry 'CMD'`, `with-lock NAME 'CMD'`). A script file run by
// an interpreter is such a program for its here-document. Prose in an argument is not a command line.
import { fileURLToPath } from 'node:url';
import { classify, loadPolicy } from '@tollgate/core';
import { describe, expect, it } from 'vitest';

const catalogue = fileURLToPath(new URL('../../../contracts/policies/shell.yaml', import.meta.url));
const policy = loadPolicy([catalogue]);
const run = (command: string) => classify(policy, { tool: 'shell', args: { command } });
const gated = (command: string) => run(command).class !== 'unmatched';

describe('an argument of an unknown program that is a whole command line', () => {
  it('is read as the command it would run', () => {
    expect(run("retry-until-green 'git reset --hard origin/main'").rules).toContain('git.reset.discard');
    expect(run('with-lock deploy "rm -rf ./build ~/.cache"').class).toBe('irreversible');
    expect(run("mytool --exec 'git push --force origin main'").rules).toContain('git.push.force');
    expect(gated("mytool 'sudo shred -u secrets.txt'")).toBe(true);
  });

  it('passes when the line it would run is harmless', () => {
    expect(gated("retry-until-green 'git status && git log -1'")).toBe(false);
    expect(gated("mytool --exec 'ls -la src'")).toBe(false);
  });

  it("is not read for the gate's own CLI, whose --for names the call a prediction is about", () => {
    expect(gated("tollgate predict --for 'git push --force origin main' --json-doc '{}'")).toBe(false);
    expect(gated("tollgate decline --for 'rm -rf ./build' --file d.json")).toBe(false);
    // What it runs is still read.
    expect(run('tollgate run -- git push --force origin main').rules).toContain('git.push.force');
  });

  it("reads what the gate's own CLI runs: observe and run, as --command STR or after --", () => {
    for (const command of [
      "tollgate observe --command 'git push --force origin main'",
      "tollgate observe --command='git push --force origin main'",
      "tollgate observe --json --session s --command 'git status; git push --force origin main'",
      "tollgate observe -- 'git push --force origin main'",
      'tollgate observe -- git push --force origin main',
      "tollgate run --command 'git push --force origin main'",
      "npm exec tollgate -- observe --command 'git push --force origin main'",
      "npx tollgate observe -- 'git push --force origin main'",
    ])
      expect(run(command).rules, command).toContain('git.push.force');
    // A command string that cannot be told is not a read.
    expect(run('tollgate observe --command "$CMD"').class).toBe('unknown-dynamic');
    // Reads stay reads; check and predict run nothing.
    expect(gated("tollgate observe --command 'git rev-parse HEAD'")).toBe(false);
    expect(gated('tollgate observe -- git ls-remote origin refs/heads/main')).toBe(false);
    expect(gated("tollgate check --command 'git push --force origin main'")).toBe(false);
  });

  it('is not read when it is prose that merely mentions a command', () => {
    expect(gated('bd update issue-9 --notes "example: git reset --hard"')).toBe(false);
    expect(gated("notify-send 'please never rm -rf anything'")).toBe(false);
    expect(gated("mytool 'deploy done'")).toBe(false);
  });
});

describe('a here-document fed to a script file', () => {
  it('is read as commands, as an unknown program’s is: the script may run what it reads', () => {
    expect(run("python3 tool.py <<'EOF'\ngit reset --hard\nEOF").rules).toContain('git.reset.discard');
    expect(gated("ruby task.rb <<'EOF'\nrm -rf ~\nEOF")).toBe(true);
    // A command line held as a string in the text: read as the command line it is.
    expect(gated("python3 tool.py <<'PY'\ns = 'mkfs.ext4 /dev/sdb1'\nPY")).toBe(true);
  });

  it('passes text that holds no command', () => {
    expect(gated("python3 tool.py <<'EOF'\nhello world\nEOF")).toBe(false);
    expect(gated('python3 tool.py <<\'EOF\'\n{"name": "x", "count": 2}\nEOF')).toBe(false);
  });
});
