// tollgate override: an operator lets a scoped set of gated calls through for a while, with a
// reason, audited. Never for agents: with operator tokens in the config the caller must hold one
// (TOLLGATE_OPERATOR_TOKEN); the Claude Code hook refuses agents that try to run this command.
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
  --operator N   who you are; when tollgate.config.yaml lists operator tokens, set
                 TOLLGATE_OPERATOR_TOKEN instead and the token's name is used
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
      const operator = operatorName(runtime.loaded.config.tokens ?? [], io.env, option(args, 'operator'));
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

function operatorName(
  tokens: readonly { token: string; agent: string; operator?: boolean }[],
  env: NodeJS.ProcessEnv,
  given: string | undefined,
): string {
  const operators = tokens.filter((t) => t.operator === true);
  if (operators.length === 0) {
    if (!given)
      throw new UsageError('an override needs --operator NAME (who grants it)', 'e.g. --operator alice');
    return given;
  }
  const held = operators.find((t) => t.token === env.TOLLGATE_OPERATOR_TOKEN);
  if (!held)
    throw new UsageError(
      'overrides are operator-only: TOLLGATE_OPERATOR_TOKEN does not hold an operator token of the config',
      'set TOLLGATE_OPERATOR_TOKEN to a token with operator: true',
    );
  return held.agent;
}
