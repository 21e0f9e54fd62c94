// tollgate observe: run a read, print its output, and record it in the ledger as an attested
// observation. Gated commands (irreversible, unknown-dynamic) are refused and never run: observe
// must not become a way around the gate. Anything the gate would pass anyway may run.
import { isGated } from '@tollgate/core';
import { flag, option, type ParsedArgs } from '../args.js';
import type { CommandIO } from '../command.js';
import { execCommand } from '../exec.js';
import { openRuntime, sessionFrom } from '../runtime.js';
import { agentFrom, commandLine, defineCommand, writeJson } from '../support.js';

export const command = defineCommand(
  {
    name: 'observe',
    summary: 'run a read and record its output in the ledger',
    options: { session: 'string', agent: 'string', command: 'string' },
    usage: `
Usage: tollgate observe [--json] [--session S] -- CMD...
       tollgate observe [--json] [--session S] --command STR

Runs a read-only command, prints its output, and records it in the ledger (source, digest of the
whole output, a bounded excerpt, time) so a prediction can cite it. The observation id is printed on
stderr. Gated commands (irreversible or unknown-dynamic) are refused (exit 2) and not run.

Exit code: the command's own, 2 when refused, 1 usage/internal.

  --json         do not pass the output through; print {"observation", "exit_code", "stdout", "stderr"}
  --session S    the session (default: TOLLGATE_SESSION, else "default")
  --agent A      the agent recorded with the observation (default: TOLLGATE_AGENT)
  --command STR  the command as one string, run by /bin/sh -c
`,
  },
  async (args: ParsedArgs, io: CommandIO) => {
    const line = commandLine(args, 'observe');
    const json = flag(args, 'json');
    const runtime = await openRuntime({ cwd: io.cwd, env: io.env, channel: 'cli' });
    try {
      const classification = runtime.gate.classify({ tool: 'shell', args: { command: line.command } });
      if (isGated(classification.class)) {
        const why = `it is ${classification.class} [${classification.rules.join(', ')}]; gated commands go through tollgate check/run, never observe`;
        const message = `observe refused ${JSON.stringify(line.command.slice(0, 200))}: ${why}`;
        const fix =
          'observe a read (git rev-parse, git ls-remote, git status, ls, cat, ...); run gated commands with tollgate run';
        if (json)
          writeJson(io, {
            error: { code: 'not_a_read', message, fix },
            class: classification.class,
            rules: classification.rules,
          });
        else io.stderr.write(`tollgate: ${message}\n  fix: ${fix}\n`);
        return 2;
      }
      const result = await execCommand(line, io.cwd, io.env, json ? undefined : io);
      if (result.spawnError !== undefined && !json)
        io.stderr.write(`tollgate: could not run the command: ${result.spawnError}\n`);
      const agent = agentFrom(args, io.env);
      const observation = await runtime.gate.recordObservation({
        session: sessionFrom(option(args, 'session'), io.env),
        source: line.command,
        output: result.stdout,
        exit_code: result.code,
        recordedBy: 'cli-observe',
        attested: true,
        cwd: io.cwd,
        ...(agent ? { agent } : {}),
      });
      if (json)
        writeJson(io, { observation, exit_code: result.code, stdout: result.stdout, stderr: result.stderr });
      else
        io.stderr.write(
          `tollgate: recorded observation ${observation.id} (cite {"observation": "${observation.id}", "quote": "..."})\n`,
        );
      return result.code;
    } finally {
      await runtime.close();
    }
  },
);
