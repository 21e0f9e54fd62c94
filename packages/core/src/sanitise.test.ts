// The outgoing-text rule: whole texts keep their own line feeds and nothing else invisible or
// controlling; JSON for the model escapes those characters and still parses to the same value.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapedJson, OUTGOING_CAP, sanitiseOutgoing, sanitiseText } from './sanitise.js';
import { FORBIDDEN } from './testing/forbidden.js';

const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const nasty = fc.string({
  unit: fc.constantFrom(
    '\u001b[31m',
    '\u001b]0;x\u0007',
    '\u009b2J',
    '\u001b',
    ']',
    '[',
    '\n',
    '\r\n',
    '\r',
    '\t',
    '\u0000',
    '\u0085',
    '\u009f',
    '\u2028',
    '\u2029',
    '\u202a',
    '\u202e',
    '\u2066',
    '\u2069',
    '\u200e',
    '\u200f',
    '\u061c',
    '\u00ad',
    '\ufeff',
    '\u{e0041}',
    '\ud800',
    '\udc00',
    '😀',
    'a',
    ' ',
    '"',
    '\\',
  ),
  maxLength: 60,
});

describe('sanitiseOutgoing', () => {
  it("keeps the text's own line feeds and nothing else forbidden (property)", () => {
    fc.assert(
      fc.property(nasty, (text) => {
        const out = sanitiseOutgoing(text);
        expect(out).not.toMatch(FORBIDDEN);
        expect(out).not.toMatch(LONE);
        const feeds = (s: string) => s.split('\n').length;
        // \r\n counts once; a lone \r or U+2028 never becomes a line.
        expect(feeds(out)).toBe(feeds(text.replace(/\r\n/g, '\n')));
      }),
      { numRuns: 500 },
    );
  });

  it('caps by characters without splitting a surrogate pair', () => {
    const out = sanitiseOutgoing('😀'.repeat(20), 10);
    expect(Array.from(out)).toHaveLength(10);
    expect(out).not.toMatch(LONE);
    expect(sanitiseOutgoing('x'.repeat(OUTGOING_CAP + 5))).toHaveLength(OUTGOING_CAP);
  });

  it('turns separators into spaces and removes bidi controls', () => {
    expect(sanitiseOutgoing('a\u2028b\u202ec\r\nd\u0085e')).toBe('a bc\nd e');
    expect(sanitiseText('a\nb')).toBe('a b');
  });
});

describe('escapedJson', () => {
  it('parses to the same value and shows no forbidden character (property)', () => {
    const json = fc.jsonValue({ maxDepth: 3 });
    const value = fc.oneof(
      json,
      fc.dictionary(nasty, fc.oneof(nasty, json), { maxKeys: 4 }),
      fc.array(nasty, { maxLength: 4 }),
    );
    fc.assert(
      fc.property(value, (v) => {
        const text = escapedJson(v);
        expect(text).not.toMatch(FORBIDDEN);
        expect(text).not.toContain('\n');
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(v)));
      }),
      { numRuns: 500 },
    );
  });
});
