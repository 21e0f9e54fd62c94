// The inlined envelope schema must be reference-free and still accept exactly what contracts accept;
// the argument as sent is decoded (a JSON string) and split off the tool's own arguments.
import { contractAjv, validate } from '@tollgate/contracts';
import { describe, expect, it } from 'vitest';
import { inlineSchema } from './inline-schema.js';
import {
  envelopeArg,
  splitToolArgs,
  TOLLGATE_ARG,
  tollgateArgumentSchema,
  envelopeArgumentSchema as tollgateProperty,
  withTollgateProperty,
} from './tool-argument.js';

const prediction = {
  claims: [{ subject: { tool: 'read_text_file', args: { path: '/a' } }, op: 'contains', value: 'x' }],
  evidence: [{ source: { tool: 'list_directory', args: { path: '/' } }, quote: '[FILE] a' }],
};
const decline = { irreducible: 'n/a', would_change_my_mind: ['a read'], attempted_observations: [] };

describe('the tollgate argument schema', () => {
  it('holds no reference, $id or $defs anywhere', () => {
    const text = JSON.stringify(tollgateProperty);
    expect(text).not.toContain('$ref');
    expect(text).not.toContain('$id');
    expect(text).not.toContain('$defs');
  });

  it('agrees with the contract envelope schema on valid and invalid documents', () => {
    const check = contractAjv().compile({ ...tollgateProperty, $id: 'test:inlined-envelope' });
    const docs = [
      { prediction },
      { decline },
      { prediction, decline },
      { prediction: { ...prediction, claims: [] } },
      { prediction: { ...prediction, claims: [{ subject: 'x', op: 'contains' }] } },
      { decline: { ...decline, would_change_my_mind: [] } },
      'predict',
      {},
    ];
    for (const doc of docs) expect(check(doc), JSON.stringify(doc)).toBe(validate('envelope', doc).valid);
  });

  it('names an unknown reference instead of guessing', () => {
    expect(() => inlineSchema({ $ref: 'urn:nowhere' })).toThrow(/unknown schema reference urn:nowhere/);
    expect(() => inlineSchema({ $ref: '#/$defs/missing' })).toThrow(/points at nothing/);
  });
});

describe('the tollgate argument as sent', () => {
  it('decodes a JSON string, passes anything else through and names a broken one', () => {
    expect(envelopeArg('{"decline": {"irreducible": "x"}}')).toEqual({
      ok: true,
      envelope: { decline: { irreducible: 'x' } },
    });
    expect(envelopeArg({ prediction })).toEqual({ ok: true, envelope: { prediction } });
    expect(envelopeArg('predict')).toEqual({ ok: true, envelope: 'predict' });
    expect(envelopeArg(undefined)).toEqual({ ok: true, envelope: undefined });
    const broken = envelopeArg('{"prediction": ');
    expect(broken.ok).toBe(false);
    expect(!broken.ok && broken.message).toMatch(/does not parse/);
  });

  it('splits the envelope off, so the tool never sees the key', () => {
    const { args, raw } = splitToolArgs({ path: '/a', [TOLLGATE_ARG]: { decline } });
    expect(args).toEqual({ path: '/a' });
    expect(raw).toEqual({ decline });
    expect(splitToolArgs({ path: '/a' })).toEqual({ args: { path: '/a' }, raw: undefined });
  });
});

describe('withTollgateProperty', () => {
  it('adds the envelope beside the tool’s properties, never to its required list', () => {
    const schema = {
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
      additionalProperties: false,
    };
    const out = withTollgateProperty(schema);
    expect(out).toEqual({
      ...schema,
      properties: { path: { type: 'string' }, [TOLLGATE_ARG]: tollgateArgumentSchema },
    });
    expect(schema.properties).toEqual({ path: { type: 'string' } });
    expect(withTollgateProperty({})).toEqual({
      type: 'object',
      properties: { [TOLLGATE_ARG]: tollgateArgumentSchema },
    });
  });
});
