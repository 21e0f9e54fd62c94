// ansible ad-hoc tasks: the command line of the command/shell/raw module (the default is command) is
// a segment of its own; other modules and check mode run none.
import { describe, expect, it } from 'vitest';
import { parseShell } from './index.js';

const inner = (command: string) =>
  parseShell(command)
    .segments.filter((s) => s.program !== 'ansible')
    .map((s) => [s.program, s.via.join(' > ')]);

describe('ansible ad-hoc commands', () => {
  it.each([
    ["ansible db -m shell -a 'pg_ctl stop -D /srv/pg'", 'pg_ctl', 'ansible -m shell'],
    ['ansible all -a "shutdown -h now" --become', 'shutdown', 'ansible -m command'],
    ['ansible web --module-name=ansible.builtin.raw --args="rm -rf /srv/app"', 'rm', 'ansible -m raw'],
    ["ansible web -i prod.ini -mshell -a'truncate -s0 /var/log/app.log'", 'truncate', 'ansible -m shell'],
  ])('%s runs %s', (command, program, via) => {
    expect(inner(command)).toContainEqual([program, via]);
  });

  it.each([
    'ansible all -m ping',
    "ansible web -m copy -a 'src=a dest=/tmp/a'",
    "ansible web --check -m shell -a 'rm -rf /srv/app'",
    "ansible web -C -a 'reboot'",
  ])('%s runs no command line', (command) => {
    expect(inner(command)).toEqual([]);
  });

  it('a command built at run time is not trusted', () => {
    const facts = parseShell('ansible web -m shell -a "$CMD"');
    expect(facts.dynamic.map((d) => d.kind)).toContain('unresolved_code');
  });
});
