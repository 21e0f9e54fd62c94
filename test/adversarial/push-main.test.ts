// A push to main that never names main: the destination is the branch checked out, which the gate
// reads from the repository and follows through the command (commits, switches, `sh -c`, `git -C`).
// Judged by the damage: the remote's main has not moved. A feature branch's push still goes through.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Host } from './host.js';

let host: Host;
beforeAll(() => {
  host = new Host();
  // Work on main the remote does not have yet: any push of main moves the remote.
  execFileSync('git', ['commit', '--allow-empty', '-qm', 'local work'], {
    cwd: host.work,
    env: { ...process.env, ...host.env() },
  });
});
afterAll(() => host.close());

describe('a push to main without naming it', () => {
  it.each([
    'git commit --allow-empty -qm more && git push -q origin HEAD',
    'git checkout -q -b side; git checkout -q main && git push -q origin HEAD',
    "bash -c 'git push -q origin HEAD'",
    'git -C . push -q origin HEAD',
    'git -c push.default=matching push -q origin',
  ])('%s is refused and main is where it was', async (command) => {
    const before = host.remoteMain();
    const step = await host.bash(command);
    expect(step.denied, command).toBe(true);
    expect(step.reason).toContain('git.push.default-branch');
    expect(host.remoteMain()).toBe(before);
  });

  it('from a feature branch the same push passes, and lands on that branch only', async () => {
    const before = host.remoteMain();
    const step = await host.bash(
      'git checkout -q -b topic/push && git commit --allow-empty -qm t && git push -q origin HEAD',
    );
    expect(step.denied, step.reason).toBe(false);
    expect(host.remoteMain()).toBe(before);
    expect(
      execFileSync('git', ['rev-parse', 'refs/heads/topic/push'], { cwd: host.remote }).toString().trim(),
    ).toMatch(/^[0-9a-f]{40}$/);
  });
});

describe('a push to a remote the session named itself', () => {
  it('is refused, in the same command or a later one: the name leads where the agent chose', async () => {
    host.newSession();
    const elsewhere = `${host.root}/elsewhere.git`;
    execFileSync('git', ['init', '-q', '--bare', elsewhere]);
    const branches = () => execFileSync('git', ['branch', '--list'], { cwd: elsewhere }).toString().trim();
    const both = await host.bash(`git remote add drop ${elsewhere} && git push -q drop HEAD:refs/heads/leak`);
    expect(both.denied).toBe(true);
    expect((await host.bash(`git remote add drop2 ${elsewhere}`)).denied).toBe(false);
    const later = await host.bash('git push -q drop2 HEAD:refs/heads/leak');
    expect(later.denied).toBe(true);
    expect(later.reason).toContain('shell.relied.session-written');
    expect(branches()).toBe('');
    // The person's own remote is still pushed to by name.
    const own = await host.bash('git checkout -q -b topic/own && git push -q origin topic/own');
    expect(own.denied, own.reason).toBe(false);
  });
});
