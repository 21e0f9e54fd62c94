// The function call as sent: its arguments split into the tool's own and the envelope, a JSON-string
// envelope decoded, and anything that is not a JSON object named instead of passed on.
import { describe, expect, it } from 'vitest';
import { parseArguments, sameArgs } from './tool-call.js';

const decline = { irreducible: 'x', would_change_my_mind: ['y'], attempted_observations: [] };

describe('parseArguments', () => {
  it('splits the envelope off the tool’s own arguments', () => {
    expect(parseArguments(JSON.stringify({ path: '/a', tollgate: { decline } }))).toEqual({
      ok: true,
      args: { path: '/a' },
      envelope: { decline },
    });
    expect(parseArguments('{"path": "/a"}')).toEqual({ ok: true, args: { path: '/a' }, envelope: undefined });
    expect(parseArguments('')).toEqual({ ok: true, args: {}, envelope: undefined });
  });

  it('decodes an envelope sent as a JSON string', () => {
    const sent = JSON.stringify({ path: '/a', tollgate: JSON.stringify({ decline }) });
    expect(parseArguments(sent)).toEqual({ ok: true, args: { path: '/a' }, envelope: { decline } });
  });

  it('names arguments that are not a JSON object, and an envelope that does not parse', () => {
    expect(parseArguments('[1]')).toEqual({ ok: false, message: 'the arguments must be a JSON object' });
    expect(parseArguments('{"path":')).toMatchObject({ ok: false, message: /not JSON/ });
    expect(parseArguments('{"tollgate": "{\\"decline\\": "}')).toMatchObject({
      ok: false,
      message: /does not parse/,
    });
  });
});

describe('sameArgs', () => {
  it('compares calls, not key order', () => {
    expect(sameArgs({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 })).toBe(true);
    expect(sameArgs({ a: 1 }, { a: 2 })).toBe(false);
  });
});
