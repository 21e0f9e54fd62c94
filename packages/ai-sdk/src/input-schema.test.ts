// The envelope property on a tool's input schema: listed for the model beside the tool's own
// properties, accepted by validation even where the tool forbids extra keys, checked against nothing
// of the tool's own, and handed on for execute to split off; the tool's own rules still hold.
import { TOLLGATE_ARG, tollgateArgumentSchema } from '@tollgate/core';
import { asSchema, jsonSchema } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { withTollgateArg } from './input-schema.js';

const envelope = { decline: { irreducible: 'x', would_change_my_mind: ['y'], attempted_observations: [] } };

const declared = {
  zod: z.object({ path: z.string() }).strict(),
  // jsonSchema() validates only through the function it is given (the SDK checks nothing else).
  jsonSchema: jsonSchema<{ path: string }>(
    {
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
      additionalProperties: false,
    },
    {
      validate: (value) => {
        const ok =
          value !== null &&
          typeof value === 'object' &&
          Object.keys(value).join() === 'path' &&
          typeof (value as { path: unknown }).path === 'string';
        return ok
          ? { success: true, value: value as { path: string } }
          : { success: false, error: new Error('bad input') };
      },
    },
  ),
};

describe.each(Object.entries(declared))('withTollgateArg on a %s input schema', (_kind, schema) => {
  const augmented = withTollgateArg(schema);

  it('lists the envelope beside the tool’s own properties and keeps its required list', async () => {
    const json = (await augmented.jsonSchema) as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(json.properties)).toEqual(['path', TOLLGATE_ARG]);
    expect(json.properties[TOLLGATE_ARG]).toEqual(tollgateArgumentSchema);
    expect(json.required).toEqual(['path']);
  });

  it('accepts the envelope although the tool forbids extra keys, and hands it on', async () => {
    const ok = await augmented.validate?.({ path: '/a', [TOLLGATE_ARG]: envelope });
    expect(ok).toEqual({ success: true, value: { path: '/a', [TOLLGATE_ARG]: envelope } });
    // Without the tool's wrapper the same input is refused: the key is the wrapper's, not the tool's.
    const bare = await asSchema(schema).validate?.({ path: '/a', [TOLLGATE_ARG]: envelope });
    expect(bare?.success).toBe(false);
  });

  it('still applies the tool’s own rules, with and without an envelope', async () => {
    expect((await augmented.validate?.({ path: 1, [TOLLGATE_ARG]: envelope }))?.success).toBe(false);
    expect((await augmented.validate?.({ path: '/a', other: 1 }))?.success).toBe(false);
    expect(await augmented.validate?.({ path: '/a' })).toEqual({ success: true, value: { path: '/a' } });
    expect((await augmented.validate?.('not an object'))?.success).toBe(false);
  });
});
