// tollgate rules list|test: the rules in force (config policies, precompiled or compiled), and what
// a command or tool call would match — the same classify core uses for real calls.
import { type Classification, classify, decodeJson, requirementsFor } from '@tollgate/core';
import { flag, option, type ParsedArgs } from '../args.js';
import type { CommandIO } from '../command.js';
import { UsageError } from '../errors.js';
import { openPolicy } from '../runtime.js';
import { commandLine, defineCommand, writeJson } from '../support.js';

export const command = defineCommand(
  {
    name: 'rules',
    summary: 'list the rules in force, or test a command against them',
    subcommands: ['list', 'test'],
    options: { command: 'string', tool: 'string', args: 'string' },
    usage: `
Usage: tollgate rules list [--json]
       tollgate rules test [--json] -- CMD...
       tollgate rules test [--json] --command STR
       tollgate rules test [--json] --tool NAME [--args JSON]

  list   every enabled rule of the policies in force (tollgate.config.yaml "policies", default
         builtin:shell and builtin:mcp): id, class, severity, tool, file, description
  test   which rules a shell command (or a tool call) matches, its class, the gated segment, and what
         a prediction for it needs: evidence age, suggested reads, post-state probes
`,
  },
  async (args: ParsedArgs, io: CommandIO) => {
    const [sub] = args.positionals;
    const { policy } = openPolicy(io.cwd, io.env);
    const json = flag(args, 'json');
    if (sub === 'list') {
      const rules = policy.rules.map(({ rule, file }) => ({
        id: rule.id,
        class: rule.class,
        severity: rule.severity,
        tool: rule.tool,
        file,
        description: rule.description,
      }));
      if (json) writeJson(io, rules);
      else {
        io.stdout.write('id\tclass\tseverity\ttool\tfile\tdescription\n');
        for (const r of rules)
          io.stdout.write(
            `${r.id}\t${r.class}\t${r.severity}\t${[r.tool].flat().join(',')}\t${r.file}\t${r.description}\n`,
          );
      }
      return 0;
    }
    if (sub !== 'test')
      throw new UsageError(
        `rules needs list or test, got ${JSON.stringify(sub ?? '')}`,
        'tollgate rules list | tollgate rules test -- CMD...',
      );
    const call = testCall(args);
    const c: Classification = classify(policy, call);
    const req = requirementsFor(c, call, 900);
    const result = {
      class: c.class,
      rules: c.rules,
      ...(c.segment !== undefined ? { segment: c.segment } : {}),
      ...(c.facts?.error !== undefined ? { error: c.facts.error } : {}),
      requirements: c.gating.length > 0 ? req : undefined,
    };
    if (json) writeJson(io, result);
    else {
      io.stdout.write(`${c.class}${c.rules.length ? ` [${c.rules.join(', ')}]` : ''}\n`);
      if (c.segment) io.stdout.write(`  gated segment: ${c.segment}\n`);
      for (const id of c.rules) io.stdout.write(`  ${id}: ${policy.byId(id)?.rule.description ?? ''}\n`);
      if (c.gating.length > 0) {
        io.stdout.write(
          `  evidence no older than ${req.maxAgeS} s${req.requireAttested ? ', attested only' : ''}\n`,
        );
        for (const read of req.reads)
          io.stdout.write(`  read: ${typeof read === 'string' ? read : JSON.stringify(read)}\n`);
        for (const probe of req.probes)
          io.stdout.write(`  probe: ${typeof probe === 'string' ? probe : JSON.stringify(probe)}\n`);
      }
    }
    return 0;
  },
);

function testCall(args: ParsedArgs): { tool: string; args: Record<string, unknown> } {
  const tool = option(args, 'tool');
  if (tool === undefined)
    return { tool: 'shell', args: { command: commandLine(args, 'rules test').command } };
  const raw = option(args, 'args');
  const parsed = raw === undefined ? {} : decodeJson(raw);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new UsageError('--args must be a JSON object', `e.g. --args '{"path": "/srv/a.txt"}'`);
  return { tool, args: parsed as Record<string, unknown> };
}
