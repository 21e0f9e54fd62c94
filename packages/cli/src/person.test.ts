// Telling a person from the agent: agent hosts found by command line and environment, in an injected
// chain, in a fake /proc, and in a real process tree whose ancestor runs under the name `claude` or
// with CLAUDECODE=1 in its environment.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentHostAmong, agentHostInEnv, agentHostOfArgv, procAncestors, requirePerson } from './person.js';

const OPS = [{ token: 'operator-secret-0123456789', agent: 'oncall', operator: true }];
const human = () => [
  { pid: 300, argv: ['-bash'], env: { TERM: 'xterm', CODEX_HOME: '/home/u/.codex' } },
  { pid: 200, argv: ['sshd: u@pts/0'] },
  { pid: 1, argv: ['/sbin/init'] },
];

describe('agent hosts', () => {
  it.each([
    [['claude'], 'Claude Code'],
    [['node', '/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js'], 'Claude Code'],
    [['/usr/local/bin/codex', 'exec'], 'Codex'],
    [['node', '/home/u/.npm/_npx/1/node_modules/@openai/codex/bin/codex.js'], 'Codex'],
    [['node', '/usr/bin/gemini'], 'Gemini CLI'],
    [['cursor-agent', '-p'], 'Cursor agent'],
    [['copilot'], 'Copilot CLI'],
    [['python3', '-m', 'aider', '--yes'], 'aider'],
    [['/home/u/.local/bin/aider'], 'aider'],
    [['opencode', 'run'], 'opencode'],
    [['goose', 'session'], 'goose'],
  ])('finds %j as %s', (argv, host) => {
    expect(agentHostOfArgv(argv)).toBe(host);
  });

  it.each([
    [['-bash']],
    [['node', '/srv/app/server.js']],
    [['vim', 'claude.md']],
    [['python3', 'codex_report.py']],
    [[]],
  ])('leaves %j alone', (argv) => {
    expect(agentHostOfArgv(argv)).toBeUndefined();
  });

  it('reads the markers agent hosts put in the environment, not the user settings', () => {
    expect(agentHostInEnv({ CLAUDECODE: '1' })).toMatch(/Claude Code/);
    expect(agentHostInEnv({ CLAUDE_CODE_ENTRYPOINT: 'cli' })).toMatch(/Claude Code/);
    expect(agentHostInEnv({ CODEX_SANDBOX: 'seatbelt' })).toMatch(/Codex/);
    expect(agentHostInEnv({ GEMINI_CLI: '1' })).toMatch(/Gemini/);
    expect(agentHostInEnv({ CURSOR_TRACE_ID: 'x' })).toMatch(/Cursor/);
    expect(agentHostInEnv({ CODEX_HOME: '/h', CLAUDECODE: '', HOME: '/h' })).toBeUndefined();
    expect(agentHostAmong(human())).toBeUndefined();
    expect(agentHostAmong([...human(), { pid: 9, argv: ['x'], env: { GEMINI_CLI: '1' } }])).toMatch(/pid 9/);
  });
});

describe('requirePerson', () => {
  const base = { tokens: [], env: {}, interactive: true, doing: 'anchors', ancestors: human };

  it('accepts a terminal that no agent host runs', () => {
    expect(requirePerson(base)).toEqual({ via: 'terminal' });
  });

  it('refuses a terminal an agent host runs, a pipe, an agent environment, and an unseen ancestry', () => {
    const agent = () => [{ pid: 5, argv: ['sh', '-c', 'x'] }, { pid: 4, argv: ['claude'] }, ...human()];
    expect(() => requirePerson({ ...base, ancestors: agent })).toThrow(
      /agent host runs this terminal \(Claude Code, pid 4\)/,
    );
    expect(() => requirePerson({ ...base, interactive: false })).toThrow(/not an interactive terminal/);
    expect(() => requirePerson({ ...base, env: { CLAUDECODE: '1' } })).toThrow(/inside an agent session/);
    expect(() => requirePerson({ ...base, ancestors: () => undefined })).toThrow(/no \/proc/);
  });

  it('with operator tokens: the token decides, wherever it runs; a terminal is not enough', () => {
    const agent = () => [{ pid: 4, argv: ['claude'] }];
    const withTokens = { ...base, tokens: OPS, ancestors: agent, interactive: false };
    expect(requirePerson({ ...withTokens, env: { TOLLGATE_OPERATOR_TOKEN: OPS[0]!.token } })).toEqual({
      via: 'token',
      name: 'oncall',
    });
    expect(() =>
      requirePerson({ ...withTokens, env: { TOLLGATE_OPERATOR_TOKEN: 'nope-nope-nope-nope' } }),
    ).toThrow(/does not hold/);
    expect(() => requirePerson({ ...base, tokens: OPS })).toThrow(/TOLLGATE_OPERATOR_TOKEN/);
  });
});

