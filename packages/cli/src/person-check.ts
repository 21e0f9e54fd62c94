// The person check for commands that change what guards the project (installing or removing git
// hooks and shims, overwriting a config, anchoring the audit chain, resetting a store pin): the same
// proof as override (person.ts), taken from the config in force here; the person is returned for the
// commands that record who it was.
import type { CommandIO } from './command.js';
import { type Person, requirePerson } from './person.js';
import type { LoadedConfig } from './runtime.js';

export function needPerson(loaded: LoadedConfig, io: CommandIO, doing: string): Person {
  return requirePerson({
    tokens: loaded.config.tokens ?? [],
    env: io.env,
    interactive: io.interactive === true,
    doing,
    ...(io.ancestors ? { ancestors: io.ancestors } : {}),
  });
}
