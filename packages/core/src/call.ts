// A Call as core sees it: validated against its schema, digested, and given the keys that bind
// predictions to it and find its evidence.
import type { Call, Reason, Source } from '@tollgate/contracts';
import { validate } from '@tollgate/contracts';
import { commandSpelling } from '@tollgate/shell';
import { canonicalJson, digestOf, NestingTooDeep } from './canonical.js';
import { SHELL_TOOL } from './classify.js';
import { reason } from './reasons.js';

export type CallParse =
  /** `canonical` is the canonical JSON of {tool, action, args} as given (the literal command), for the audit row. */
  { ok: true; call: Call; digest: string; canonical: string } | { ok: false; reasons: Reason[] };

export function parseCall(input: unknown): CallParse {
  const result = validate<Call>('call', input);
  if (!result.valid) {
    return {
      ok: false,
      reasons: result.problems.map((p) => reason('schema_invalid', `call: ${p.message}`, `/call${p.path}`)),
    };
  }
  // A shell call is its command line: without one there is nothing to classify, so it cannot pass.
  if (result.data.tool === SHELL_TOOL && typeof result.data.args.command !== 'string') {
    return {
      ok: false,
      reasons: [
        reason('schema_invalid', 'call: a shell call needs args.command as a string', '/call/args/command'),
      ],
    };
  }
  try {
    const canonical = canonicalJson(callShape(result.data));
    return { ok: true, call: result.data, digest: callDigest(result.data), canonical };
  } catch (error) {
    if (error instanceof NestingTooDeep) {
      return {
        ok: false,
        reasons: [reason('schema_invalid', `call: args are ${error.message}`, '/call/args')],
      };
    }
    // Anything else that cannot be put in canonical JSON (a BigInt, a getter that throws) is not a call.
    const why = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      reasons: [
        reason('schema_invalid', `call: args are not JSON data (${why.slice(0, 120)})`, '/call/args'),
      ],
    };
  }
}

/**
 * What a prediction binds to: sha256 of the canonical JSON of {tool, action, args}. A shell command
 * that parses is taken as the words it runs, quotes removed (`'HEAD~1'` and `HEAD~1` are one call),
 * with the operators and redirections between them; one that does not parse, as its literal text.
 */
export function callDigest(call: Pick<Call, 'tool' | 'action' | 'args'>): string {
  return digestOf(digestShape(call));
}

function digestShape(call: Pick<Call, 'tool' | 'action' | 'args'>) {
  const command = call.args.command;
  if (call.tool !== SHELL_TOOL || typeof command !== 'string') return callShape(call);
  const spelling = commandSpelling(command);
  if (spelling === undefined) return callShape(call);
  // The spelling sits outside args, so no literal command can digest like a parsed one.
  const { command: _literal, ...rest } = call.args;
  return { tool: call.tool, action: call.action, args: rest, shell: spelling };
}

function callShape(call: Pick<Call, 'tool' | 'action' | 'args'>) {
  return { tool: call.tool, action: call.action, args: call.args };
}

/**
 * The canonical text of a source, used to find observations by source: a command line with its
 * whitespace folded, or the canonical JSON of {tool, args}.
 */
export function sourceKey(source: Source): string {
  if (typeof source === 'string') return source.trim().replace(/\s+/g, ' ');
  return canonicalJson({ tool: source.tool, args: source.args ?? {} });
}

/** A source as one line for messages. */
export function sourceText(source: Source): string {
  return typeof source === 'string' ? source : `${source.tool} ${canonicalJson(source.args ?? {})}`;
}

/** What a read carries in itself: its command line, or the canonical JSON of a tool read's args. */
export function ownText(source: Source): string {
  return typeof source === 'string' ? source : canonicalJson(source.args ?? {});
}