describe('procAncestors', () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) c.kill('SIGKILL');
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('walks a /proc tree by parent pid, reading names with spaces and parentheses', () => {
    const proc = mkdtempSync(join(tmpdir(), 'tollgate-proc-'));
    dirs.push(proc);
    const fake = (pid: number, ppid: number, comm: string, argv: string[], env?: string[]) => {
      mkdirSync(join(proc, String(pid)));
      writeFileSync(join(proc, String(pid), 'stat'), `${pid} (${comm}) S ${ppid} 1 1 0`);
      writeFileSync(join(proc, String(pid), 'cmdline'), `${argv.join('\0')}\0`);
      if (env) writeFileSync(join(proc, String(pid), 'environ'), `${env.join('\0')}\0`);
    };
    fake(40, 30, 'tollgate', ['node', 'tollgate.js']);
    fake(30, 20, 'a) S 99 (b', ['sh', '-c', 'tollgate override'], ['PATH=/bin', 'X=a=b']);
    fake(20, 1, 'MainThread', ['claude']);
    fake(1, 0, 'init', ['/sbin/init']);
    const chain = procAncestors(40, proc);
    expect(chain?.map((a) => a.pid)).toEqual([30, 20, 1]);
    expect(chain?.[0]?.env).toEqual({ PATH: '/bin', X: 'a=b' });
    expect(chain?.[1]?.env).toBeUndefined();
    expect(agentHostAmong(chain ?? [])).toBe('Claude Code, pid 20');
    expect(procAncestors(40, join(proc, 'missing'))).toBeUndefined();
  });

  /** Starts `argv` and returns the pid of a shell it starts in turn (the process whose ancestors we walk). */
  async function tree(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
    const script = `const c = require('node:child_process').spawn('sh', ['-c', 'sleep 30; :'], { stdio: 'ignore' });
      process.stdout.write(String(c.pid) + '\\n'); setTimeout(() => {}, 30000);`;
    const child = spawn(argv[0] as string, [...argv.slice(1), '-e', script], {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    const line = await new Promise<string>((resolve) =>
      child.stdout?.once('data', (d: Buffer) => resolve(String(d))),
    );
    return Number(line.trim());
  }

  it.skipIf(process.platform !== 'linux')('finds a real ancestor started under the name claude', async () => {
    // bash's exec -a sets argv[0]: the node process shows as `claude`, as Claude Code's own does.
    const leaf = await tree([
      'bash',
      '-c',
      `exec -a claude ${JSON.stringify(process.execPath)} "$@"`,
      'bash',
    ]);
    const chain = procAncestors(leaf);
    expect(chain?.[0]?.argv[0]).toBe('claude');
    expect(agentHostAmong(chain ?? [])).toMatch(/^Claude Code, pid \d+$/);
  });

  it.skipIf(process.platform !== 'linux')(
    'finds a real ancestor whose environment has CLAUDECODE=1',
    async () => {
      const leaf = await tree([process.execPath], { ...process.env, CLAUDECODE: '1' });
      const chain = procAncestors(leaf);
      expect(chain?.[0]?.env?.CLAUDECODE).toBe('1');
      expect(agentHostAmong(chain?.slice(0, 1) ?? [])).toMatch(/Claude Code: CLAUDECODE/);
    },
  );

  it.skipIf(process.platform !== 'linux')('reaches pid 1 through the real parents', async () => {
    const leaf = await tree([process.execPath]);
    const chain = procAncestors(leaf);
    expect(chain?.[1]?.pid).toBe(process.pid);
    expect(chain?.at(-1)?.pid).toBe(1);
  });
});
