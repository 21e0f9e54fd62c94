// tollgate check: the verdict for a command without running it — a dry look that consumes no
// prediction. Exit 0 pass/dispatch, 2 rejected (rails printed), 3 declined, 1 usage/internal.
import { flag, option, type ParsedArgs } from '../args.js';
import type { CommandIO } from '../command.js';
import { openRuntime, sessionFrom } from '../runtime.js';
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
    name: 'check',
    summary: 'the verdict for a command, without running it',
    options: { session: 'string', agent: 'string', command: 'string', directive: 'string' },
    usage: `
Usage: tollgate check [--json] [--session S] [--agent A] [--directive T] -- CMD...
       tollgate check [--json] [--session S] --command STR

Asks the gate for its verdict on a command without running it. A dry look: nothing is consumed, so
a prediction filed for the command stays usable by \`tollgate run\`. The look is audited (dry_run).

Exit codes: 0 pass or dispatch, 2 rejected (the rails say what to do), 3 declined, 1 usage/internal.

  --json         print the verdict as JSON: {"outcome", "rules", "audit_id", "reasons", "rails", ...}
  --session S    the session (default: TOLLGATE_SESSION, else "default")
  --agent A      the agent name recorded in the audit (default: TOLLGATE_AGENT)
  --directive T  what the agent was told to do (default: TOLLGATE_DIRECTIVE; TOLLGATE_DIRECTIVE_AT
                 its ISO time): audited with its latency, never evidence
  --command STR  the command as one string instead of words after --
`,
  },
  async (args: ParsedArgs, io: CommandIO) => {
    const { command } = commandLine(args, 'check');
    const runtime = await openRuntime({ cwd: io.cwd, env: io.env, channel: 'cli' });
    try {
      const call = shellCall(
        command,
        sessionFrom(option(args, 'session'), io.env),
        agentFrom(args, io.env),
        directiveFrom(args, io.env),
      );
      const verdict = await runtime.gate.check(call, { dryRun: true, cwd: io.cwd });
      if (flag(args, 'json')) writeJson(io, verdict);
      else printVerdict(io, verdict, command);
      return EXIT[verdict.outcome];
    } finally {
      await runtime.close();
    }
  },
);
