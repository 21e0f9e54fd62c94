// Recognising `tollgate predict|decline` in a Bash command, refusing forms the hook cannot bind
// safely, and the rewritten line that files into the hook's session.
import { copyFileSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeFileView } from '@tollgate/shell';
import { describe, expect, it } from 'vitest';
import { selfIdentity } from './self-identity.js';
import { boundTicketCommand, ticketCommand } from './ticket-command.js';

describe('ticketCommand', () => {
  it('recognises a plain predict or decline, also through npx', () => {
    expect(ticketCommand(`tollgate predict --for 'git push -f' --json-doc '{"a": 1}'`)).toEqual({
      kind: 'ticket',
      subcommand: 'predict',
      args: ['--for', 'git push -f', '--json-doc', '{"a": 1}'],
    });
    expect(ticketCommand('npx tollgate decline --for x --file d.json')).toMatchObject({
      kind: 'ticket',
      subcommand: 'decline',
    });
  });

  it('leaves everything else alone', () => {
    expect(ticketCommand('git push')).toEqual({ kind: 'none' });
    expect(ticketCommand('tollgate classify -- git push')).toEqual({ kind: 'agent', subcommand: 'classify' });
    expect(ticketCommand('echo tollgate predict')).toEqual({ kind: 'none' });
  });

  it('refuses forms it cannot bind: lists, pipes, substitutions, assignments, --session', () => {
    for (const command of [
      'tollgate predict --for x --file - < doc.json',
      'true && tollgate predict --for x --file d',
      'tollgate predict --for "$CMD" --file d',
      'TOLLGATE_DB=/tmp/other.db tollgate predict --for x --file d',
      'tollgate predict --session=s2 --for x --file d',
      'sudo tollgate predict --for x --file d',
    ]) {
      expect(ticketCommand(command).kind, command).toBe('refused');
    }
  });

  it('marks operator commands anywhere in the line', () => {
    expect(ticketCommand('ls; tollgate override --reason r --ttl 1h --session s')).toEqual({
      kind: 'operator',
      subcommand: 'override',
    });
  });

  it('marks shim and init git-hooks as operator: an agent cannot install or remove the guards outside the harness', () => {
    for (const [line, sub] of [
      ['tollgate shim uninstall --all', 'shim'],
      ['npx tollgate shim install git', 'shim'],
      ['tollgate shim exec --real /usr/bin/git git -- push --force', 'shim'],
      ['tollgate init git-hooks --remove', 'init'],
      ['tollgate git-hook pre-push origin url', 'git-hook'],
    ])
      expect(ticketCommand(line as string), line).toEqual({ kind: 'operator', subcommand: sub });
  });

  it('marks every review subcommand as operator: an agent cannot answer its own review (issue 13)', () => {
    for (const line of [
      'tollgate review approve 01M81J18G0J8723C63GQSYYSVS --reason ok',
      'npx tollgate review deny 01M81J18G0J8723C63GQSYYSVS --reason no',
      'tollgate review list',
    ])
      expect(ticketCommand(line)).toEqual({ kind: 'operator', subcommand: 'review' });
  });
});

