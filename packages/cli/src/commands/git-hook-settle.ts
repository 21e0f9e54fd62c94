// `tollgate git-hook settle`: started detached by a hook after a dispatch. It waits for the git
// process to end (a hook cannot see git's exit code), reads the remote's refs to tell whether the
// push landed as git announced it, and records the outcome with the probed claims, as run does.
import { spawnSync } from 'node:child_process';
import { shellProbe } from '@tollgate/hooks';
import { option, type ParsedArgs } from '../args.js';
import type { CommandIO } from '../command.js';
import { UsageError } from '../errors.js';
import { realProgram } from '../real-program.js';
import { openRuntime, sessionFrom } from '../runtime.js';

const WAIT_MS = 15 * 60_000;

export async function settleAfterGit(args: ParsedArgs, io: CommandIO): Promise<number> {
  const audit = option(args, 'audit');
  const pid = Number(option(args, 'pid'));
  if (!audit || !Number.isInteger(pid) || pid <= 1)
    throw new UsageError('settle needs --audit ID and --pid PID', 'this runs from a git hook');
  await waitForExit(pid);
  const landed = remoteState(option(args, 'remote'), option(args, 'expect'), io);
  const runtime = await openRuntime({ cwd: io.cwd, env: io.env, channel: 'cli' });
  try {
    await runtime.gate.settle(audit, sessionFrom(option(args, 'session'), io.env), {
      status: landed.status,
      summary: landed.summary,
      observe: (subject) => shellProbe(subject, io.cwd),
    });
    return 0;
  } finally {
    await runtime.close();
  }
}

async function waitForExit(pid: number): Promise<void> {
  const end = Date.now() + WAIT_MS;
  while (Date.now() < end) {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface Expected {
  ref: string;
  sha: string | null;
}

/** ok when every pushed ref is now what git announced (deleted ones gone); error otherwise. */
function remoteState(
  remote: string | undefined,
  expectText: string | undefined,
  io: CommandIO,
): { status: 'ok' | 'error' | 'unknown'; summary: string } {
  const git = realProgram('git', io.env.PATH);
  if (remote === undefined || expectText === undefined || git === undefined)
    return { status: 'unknown', summary: 'git finished; a hook does not see its exit code' };
  let expected: Expected[];
  try {
    expected = JSON.parse(expectText) as Expected[];
  } catch {
    return { status: 'unknown', summary: 'the expected refs could not be read' };
  }
  const r = spawnSync(git, ['ls-remote', remote], { cwd: io.cwd, encoding: 'utf8', timeout: 30_000 });
  if (r.status !== 0) return { status: 'unknown', summary: `git ls-remote ${remote} failed` };
  const refs = new Map(
    r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const [sha, ref] = l.split('\t');
        return [ref ?? '', sha ?? ''] as const;
      }),
  );
  const off = expected.filter((e) => (refs.get(e.ref) ?? null) !== e.sha);
  return off.length === 0
    ? { status: 'ok', summary: `the remote's refs are as pushed: ${expected.map((e) => e.ref).join(', ')}` }
    : {
        status: 'error',
        summary: `not as pushed: ${off.map((e) => `${e.ref} is ${refs.get(e.ref) ?? 'absent'}`).join(', ')}`,
      };
}
