import { describe, expect, it } from 'vitest';
import { TollgateFault } from './faults.js';
import { decodeJson } from './input.js';

function faultOf(fn: () => unknown): TollgateFault {
  try {
    fn();
  } catch (error) {
    if (error instanceof TollgateFault) return error;
    throw error;
  }
  throw new Error('expected a fault');
}

describe('decodeJson', () => {
  it('parses a document from bytes', () => {
    expect(decodeJson(Buffer.from('{"a":[1,2]}'))).toEqual({ a: [1, 2] });
  });

  it('names the position of malformed JSON', () => {
    const fault = faultOf(() => decodeJson('{"a": 1,,}'));
    expect(fault.code).toBe('input_malformed_json');
    expect(fault.details.position).toBeTypeOf('number');
  });

  it('refuses empty input', () => {
    expect(faultOf(() => decodeJson('  ')).code).toBe('input_malformed_json');
  });

  it('refuses invalid UTF-8', () => {
    expect(faultOf(() => decodeJson(Uint8Array.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]))).code).toBe(
      'input_invalid_utf8',
    );
  });

  it('refuses input over the size limit before parsing it', () => {
    const big = JSON.stringify({ s: 'x'.repeat(10 * 1024 * 1024) });
    const fault = faultOf(() => decodeJson(big));
    expect(fault.code).toBe('input_too_large');
    expect(fault.message).toContain('limit');
  });

  it('refuses 1,000-deep nesting', () => {
    const deep = `${'['.repeat(1000)}${']'.repeat(1000)}`;
    expect(faultOf(() => decodeJson(deep)).code).toBe('input_too_deep');
  });

  it('does not count brackets inside strings as nesting', () => {
    expect(decodeJson(JSON.stringify({ s: '['.repeat(500) }))).toEqual({ s: '['.repeat(500) });
  });
});
