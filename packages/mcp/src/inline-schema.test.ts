// The inlined envelope schema must be reference-free and still accept exactly what contracts accept.
import { contractAjv, validate } from '@tollgate/contracts';
import { describe, expect, it } from 'vitest';
import { inlineSchema } from './inline-schema.js';
import { tollgateProperty } from './tollgate-argument.js';

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
