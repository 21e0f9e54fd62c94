// tollgate override: an operator lets a scoped set of gated calls through for a while, with a
// reason, audited. Never for agents: the caller holds an operator token of the config
// (TOLLGATE_OPERATOR_TOKEN), or, when the config lists none, sits at an interactive terminal that no
// agent host runs (person.ts); the Claude Code hook also refuses agents that try to run this command.
import { callDigest } from '@tollgate/core';
import { flag, option, type ParsedArgs } from '../args.js';
import type { CommandIO } from '../command.js';
import { UsageError } from '../errors.js';
import { type AncestorSource, type OperatorToken, requirePerson } from '../person.js';
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
A terminal counts only when no agent host (Claude Code, Codex, Gemini CLI, Cursor, Copilot CLI,
aider, opencode, goose) is among this process's ancestors or in its environment, and only on Linux
(/proc shows the ancestry). Anything else (a script, a pipe, an agent's shell or pty) is refused
with exit 1.
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
        io.ancestors,
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
 * Who grants the override, and proof that it is a person (person.ts): an operator token of the config
 * in TOLLGATE_OPERATOR_TOKEN, or — only when the config lists no operator tokens — an interactive
 * terminal that no agent host runs, plus --operator NAME.
 */
export function operatorName(
  tokens: readonly OperatorToken[],
  env: NodeJS.ProcessEnv,
  given: string | undefined,
  interactive: boolean,
  ancestors?: AncestorSource,
): string {
  const person = requirePerson({
    tokens,
    env,
    interactive,
    doing: 'overrides',
    ...(ancestors ? { ancestors } : {}),
  });
  if (person.via === 'token') return person.name;
  if (!given)
    throw new UsageError('an override needs --operator NAME (who grants it)', 'e.g. --operator alice');
  return given;
}
