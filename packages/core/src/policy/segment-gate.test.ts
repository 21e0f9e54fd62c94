// The necessary condition read from a segment predicate that no program list pins: which programs,
// or which non-empty lists, a segment needs before the predicate is worth evaluating.
import { describe, expect, it } from 'vitest';
import { segmentGate } from './segment-gate.js';

const listed = (name: string, item: object = { type: 'string' }) => ({
  type: 'object',
  required: [name],
  properties: { [name]: { type: 'array', contains: item } },
});

describe('segmentGate', () => {
  it('joins a required non-empty list in one branch with a required, pinned program in another', () => {
    const schema = {
      type: 'object',
      anyOf: [
        listed('redirects', { type: 'object' }),
        { type: 'object', required: ['program', 'args'], properties: { program: { enum: ['tee', 'dd'] } } },
      ],
    };
    const gate = segmentGate(schema);
    expect(gate && [...gate.programs].sort()).toEqual(['dd', 'tee']);
    expect(gate?.lists).toEqual(['redirects']);
  });

  it('reads requirements from an enclosing conjunct into the branches below it', () => {
    const schema = {
      type: 'object',
      allOf: [
        { type: 'object', required: ['program', 'path'] },
        {
          anyOf: [
            { properties: { path: { type: 'array', contains: { pattern: '^db:drop$' } } } },
            { properties: { program: { const: 'alembic' } } },
          ],
        },
      ],
    };
    expect(segmentGate(schema)).toEqual({ programs: new Set(['alembic']), lists: ['path'] });
  });

  it('takes minItems of an array as non-empty, and a required list on its own', () => {
    const schema = {
      type: 'object',
      required: ['assignments'],
      properties: { assignments: { type: 'array', minItems: 1 } },
    };
    expect(segmentGate(schema)).toEqual({ programs: new Set(), lists: ['assignments'] });
    expect(segmentGate(listed('writes'))).toEqual({ programs: new Set(), lists: ['writes'] });
  });

  it('takes a required object-typed fact as one the segment must carry', () => {
    const schema = {
      type: 'object',
      required: ['sql'],
      properties: { sql: { type: 'object', required: ['destructive'] } },
    };
    expect(segmentGate(schema)?.lists).toEqual(['sql']);
  });

  it('gives no gate where some branch could match any segment', () => {
    // The list is not required: a segment without it passes `properties`.
    const optional = { type: 'object', properties: { redirects: { type: 'array', contains: {} } } };
    expect(segmentGate(optional)).toBeUndefined();
    // minContains 0 lets an empty array pass `contains`.
    const zero = {
      type: 'object',
      required: ['flags'],
      properties: { flags: { type: 'array', contains: { const: '-f' }, minContains: 0 } },
    };
    expect(segmentGate(zero)).toBeUndefined();
    // A program pinned where program is not required says nothing of a segment without one.
    const unpinned = { type: 'object', properties: { program: { const: 'rm' } } };
    expect(segmentGate(unpinned)).toBeUndefined();
    // One open branch opens the whole anyOf.
    const open = { anyOf: [listed('writes'), { type: 'object', required: ['program'] }] };
    expect(segmentGate(open)).toBeUndefined();
    expect(segmentGate(true)).toBeUndefined();
  });
});
