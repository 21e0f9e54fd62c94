// tollgate run: check (consuming the prediction), run the command, record its outcome, re-read the
// claim subjects the gate may probe, and store predicted vs observed. Exit: the command's own code,
// 2 rejected, 3 declined, 1 usage/internal.
import type { ClaimResult, Verdict } from '@tollgate/contracts';
import { sanitiseText } from '@tollgate/core';
import { shellProbe } from '@tollgate/hooks';
import { flag, option, type ParsedArgs } from '../args.js';
import type { CommandIO } from '../command.js';
import { type ExecResult, execCommand } from '../exec.js';
import { openRuntime, type Runtime, sessionFrom } from '../runtime.js';
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
      );
      if (verdict.outcome !== 'pass' && verdict.outcome !== 'dispatch') {
        if (json) writeJson(io, { verdict });
        else printVerdict(io, verdict, line.command);
        return EXIT[verdict.outcome];
      }
      if (!json && verdict.override !== undefined) printOverride(io, verdict);
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

function tracked(v: Verdict): v is Verdict & { audit_id: string } {
  return v.audit_id !== undefined && (v.outcome === 'dispatch' || v.would_reject);
}

async function completeDispatch(
  runtime: Runtime,
  verdict: Verdict & { audit_id: string },
  result: ExecResult,
  session: string,
  io: CommandIO,
): Promise<ClaimResult[]> {
  const { claims } = await runtime.gate.settle(verdict.audit_id, session, {
    status: result.code === 0 ? 'ok' : 'error',
    exit_code: result.code,
    summary: (result.spawnError ?? (result.stderr.trim() || result.stdout.trim())).slice(-200),
    observe: (subject) => shellProbe(subject, io.cwd),
  });
  return claims;
}

function printClaims(io: CommandIO, verdict: Verdict, claims: ClaimResult[]): void {
  const lines = claims.map((c) => {
    const subject = typeof c.claim.subject === 'string' ? c.claim.subject : c.claim.subject.tool;
    const value = 'value' in c.claim ? ` ${JSON.stringify(c.claim.value)}` : '';
    return `  ${c.result.padEnd(12)} ${subject} ${c.claim.op}${value}`;
  });
  const none =
    verdict.prediction_id === undefined ? '  (no prediction was filed: nothing to compare)' : '  (no claims)';
  io.stderr.write(
    `tollgate: outcome recorded for ${verdict.audit_id}; predicted vs observed:\n${lines.join('\n') || none}\n`,
  );
}

/** An override that applies says so: who let the call through, why, until when, and what it used. */
function printOverride(io: CommandIO, verdict: Verdict): void {
  const applied = verdict.reasons.find((r) => r.code === 'override_applied');
  const used =
    verdict.prediction_id !== undefined
      ? `; the prediction ${verdict.prediction_id} filed for it is recorded and its claims are probed`
      : '; no prediction was filed for it';
  io.stderr.write(
    `tollgate: override ${verdict.override} applies: ${sanitiseText(applied?.message ?? 'an operator let this call through', 400)}${used}\n`,
  );
}
