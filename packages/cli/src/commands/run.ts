// tollgate run: check (consuming the prediction), run the command, record its outcome, re-read the
// claim subjects the gate may probe, and store predicted vs observed. Exit: the command's own code,
// 2 rejected, 3 declined, 1 usage/internal.
import { flag, option, type ParsedArgs } from '../args.js';
import type { CommandIO } from '../command.js';
import { completeDispatch, printClaims, printOverride, tracked } from '../dispatch-outcome.js';
import { recordViaSelf } from '../dispatch-via.js';
import { execCommand } from '../exec.js';
import { openRuntime, sessionFrom } from '../runtime.js';
import { projectStateDir } from '../state.js';
import {
  agentFrom,
  commandLine,
  defineCommand,
  directiveFrom,
  EXIT,
  shellCall,
  writeJson,
} from '../support.js';
import { printVerdict } from './verdict-text.js';

export const command = defineCommand(
  {
    name: 'run',
    summary: 'check, run, record the outcome and probe the post-state',
    options: { session: 'string', agent: 'string', command: 'string', directive: 'string' },
    usage: `
Usage: tollgate run [--json] [--session S] [--agent A] [--directive T] -- CMD...
       tollgate run [--json] [--session S] --command STR

Checks the command (consuming its prediction: each prediction covers one run), runs it if the verdict
is pass or dispatch, records the outcome, then re-runs the prediction's claim subjects that are reads
and stores predicted vs observed (see tollgate audit show ID).

Exit codes: the command's own exit code when it ran; 2 rejected (rails on stderr); 3 declined
(recorded, nothing ran); 1 usage/internal.

  --json         capture the command's output and print {"verdict", "exit_code", "stdout", "stderr", "claims"}
  --session S    the session (default: TOLLGATE_SESSION, else "default")
  --agent A      the agent recorded in the audit (default: TOLLGATE_AGENT)
  --directive T  what the agent was told to do (default: TOLLGATE_DIRECTIVE; TOLLGATE_DIRECTIVE_AT
                 its ISO time): audited with its latency, never evidence
  --command STR  the command as one string, run by /bin/sh -c (words after -- run without a shell)
`,
  },
  async (args: ParsedArgs, io: CommandIO) => {
    const line = commandLine(args, 'run');
    const json = flag(args, 'json');
    const session = sessionFrom(option(args, 'session'), io.env);
    const runtime = await openRuntime({ cwd: io.cwd, env: io.env, channel: 'cli' });
    try {
      const verdict = await runtime.gate.check(
        shellCall(line.command, session, agentFrom(args, io.env), directiveFrom(args, io.env)),
        { cwd: io.cwd },
      );
      if (verdict.outcome !== 'pass' && verdict.outcome !== 'dispatch') {
        if (json) writeJson(io, { verdict });
        else printVerdict(io, verdict, line.command);
        return EXIT[verdict.outcome];
      }
      if (!json && verdict.override !== undefined) printOverride(io, verdict);
      // A git hook under this command takes the dispatch as its own (git-hook.ts); no other process may.
      recordViaSelf(projectStateDir(runtime.loaded.root, io.env), verdict);
      const result = await execCommand(line, io.cwd, io.env, json ? undefined : io);
      if (result.spawnError !== undefined)
        io.stderr.write(`tollgate: could not run the command: ${result.spawnError}\n`);
      const claims = tracked(verdict)
        ? await completeDispatch(runtime, verdict, result, session, io)
        : undefined;
      if (json)
        writeJson(io, {
          verdict,
          exit_code: result.code,
          stdout: result.stdout,
          stderr: result.stderr,
          ...(claims ? { claims } : {}),
        });
      else if (claims) printClaims(io, verdict, claims);
      return result.code;
    } finally {
      await runtime.close();
    }
  },
);
