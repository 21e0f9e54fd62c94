// The proxy's own tool, tollgate_rules: what is gated on this server and why, which reads count as
// evidence, and how to attach a prediction or a decline — built from the loaded policy and the
// upstream's current tool list, so it never drifts from what the gate enforces.

import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { classifyTool, isGated, quoted, sanitiseText } from '@tollgate/core';
import { hintsOf } from './catalogue.js';
import type { ProxyContext } from './context.js';
import { RULES_TOOL } from './decorate.js';
import { errorResult, modelText } from './results.js';
import { SESSION_META_KEY } from './session.js';

export const rulesTool: Tool = {
  name: RULES_TOOL,
  title: 'What Tollgate gates on this server',
  description:
    'Lists which tools of this server are irreversible and gated by Tollgate (a prediction or a decline is required), which tools are reads that count as evidence, and how to attach a prediction or a decline. Pass "tool" for one tool.',
  inputSchema: {
    type: 'object',
    properties: { tool: { type: 'string', description: 'Explain this one tool only.' } },
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

export async function rulesResult(
  ctx: ProxyContext,
  args: Record<string, unknown> | undefined,
): Promise<CallToolResult> {
  const only = args?.tool;
  if (only !== undefined && typeof only !== 'string') {
    return errorResult('invalid_arguments', `${RULES_TOOL}: "tool" must be a tool name (a string)`);
  }
  try {
    await ctx.catalogue.ensureLoaded();
  } catch (error) {
    return errorResult(
      'upstream_unavailable',
      `${RULES_TOOL}: cannot list the upstream's tools: ${(error as Error).message}`,
    );
  }
  const tools = ctx.catalogue.all().filter((t) => only === undefined || t.name === only);
  if (only !== undefined && tools.length === 0) {
    return errorResult('invalid_arguments', `${RULES_TOOL}: this server has no tool named ${quoted(only)}`);
  }
  return { content: [modelText(explain(ctx, tools))] };
}

function explain(ctx: ProxyContext, tools: Tool[]): string {
  const gated: string[] = [];
  const reads: string[] = [];
  const free: string[] = [];
  for (const tool of tools) {
    const c = classifyTool(ctx.gate.policy, tool.name, hintsOf(tool));
    // The upstream names its tools: one line each, whatever characters it chose.
    const name = sanitiseText(tool.name, 128);
    if (isGated(c.class)) gated.push(...gatedLines(ctx, name, c.rules, c.conditional));
    else if (c.class === 'read-only') reads.push(name);
    else free.push(name);
  }
  return [
    'Tollgate sits between you and this server. Irreversible calls must carry a "tollgate" argument: a prediction (falsifiable claims about the state after the call, each backed by a read you made through this server) or a decline (what you cannot know, what would change your mind, which reads you tried). Without one the call is refused with instructions; a decline is recorded and nothing runs.',
    '',
    gated.length > 0 ? 'Gated tools:' : 'No tool of this server is gated.',
    ...gated,
    '',
    reads.length > 0
      ? `Reads (recorded as evidence when you call them; cite one as {"tool": NAME, "args": {...}} with exactly the arguments you used): ${reads.join(', ')}`
      : 'No tool of this server is a known read.',
    ...(free.length > 0 ? [`Other tools pass unguarded: ${free.join(', ')}`] : []),
    '',
    'A prediction: {"prediction": {"claims": [{"subject": {"tool": "<read tool>", "args": {...}}, "op": "contains", "value": "<what it will show after the call>"}], "evidence": [{"source": {"tool": "<read tool>", "args": {...}}, "quote": "<text you saw in its output>"}]}}',
    'A decline: {"decline": {"irreducible": "<what you cannot know>", "would_change_my_mind": ["<a read result>"], "attempted_observations": [{"source": {"tool": "<read tool>", "args": {...}}}]}}',
    `Ops: eq ne contains not_contains matches lt le gt ge exists absent. Each prediction covers one call. Reads count only within your session: this connection (its MCP session), which a client may split into several ledgers with _meta["${SESSION_META_KEY}"]; a new connection starts an empty ledger unless the operator pinned a session.`,
  ].join('\n');
}

function gatedLines(ctx: ProxyContext, tool: string, ruleIds: string[], conditional: boolean): string[] {
  const lines = [`- ${tool}${conditional ? ' (only some calls)' : ''}`];
  for (const id of ruleIds) {
    const rule = ctx.gate.policy.byId(id)?.rule;
    if (!rule) {
      lines.push(`    [${id}] its annotations say it is destructive, so calls no rule gates are gated too`);
      continue;
    }
    const age = rule.evidence?.max_age_s;
    const suggested = (rule.evidence?.reads ?? []).map((r) =>
      typeof r === 'string'
        ? r
        : `${r.tool} ${JSON.stringify(r.args ?? {}).replace(/\{\{\s*args\.([\w.-]+)\s*\}\}/g, '<$1>')}`,
    );
    lines.push(
      `    [${id}] ${rule.description}${age ? `; evidence must be at most ${age} s old` : ''}${suggested.length > 0 ? `; read first: ${suggested.join('; ')}` : ''}`,
    );
  }
  return lines;
}
