// The proxy's own results are its boundary toward the model: whatever a verdict, a tool name, an
// upstream's message or a schema problem carries, no text block holds a control, separator, format or
// bidi character other than the line feeds the proxy itself writes, and the JSON block still parses.
import type { Verdict } from '@tollgate/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { declinedResult, errorResult, refusedResult } from './results.js';

const FORBIDDEN = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\p{Cf}\u{E0000}-\u{E007F}]/u;
const nasty = fc.string({
  unit: fc.constantFrom(
    '\u001b[2J',
    '\n',
    '\r',
    '\u0085',
    '\u2028',
    '\u2029',
    '\u202e',
    '\u2067',
    '\u200f',
    '\u061c',
    '\ufeff',
    '\u{e0049}',
    '\ud83d',
    'a',
    ' ',
    '"',
  ),
  maxLength: 40,
});

function texts(result: { content: { type: string; text?: string }[] }): string[] {
  return result.content.map((b) => b.text ?? '');
}

describe('proxy-written results', () => {
  it('carry no forbidden character, whatever goes into them (property)', () => {
    fc.assert(
      fc.property(nasty, nasty, nasty, fc.boolean(), (a, b, c, withRails) => {
        const verdict = {
          outcome: 'rejected',
          class: 'irreversible',
          rules: [a],
          reasons: [{ code: 'evidence_not_observed', message: b, path: c }],
          audit_id: c,
          ...(withRails ? { rails: { text: `${a}\n${b}` } } : {}),
        } as unknown as Verdict;
        const results = [
          refusedResult(verdict),
          declinedResult({ ...verdict, outcome: 'declined', decline_id: a }, b, true),
          errorResult('upstream_failed', `Tollgate: ${a} failed upstream: ${b}`, {
            problems: [{ path: c, message: b }],
          }),
        ];
        for (const result of results) {
          for (const text of texts(result)) expect(text).not.toMatch(FORBIDDEN);
          const [, machine] = texts(result);
          expect(() => JSON.parse(machine ?? '')).not.toThrow();
        }
        // A message and each problem stay one line each, whatever they contain.
        const [error] = texts(results[2] as never);
        expect(error?.split('\n')).toHaveLength(2);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the facts exact in the JSON block', () => {
    const result = errorResult('invalid_arguments', 'bad', { audit_id: 'a\u202eb' });
    const machine = result.content[1] as { text: string };
    expect(machine.text).toContain('\\u202e');
    expect(JSON.parse(machine.text)).toEqual({
      tollgate: { error: 'invalid_arguments', audit_id: 'a\u202eb' },
    });
  });
});
