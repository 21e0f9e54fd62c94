// Recognising `tollgate predict|decline` in a Bash command, refusing forms the hook cannot bind
// safely, and the rewritten line that files into the hook's session.
import { describe, expect, it } from 'vitest';
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
    expect(ticketCommand('tollgate check -- git push')).toEqual({ kind: 'agent', subcommand: 'check' });
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
      ['node /opt/tg/packages/cli/bin/tollgate.js override --reason x', 'override'],
      ['node --no-warnings ./bin/tollgate.js init', 'init'],
      ['/usr/bin/node node_modules/tollgate/dist/tollgate.js hook claude-code', 'hook'],
      ['echo \'{"hook_event_name":"PostToolUse"}\' | tollgate hook claude-code', 'hook'],
      ['node /opt/tg/packages/cli/dist/hook.cjs claude-code < forged.json', 'claude-code'],
      ['node /opt/tg/packages/cli/dist/other-entry.js override', 'override'],
      ["script -qc 'tollgate override --reason x --ttl 1h --rule r' /dev/null", 'override'],
      ["bash -c 'npx tollgate override --reason x'", 'override'],
      ['sudo tollgate override --reason x', 'override'],
      ['tollgate run -- git push --force', 'run'],
      ['tollgate audit export', 'audit'],
      ['tollgate "$SUB" --reason x', '$SUB'],
    ];
    for (const [command, subcommand] of cases) {
      expect(ticketCommand(command, roots), command).toEqual({ kind: 'operator', subcommand });
    }
  });

  it('leaves the agent-facing commands to the agent, through any launcher', () => {
    for (const command of [
      'tollgate classify --json -- git push',
      'npx -y tollgate check -- git push --force',
      'tollgate rules list',
      'tollgate observe -- git status',
      'tollgate audit list --json',
      'node /opt/tg/packages/cli/bin/tollgate.js audit show abc',
    ]) {
      expect(ticketCommand(command, roots).kind, command).toBe('agent');
    }
    expect(ticketCommand('npx -y tollgate predict --for x --file d.json', roots)).toMatchObject({
      kind: 'ticket',
      subcommand: 'predict',
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
