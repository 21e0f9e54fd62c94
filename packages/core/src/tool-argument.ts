// The optional `tollgate` argument a gated tool gains wherever the model speaks through tool calls
// (the MCP proxy, the agent-framework adapters): its schema, the envelope from contracts/ inlined so
// no client or model has to resolve references, and the value as the model sent it. Some models send
// a nested object as a JSON string; that is decoded here (a translation), and everything else goes to
// check as given, which judges its shape and answers with rails.
import { schemas } from '@tollgate/contracts';
import { inlineSchema } from './inline-schema.js';
import { decodeJson } from './input.js';
import type { ToolClassification } from './tool-class.js';

export const TOLLGATE_ARG = 'tollgate';

/** The envelope schema ({prediction} or {decline}) with every reference inlined. */
export const envelopeArgumentSchema: Record<string, unknown> = inlineSchema(
  schemas.envelope as Record<string, unknown>,
);

export type EnvelopeArg = { ok: true; envelope: unknown } | { ok: false; message: string };

export function envelopeArg(raw: unknown): EnvelopeArg {
  if (typeof raw !== 'string') return { ok: true, envelope: raw };
  const trimmed = raw.trim();
  if (!trimmed.startsWith('{')) return { ok: true, envelope: raw };
  try {
    return { ok: true, envelope: decodeJson(trimmed) };
  } catch (error) {
    return {
      ok: false,
      message: `the "tollgate" argument is a string that looks like JSON but does not parse: ${(error as Error).message}; send {"prediction": {...}} or {"decline": {...}} as an object`,
    };
  }
}

/**
 * A tool's arguments split into its own and the envelope: what the real tool gets never carries the
 * `tollgate` key, whatever the model sent.
 */
export function splitToolArgs(input: Record<string, unknown>): {
  args: Record<string, unknown>;
  raw: unknown;
} {
  const { [TOLLGATE_ARG]: raw, ...args } = input;
  return { args, raw };
}

/** The argument as an in-process adapter lists it on a gated tool: reads made with the other tools. */
export const tollgateArgumentSchema: Record<string, unknown> = {
  ...envelopeArgumentSchema,
  title: 'Tollgate envelope',
  description:
    'Required for irreversible calls: {"prediction": {claims, evidence}} citing reads you made with your other tools as {"tool": NAME, "args": {...}}, or {"decline": {irreducible, would_change_my_mind, attempted_observations}}.',
};

/** The sentence a gated tool's description gains, so the model knows the contract before a refusal. */
export function gatedToolNote(c: ToolClassification): string {
  const which = c.conditional ? 'Some calls of this tool are irreversible' : 'This tool is irreversible';
  return `Tollgate: ${which} (${c.rules.join(', ')}), so such a call needs a "${TOLLGATE_ARG}" argument — a prediction backed by reads you made with your other tools, or a decline — and without one it is refused with instructions.`;
}

/**
 * A tool's JSON Schema with the envelope property added (never required). A schema that forbids
 * extra keys still admits this one: the adapter takes it off before the tool sees its arguments.
 */
export function withTollgateProperty(schema: Record<string, unknown>): Record<string, unknown> {
  const properties =
    schema.properties !== null && typeof schema.properties === 'object' && !Array.isArray(schema.properties)
      ? (schema.properties as Record<string, unknown>)
      : {};
  return { ...schema, type: 'object', properties: { ...properties, [TOLLGATE_ARG]: tollgateArgumentSchema } };
}
