// The person check for commands that change what guards the project (installing or removing git
// hooks and shims): the same proof as override (person.ts), taken from the config in force here.
import type { CommandIO } from './command.js';
import { requirePerson } from './person.js';
import type { LoadedConfig } from './runtime.js';

export function needPerson(loaded: LoadedConfig, io: CommandIO, doing: string): void {
  requirePerson({
    tokens: loaded.config.tokens ?? [],
    env: io.env,
    interactive: io.interactive === true,
    doing,
    ...(io.ancestors ? { ancestors: io.ancestors } : {}),
  });
}
