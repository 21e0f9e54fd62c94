// tollgate predict / decline: the document from --file, --json-doc or flags, bound to the command
// given by --for (or after --), checked by core now and recorded for the call's next run.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Call } from '@tollgate/contracts';
import { decodeJson } from '@tollgate/core';
import { toolCall } from '@tollgate/hooks';
import { flag, type OptionSpec, option, type ParsedArgs } from '../args.js';
import type { Command, CommandIO } from '../command.js';
import { UsageError } from '../errors.js';
import { openRuntime, sessionFrom } from '../runtime.js';
import { agentFrom, commandLine, defineCommand, shellCall, writeJson } from '../support.js';

export type TicketKind = 'prediction' | 'decline';

const COMMON: OptionSpec = {
  for: 'string',
  tool: 'string',
  args: 'string',
  file: 'string',
  'json-doc': 'string',
  session: 'string',
  agent: 'string',
};

export function ticketCommand(
  kind: TicketKind,
  def: {
    name: string;
    summary: string;
    usage: string;
    options: OptionSpec;
    fromFlags: (args: ParsedArgs) => unknown;
  },
): Command {
  return defineCommand({ ...def, options: { ...COMMON, ...def.options } }, async (args, io) => {
    const target = targetOf(args, def.name);
    const command = target.label;
    const doc = documentFrom(args, io, def.fromFlags);
    const runtime = await openRuntime({ cwd: io.cwd, env: io.env, channel: 'cli' });
    try {
      const session = sessionFrom(option(args, 'session'), io.env);
      const agent = agentFrom(args, io.env);
      const call: Call =
        target.kind === 'command'
          ? shellCall(target.label, session, agent)
          : { ...target.call, session, ...(agent ? { agent } : {}) };
      const result =
        kind === 'prediction'
          ? await runtime.gate.recordPrediction(call, doc)
          : await runtime.gate.recordDecline(call, doc);
      if (flag(args, 'json')) writeJson(io, result);
      else if (!result.ok) {
        io.stderr.write(
          `tollgate: the ${kind} is not valid; nothing was recorded:\n${result.reasons
            .map((r) => `  - [${r.code}] ${r.message}${r.path ? ` (at ${r.path})` : ''}`)
            .join('\n')}\n`,
        );
      } else if (!result.gated) {
        io.stdout.write(
          `the command is ${result.class}, not gated: no ${kind} is needed, nothing was recorded\n`,
        );
      } else {
        io.stdout.write(
          `recorded ${kind} ${result.id} for ${JSON.stringify(command.slice(0, 200))} [${result.rules.join(', ')}]; ${
            kind === 'prediction'
              ? 'it is used by the next run of exactly this command'
              : 'the next run of exactly this command is declined: nothing runs'
          }\n`,
        );
      }
      return result.ok ? 0 : 2;
    } finally {
      await runtime.close();
    }
  });
}

type Target =
  | { kind: 'command'; label: string }
  | { kind: 'tool'; label: string; call: Pick<Call, 'tool' | 'action' | 'args'> };

/**
 * What the ticket is for: a command (--for CMD or -- CMD...), or a host tool call (--tool NAME --args
 * JSON), bound exactly as the Claude Code hook binds that tool call (mcp__server__tool → the bare tool).
 */
function targetOf(args: ParsedArgs, name: string): Target {
  const tool = option(args, 'tool');
  const toolArgs = option(args, 'args');
  if (tool === undefined) {
    if (toolArgs !== undefined)
      throw new UsageError(
        '--args goes with --tool',
        `e.g. tollgate ${name} --tool mcp__fs__write_file --args '{"path": "/a"}' ...`,
      );
    return { kind: 'command', label: commandLine(args, name, 'for').command };
  }
  if (option(args, 'for') !== undefined || args.rest !== undefined)
    throw new UsageError(
      'give either a command (--for or --) or a tool call (--tool/--args), not both',
      'drop one of them',
    );
  if (tool.trim() === '' || tool === 'Bash')
    throw new UsageError(
      `--tool ${JSON.stringify(tool)} is not a tool call to bind`,
      'for a shell command use --for CMD',
    );
  if (toolArgs === undefined)
    throw new UsageError(
      '--tool needs --args JSON: the exact arguments of the call',
      `e.g. tollgate ${name} --tool ${tool} --args '{"path": "/a"}' ...`,
    );
  const parsed = decodeJson(toolArgs);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new UsageError('--args is not a JSON object', "give the tool call's arguments as one JSON object");
  return { kind: 'tool', label: tool, call: toolCall(tool, parsed as Record<string, unknown>) };
}

function documentFrom(args: ParsedArgs, io: CommandIO, fromFlags: (args: ParsedArgs) => unknown): unknown {
  const file = option(args, 'file');
  const inline = option(args, 'json-doc');
  const flagged = fromFlags(args);
  const given = [file !== undefined, inline !== undefined, flagged !== undefined].filter(Boolean).length;
  if (given === 0)
    throw new UsageError(
      'no document given',
      'give --file F, --json-doc JSON, or the document flags (see --help)',
    );
  if (given > 1)
    throw new UsageError(
      'give the document one way only',
      'use one of --file, --json-doc or the document flags',
    );
  if (inline !== undefined) return decodeJson(inline);
  if (file !== undefined) {
    let bytes: Buffer;
    try {
      bytes = file === '-' ? readFileSync(0) : readFileSync(resolve(io.cwd, file));
    } catch (error) {
      throw new UsageError(
        `cannot read ${file}: ${(error as Error).message}`,
        'check the path given to --file',
      );
    }
    return decodeJson(bytes);
  }
  return flagged;
}

/** A value given on the command line: JSON when it parses as a number, boolean or null, else the text. */
export function typedValue(raw: string): unknown {
  if (/^(-?\d+(\.\d+)?|true|false|null)$/.test(raw)) return JSON.parse(raw);
  return raw;
}

/** A source given on the command line: a command string, or {"tool", "args"} JSON. */
export function sourceValue(raw: string): unknown {
  return raw.trimStart().startsWith('{') ? decodeJson(raw) : raw;
}
