import { describe, expect, it } from 'vitest';
import { segmentPrograms, segmentProgramTest } from './segment-programs.js';

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

describe('segmentProgramTest', () => {
  it('reads patterns, a pattern excluded, and their union over anyOf branches', () => {
    const test = segmentProgramTest({
      type: 'object',
      allOf: [
        { required: ['program'], properties: { program: true } },
        {
          anyOf: [
            { properties: { program: { pattern: '^(shred|mkfs(\\..*)?)$' } } },
            { properties: { program: { const: 'parted' } } },
          ],
        },
      ],
    });
    expect(['shred', 'mkfs.ext4', 'parted'].map((p) => test?.(p))).toEqual([true, true, true]);
    expect(test?.('ls')).toBe(false);
    const outside = segmentProgramTest({
      required: ['program'],
      properties: { program: { type: 'string', not: { type: 'string', pattern: '^(echo|git)$' } } },
    });
    expect([outside?.('echo'), outside?.('gcloud')]).toEqual([false, true]);
  });

  it('gives none where a branch could match any program, or the program is not required', () => {
    expect(
      segmentProgramTest({
        required: ['program'],
        anyOf: [{ properties: { program: { pattern: '^x$' } } }, { required: ['flags'] }],
      }),
    ).toBeUndefined();
    expect(segmentProgramTest({ properties: { program: { pattern: '^x$' } } })).toBeUndefined();
  });
});
