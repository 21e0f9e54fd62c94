import { describe, expect, it } from 'vitest';
import {
  arithmeticCode,
  arithmeticNames,
  arithmeticTexts,
  inArithmetic,
  indirectNames,
} from './arithmetic.js';

describe('arithmetic text', () => {
  it('finds the parts of an expansion bash evaluates as arithmetic', () => {
    expect(arithmeticTexts(`\${m[i+1]@Q}`)).toEqual(['i+1']);
    expect(arithmeticTexts(`\${#m[j]}`)).toEqual(['j']);
    expect(arithmeticTexts(`\${@:2:n}`)).toEqual(['2:n']);
    expect(arithmeticTexts(`\${m[b[c]]:-x}`)).toEqual(['b[c]']);
    expect(arithmeticTexts('$(( p * 2 ))')).toEqual([' p * 2 ']);
    expect(arithmeticTexts(`\${x:-\${m[q]}}`)).toEqual(['q']);
    expect(arithmeticTexts(`\${x:-fallback}`)).toEqual([]);
  });

  it('tells a subscript or offset being read from a default value', () => {
    expect(inArithmetic(`\${m[`)).toBe(true);
    expect(inArithmetic(`\${!m[1+`)).toBe(true);
    expect(inArithmetic(`\${*:`)).toBe(true);
    expect(inArithmetic(`\${m[1]:-`)).toBe(false);
    expect(inArithmetic(`\${m[1]/`)).toBe(false);
  });

  it('takes a substitution as code unless it only prints a number', () => {
    expect(arithmeticCode('$(nproc) + $(wc -l < a.txt) + $(ls | wc -l)')).toBe(false);
    expect(arithmeticCode('$(wc -l a.txt)')).toBe(true);
    expect(arithmeticCode('$(ls || cat x | wc -l)')).toBe(true);
    expect(arithmeticCode('$(cat n)')).toBe(true);
    expect(arithmeticCode("$'\\x24(id)'")).toBe(true);
    expect(arithmeticCode('`id`')).toBe(true);
  });

  it('names the variables arithmetic reads', () => {
    expect(arithmeticNames(`\${#s} + t[u] + $w + 0x1f`)).toEqual(['t', 'u', 'w']);
    expect(indirectNames(`\${!v} \${!p*} \${!m[@]}`)).toEqual(['v']);
  });
});
