// tollgate override: an operator lets a scoped set of gated calls through for a while, with a
// reason, audited. Never for agents: the caller holds an operator token of the config
// (TOLLGATE_OPERATOR_TOKEN), or, when the config lists none, sits at an interactive terminal; the
// Claude Code hook also refuses agents that try to run this command.
import { createHash, timingSafeEqual } from 'node:crypto';
import { callDigest } from '@tollgate/core';
import { flag, option, type ParsedArgs } from '../args.js';
import type { CommandIO } from '../command.js';
import { UsageError } from '../errors.js';
import { openRuntime } from '../runtime.js';
import { defineCommand, writeJson } from '../support.js';
import { parseTtl } from './ttl.js';

export const command = defineCommand(
  {
    name: 'override',
    summary: 'operator: let a scoped set of calls through, audited',
    options: {
      reason: 'string',
      session: 'string',
      rule: 'string',
      for: 'string',
      ttl: 'string',
      operator: 'string',
    },
    usage: `
Usage: tollgate override --reason TEXT --ttl DURATION [--session S] [--rule ID] [--for CMD]
                         [--operator NAME] [--json]

Lets gated calls through without a prediction, for a while, within a scope, with a reason. Every
override and every call it lets through is an audit row. At least one scope is required:
  --session S    only in this session        --rule ID    only calls matching this rule
  --for CMD      only this exact command
  --ttl D        how long it holds: 90s, 15m, 2h (at most 24h)
  --reason TEXT  why (recorded)
  --operator N   who you are (at an interactive terminal)

Operator only. Either set TOLLGATE_OPERATOR_TOKEN to a token listed in tollgate.config.yaml with
operator: true (its agent name is recorded as the operator), or — when the config lists no operator
tokens — run it yourself from an interactive terminal (stdin and stderr a TTY) with --operator N.
Anything else (a script, a pipe, an agent's shell) is refused with exit 1.
`,
  },
  async (args: ParsedArgs, io: CommandIO) => {
    const reason = option(args, 'reason')?.trim();
    if (!reason)
      throw new UsageError(
        'an override needs --reason',
        "e.g. --reason 'hotfix approved by the on-call lead'",
      );
    const ttlText = option(args, 'ttl');
    if (ttlText === undefined) throw new UsageError('an override needs --ttl', 'e.g. --ttl 15m');
    const ttlS = parseTtl(ttlText);
    const session = option(args, 'session');
    const rule = option(args, 'rule');
    const forCommand = option(args, 'for');
    if (session === undefined && rule === undefined && forCommand === undefined)
      throw new UsageError('an override needs a scope', 'give --session S, --rule ID and/or --for CMD');
    const runtime = await openRuntime({ cwd: io.cwd, env: io.env, channel: 'cli' });
    try {
      const operator = operatorName(
        runtime.loaded.config.tokens ?? [],
        io.env,
        option(args, 'operator'),
        io.interactive === true,
      );
      if (rule !== undefined && !runtime.policy.byId(rule))
        throw new UsageError(
          `no rule ${JSON.stringify(rule)} in the policy in force`,
          'see tollgate rules list',
        );
      const record = await runtime.gate.override({
        operator,
        reason,
        ttlS,
        ...(session !== undefined ? { session } : {}),
        ...(rule !== undefined ? { rule } : {}),
        ...(forCommand !== undefined
          ? { callDigest: callDigest({ tool: 'shell', args: { command: forCommand } }) }
          : {}),
      });
      if (flag(args, 'json')) writeJson(io, record);
      else
        io.stdout.write(
          `override ${record.id} by ${operator} until ${new Date(record.expires_at).toISOString()} (audited)\n`,
        );
      return 0;
    } finally {
      await runtime.close();
    }
  },
);

/**
 * Who grants the override, and proof that it is a human operator: an operator token of the config in
 * TOLLGATE_OPERATOR_TOKEN (compared in constant time), or — only when the config lists no operator
 * tokens — an interactive terminal (stdin and stderr both TTYs) plus --operator NAME. An agent's
 * shell has neither, so "no tokens configured" does not mean "anyone".
 */
export function operatorName(
  tokens: readonly { token: string; agent: string; operator?: boolean }[],
  env: NodeJS.ProcessEnv,
  given: string | undefined,
  interactive: boolean,
): string {
  const operators = tokens.filter((t) => t.operator === true);
  const presented = env.TOLLGATE_OPERATOR_TOKEN;
  if (presented) {
    const held = matchToken(operators, presented);
    if (!held)
      throw new UsageError(
        'overrides are operator-only: TOLLGATE_OPERATOR_TOKEN does not hold an operator token of the config',
        'set TOLLGATE_OPERATOR_TOKEN to a token listed in tollgate.config.yaml with operator: true',
      );
    return held.agent;
  }
  if (operators.length > 0)
    throw new UsageError(
      'overrides are operator-only: set TOLLGATE_OPERATOR_TOKEN to one of the operator tokens in the config',
      'an operator runs: TOLLGATE_OPERATOR_TOKEN=<operator token> tollgate override ...',
    );
  // Claude Code marks the processes its Bash tool starts; a terminal there is the agent's (script(1)
  // can fake one), not an operator's.
  if (env.CLAUDECODE)
    throw new UsageError(
      'overrides are operator-only and this runs inside a Claude Code session (CLAUDECODE is set), so an agent may be the one asking; nothing was recorded',
      'an operator runs tollgate override from their own terminal, outside the agent session, or sets TOLLGATE_OPERATOR_TOKEN to an operator token of the config',
    );
  if (!interactive)
    throw new UsageError(
      'overrides are operator-only and this is not an interactive terminal (stdin and stderr must be a TTY), so no human is known to be granting it; nothing was recorded',
      'an operator runs tollgate override from their own terminal with --operator NAME, or lists an operator token in tollgate.config.yaml (tokens: [{token, agent, operator: true}]) and sets TOLLGATE_OPERATOR_TOKEN',
    );
  if (!given)
    throw new UsageError('an override needs --operator NAME (who grants it)', 'e.g. --operator alice');
  return given;
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** The operator token equal to `presented`, comparing every one in constant time. */
function matchToken<T extends { token: string }>(tokens: readonly T[], presented: string): T | undefined {
  const mine = digest(presented);
  let found: T | undefined;
  for (const t of tokens) if (timingSafeEqual(mine, digest(t.token)) && !found) found = t;
  return found;
}
