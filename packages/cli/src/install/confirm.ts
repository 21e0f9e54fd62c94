// Before host files change, after the person check (person-check.ts): the confirmation — --yes, or a
// y/N answer at a terminal; a script without --yes is refused, never half-applied.
import { createInterface } from 'node:readline';
import type { CommandIO } from '../command.js';
import { UsageError } from '../errors.js';

/** True when the change may go ahead: --yes, or "y" typed at a terminal. */
export async function confirmed(io: CommandIO, yes: boolean, command: string): Promise<boolean> {
  if (yes) return true;
  if (io.interactive !== true)
    throw new UsageError(
      'this changes agent host configs and no one confirmed it (not a terminal, no --yes); nothing was changed',
      `review the plan with tollgate ${command} --dry-run, then run tollgate ${command} --yes`,
    );
  io.stderr.write('Apply these changes? [y/N] ');
  const rl = createInterface({ input: io.stdin, terminal: false });
  try {
    for await (const line of rl) return /^\s*y(es)?\s*$/i.test(line);
    return false;
  } finally {
    rl.close();
  }
}
