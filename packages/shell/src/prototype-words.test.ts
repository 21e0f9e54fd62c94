// Words of the command line index the parser's tables (prefix specs, SQL clients, npm's run verbs):
// a word that names a property every object inherits (constructor, toString, __proto__) must be an
// unknown word like any other, never a table entry — it made `constructor rm -rf /x` a prefix and
// `constructor -c x` a parser fault.
import { expect, it } from 'vitest';
import { parseShell } from './facts.js';

const INHERITED = [...Object.getOwnPropertyNames(Object.prototype), '__proto__'];

it('reads an inherited property name in command position as an unknown program', () => {
  // The same facts as for a word no table holds, that word standing where the property name stood.
  const programs = (command: string, word: string) =>
    parseShell(command).segments.map((s) => (s.program === word.toLowerCase() ? '<word>' : s.program));
  for (const word of INHERITED) {
    for (const line of ['W rm -rf /srv/x', 'W -c x', 'W -u root x', 'sudo W -c x']) {
      const command = line.replace('W', word);
      const facts = parseShell(command);
      expect(facts.error, command).toBeUndefined();
      expect(programs(command, word), command).toEqual(
        programs(line.replace('W', 'unknownprog'), 'unknownprog'),
      );
    }
  }
});

it('reads an inherited property name as a subcommand without a parser fault', () => {
  for (const word of INHERITED) {
    for (const command of [
      `npm ${word}`,
      `npm run ${word}`,
      `psql ${word}`,
      `git ${word}`,
      `sudo ${word} -c x`,
    ]) {
      const facts = parseShell(command);
      expect(facts.error, command).toBeUndefined();
    }
  }
});
