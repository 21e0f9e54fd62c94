// The hook's boundary toward the model: every reason and context Claude Code will show passes the
// outgoing sanitiser, whatever it carries; a rewritten command is not text for the model and stays exact.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allowRewritten,
  deny,
  type HookOutput,
  MAX_TEXT,
  noObjection,
  postContext,
  refuseInput,
} from './output.js';

const FORBIDDEN = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\p{Cf}\u{E0000}-\u{E007F}]/u;
const nasty = fc.string({
  unit: fc.constantFrom(
    '\u001b[31m',
    '\u001b]8;;http://x\u0007',
    '\n',
    '\r',
    '\t',
    '\u0000',
    '\u0085',
    '\u2028',
    '\u2029',
    '\u202b',
    '\u202e',
    '\u2068',
    '\u200e',
    '\u061c',
    '\u00ad',
    '\u{e0020}',
    '\udfff',
    'a',
    ' ',
  ),
  maxLength: 50,
});

/** Every string in a hook answer the model can read (the rewritten input is not one). */
function modelTexts(out: HookOutput): string[] {
  const h = out.hookSpecificOutput;
  return [out.reason, h.permissionDecisionReason, h.additionalContext].filter(
    (t): t is string => t !== undefined,
  );
}

describe('hook output builders', () => {
  it('never pass a forbidden character to the model (property)', () => {
    fc.assert(
      fc.property(nasty, nasty, (text, event) => {
        const command = `echo ${text}`;
        const outputs = [
          deny(text),
          noObjection(text),
          postContext('PostToolUse', text),
          allowRewritten({ command }, text),
          refuseInput(text, event),
        ];
        for (const out of outputs) for (const t of modelTexts(out)) expect(t).not.toMatch(FORBIDDEN);
        expect(allowRewritten({ command }, text).hookSpecificOutput.updatedInput).toEqual({ command });
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the line feeds of the text and caps it', () => {
    expect(deny('a\nb\u2028c').hookSpecificOutput.permissionDecisionReason).toBe('a\nb c');
    expect(postContext('PostToolUse', 'x'.repeat(20_000)).hookSpecificOutput.additionalContext).toHaveLength(
      MAX_TEXT,
    );
  });
});
