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
    expect(ticketCommand('tollgate check -- git push')).toEqual({ kind: 'none' });
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