describe('ticketCommand: the tollgate CLI through any launcher', () => {
  const roots = ['/opt/tg/packages/cli'];

  it('finds operator commands run through npx -y, npm exec, pnpm dlx, node <script>, wrappers', () => {
    const cases: [string, string][] = [
      ['npx -y tollgate override --reason x --ttl 24h --rule git.push.force --operator me', 'override'],
      ['npx --yes tollgate@latest override --reason x', 'override'],
      ['npm exec tollgate -- override --reason x', 'override'],
      ['npm exec -y -- tollgate init claude-code', 'init'],
      ['pnpm dlx tollgate serve', 'serve'],
      ['yarn dlx tollgate mcp -- srv', 'mcp'],
      ['bunx tollgate override', 'override'],
      // A shell string given to a runner runs what it says.
      ["npm exec -c 'tollgate override --reason x'", 'override'],
      ['pnpm dlx -c tollgate serve', 'serve'],
      ['node /opt/tg/packages/cli/bin/tollgate.js override --reason x', 'override'],
      ['node --no-warnings ./bin/tollgate.js init', 'init'],
      ['/usr/bin/node node_modules/tollgate/dist/tollgate.js hook claude-code', 'hook'],
      ['echo \'{"hook_event_name":"PostToolUse"}\' | tollgate hook claude-code', 'hook'],
      ['node /opt/tg/packages/cli/dist/hook.cjs claude-code < forged.json', 'claude-code'],
      // The command `tollgate init claude-code` installs: from a start-up snapshot, else plain.
      [
        'node --snapshot-blob /opt/tg/packages/cli/dist/.v8-cache/h.blob /opt/tg/packages/cli/bin/tollgate.js hook claude-code',
        'hook',
      ],
      ['node --snapshot-blob=./h.blob ./bin/tollgate.js hook claude-code', 'hook'],
      // The blob runs whatever the script word is: it is not what decides.
      ['node --snapshot-blob /opt/tg/packages/cli/dist/.v8-cache/h.blob classify hook claude-code', 'hook'],
      [
        'node --snapshot-blob h.blob /opt/tg/packages/cli/bin/tollgate.js hook claude-code; rc=$?; [ $rc -ne 14 ] && [ $rc -ne 134 ] && exit $rc; node /opt/tg/packages/cli/bin/tollgate.js hook claude-code',
        'hook',
      ],
      ['node /opt/tg/packages/cli/dist/other-entry.js override', 'override'],
      ["script -qc 'tollgate override --reason x --ttl 1h --rule r' /dev/null", 'override'],
      ["bash -c 'npx tollgate override --reason x'", 'override'],
      ['sudo tollgate override --reason x', 'override'],
      ['tollgate run -- git push --force', 'run'],
      ['tollgate audit export', 'audit'],
      ['tollgate "$SUB" --reason x', '$SUB'],
      ['tollgate uninstall --yes', 'uninstall'],
      ['npx -y tollgate uninstall --hosts claude-code --yes', 'uninstall'],
      ['node /opt/tg/packages/cli/bin/tollgate.js init --hosts codex --yes', 'init'],
      ["bash -c 'tollgate doctor && tollgate uninstall --yes'", 'uninstall'],
    ];
    for (const [command, subcommand] of cases) {
      expect(ticketCommand(command, roots), command).toEqual({ kind: 'operator', subcommand });
    }
  });

  it('leaves the agent-facing commands to the agent, through any launcher', () => {
    for (const command of [
      'tollgate classify --json -- git push',
      'tollgate rules list',
      'tollgate audit list --json',
      'node /opt/tg/packages/cli/bin/tollgate.js audit show abc',
      'tollgate doctor --json',
      'npx -y tollgate doctor --hosts claude-code',
    ]) {
      expect(ticketCommand(command, roots).kind, command).toBe('agent');
    }
    // Recording a read and a dry look are bound to the hook's session like a ticket.
    for (const [command, subcommand] of [
      ['tollgate observe -- git status', 'observe'],
      ['npx -y tollgate check -- git push --force', 'check'],
    ] as const) {
      expect(ticketCommand(command, roots)).toMatchObject({ kind: 'ticket', subcommand });
    }
    expect(ticketCommand('tollgate observe --session other -- git status', roots).kind).toBe('refused');
    expect(ticketCommand('npx -y tollgate predict --for x --file d.json', roots)).toMatchObject({
      kind: 'ticket',
      subcommand: 'predict',
    });
    // The runner's command is its own segment too: counted once, so still one plain ticket.
    expect(ticketCommand('npm exec tollgate -- decline --for x --file d.json', roots)).toMatchObject({
      kind: 'ticket',
      subcommand: 'decline',
    });
    expect(ticketCommand('grep -r override tollgate.config.yaml', roots)).toEqual({ kind: 'none' });
    expect(ticketCommand('git commit -m "tollgate override docs"', roots)).toEqual({ kind: 'none' });
  });
});

describe('boundTicketCommand', () => {
  it('prefixes the session and store and runs this tollgate, every word quoted', () => {
    const ticket = {
      kind: 'ticket' as const,
      subcommand: 'predict' as const,
      args: ['--for', "it's", '--file', 'p.json'],
    };
    expect(
      boundTicketCommand(ticket, 'abc 1', ['/usr/bin/node', '/opt/tg/bin/tollgate.js'], {
        TOLLGATE_DB: '/r/.tollgate/db',
      }),
    ).toBe(
      "TOLLGATE_DB=/r/.tollgate/db TOLLGATE_SESSION='abc 1' /usr/bin/node /opt/tg/bin/tollgate.js predict --for 'it'\\''s' --file p.json",
    );
  });
});

describe('ticketCommand: the program that will run, not the word typed', () => {
  const cli = join(import.meta.dirname, '../../cli');
  const bin = join(cli, 'bin', 'tollgate.js');
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'tollgate-self-')));
  symlinkSync(bin, join(dir, 'tg'));
  copyFileSync(bin, join(dir, 'copy.js'));
  writeFileSync(join(dir, 'other.js'), 'console.log(1)\n');
  const identity = selfIdentity([cli]);
  const where = { context: { cwd: dir, path: `${dir}:/usr/bin:/bin`, files: nodeFileView() }, identity };

  it.each([
    ['./tg override --reason x --ttl 1h --rule r', 'override'],
    ['tg override --reason x', 'override'], // found on PATH
    ['./t? init --force', 'init'], // a glob in command position
    ['node copy.js override --reason x', 'override'], // a copy of the entry file
    ['node ./c*y.js serve', 'serve'],
    [`/usr/bin/env -u CLAUDECODE ${dir}/tg override`, 'override'],
    ["script -qc './tg override --reason x' /dev/null", 'override'],
    ['bash -c "$(printf %s ./tg) hook claude-code"', 'hook'],
  ])('%s runs tollgate %s', (command, subcommand) => {
    expect(ticketCommand(command, [], where)).toMatchObject({ kind: 'operator', subcommand });
  });

  it('leaves other programs alone', () => {
    expect(ticketCommand('node other.js override', [], where)).toEqual({ kind: 'none' });
    expect(ticketCommand('ls -la', [], where)).toEqual({ kind: 'none' });
  });
});
