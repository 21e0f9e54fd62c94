// A function call as the model sent it, translated into the gate's terms: the arguments (a JSON
// object string) split into the tool's own and the `tollgate` envelope, and the call to check.
import type { Call } from '@tollgate/contracts';
import { canonicalJson, decodeJson, envelopeArg, splitToolArgs } from '@tollgate/core';

export type ParsedCall =
  | { ok: true; args: Record<string, unknown>; envelope: unknown }
  | { ok: false; message: string };

export function parseArguments(text: string): ParsedCall {
  let input: unknown;
  try {
    input = text.trim() === '' ? {} : decodeJson(text);
  } catch (error) {
    return { ok: false, message: `the arguments are not JSON: ${(error as Error).message}` };
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    return { ok: false, message: 'the arguments must be a JSON object' };
  const { args, raw } = splitToolArgs(input as Record<string, unknown>);
  const envelope = envelopeArg(raw);
  if (!envelope.ok) return { ok: false, message: envelope.message };
  return { ok: true, args, envelope: envelope.envelope };
}

export function callOf(tool: string, args: Record<string, unknown>, session: string, agent?: string): Call {
  return { tool, args, session, ...(agent !== undefined ? { agent } : {}) };
}

/** Whether two argument objects are the same call (key order aside). */
export function sameArgs(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
