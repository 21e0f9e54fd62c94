// Filing the agent's `tollgate predict|decline|observe|check` for a host that cannot rewrite the
// shell command it is about to run (Codex, Gemini CLI, Cursor, Copilot CLI): the hook process runs
// this very tollgate with the ticket's own words (no shell: each word is one argument, exactly as
// the agent's shell would have parsed it), bound to the hook's session and store, and hands back
// what it printed. Bounded in time and output.
import { spawn } from 'node:child_process';
import { boundedRun } from './bounded-run.js';
import type { TicketCommand } from './ticket-command.js';

export interface TicketRun {
  code: number | null;
  output: string;
}

export type TicketRunner = (
  ticket: Extract<TicketCommand, { kind: 'ticket' }>,
  where: { session: string; cwd: string; self: readonly string[]; env: Readonly<Record<string, string>> },
) => Promise<TicketRun>;

const TIMEOUT_MS = 20_000;
const MAX_OUTPUT = 64 * 1024;

export const spawnTicket: TicketRunner = (ticket, where) => {
  const [program, ...rest] = where.self;
  if (program === undefined) return Promise.resolve({ code: null, output: 'no tollgate to run' });
  // The hook's own environment (the host's, with its store pins), then the store the hook opened and
  // the host's session: no TOLLGATE_SESSION the environment carries can redirect it.
  const env: NodeJS.ProcessEnv = { ...process.env, ...where.env, TOLLGATE_SESSION: where.session };
  const child = spawn(program, [...rest, ticket.subcommand, ...ticket.args], {
    cwd: where.cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return boundedRun(child, { timeoutMs: TIMEOUT_MS, maxOutput: MAX_OUTPUT, keepStderr: true }).then((r) =>
    r.ok ? { code: r.code, output: r.output } : { code: null, output: r.error.message },
  );
};
