import { describe, expect, it } from 'vitest';
import { segmentPrograms } from './segment-programs.js';

describe('segmentPrograms', () => {
  it('reads a pinned program at the top level or in an allOf member', () => {
    expect(segmentPrograms({ required: ['program'], properties: { program: { const: 'git' } } })).toEqual(
      new Set(['git']),
    );
    expect(
      segmentPrograms({
        allOf: [
          { required: ['program', 'args'], properties: { program: { enum: ['rm', 'unlink'] } } },
          { anyOf: [{ required: ['flags'] }] },
        ],
      }),
    ).toEqual(new Set(['rm', 'unlink']));
  });

  it('takes the union of an anyOf whose every branch pins the program required elsewhere', () => {
    const schema = {
      allOf: [
        { required: ['program', 'path'], properties: { program: true } },
        {
          anyOf: [
            { properties: { program: { const: 'aws' } } },
            { properties: { program: { enum: ['gsutil', 'gcloud'] } } },
          ],
        },
      ],
    };
    expect(segmentPrograms(schema)).toEqual(new Set(['aws', 'gsutil', 'gcloud']));
    const open = {
      ...schema,
      allOf: [
        schema.allOf[0],
        { anyOf: [{ properties: { program: { const: 'aws' } } }, { required: ['redirects'] }] },
      ],
    };
    expect(segmentPrograms(open)).toBeUndefined(); // one branch matches any program
  });

  it('says nothing when the program is not both required and pinned', () => {
    expect(segmentPrograms({ properties: { program: { const: 'git' } } })).toBeUndefined(); // absent passes
    expect(
      segmentPrograms({ required: ['program'], properties: { program: { pattern: '^g' } } }),
    ).toBeUndefined();
    expect(
      segmentPrograms({ anyOf: [{ required: ['program'], properties: { program: { const: 'x' } } }] }),
    ).toBeUndefined();
    expect(segmentPrograms(true)).toBeUndefined();
    expect(
      segmentPrograms({ required: ['program'], properties: { program: { enum: ['a', 1] } } }),
    ).toBeUndefined();
  });
});
