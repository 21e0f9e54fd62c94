// String literals decoded as the server reads them.
import { describe, expect, it } from 'vitest';
import { decodeBackslashes, decodeMysqlBackslashes, decodeUnicode, undouble } from './sql-strings.js';

describe('SQL string literals', () => {
  it("Postgres E'…' escapes", () => {
    expect(decodeBackslashes('\\x64\\x6', "'")).toBe('d\x06');
    expect(decodeBackslashes('\\144\\0a', "'")).toBe('d\0a');
    expect(decodeBackslashes('\\u0064\\U00000065\\n\\q\\\\', "'")).toBe('de\nq\\');
    expect(decodeBackslashes("it\\'s ''x''", "'")).toBe("it's 'x'");
  });

  it("U&'…' with its escape character", () => {
    expect(decodeUnicode('\\0064\\+000065\\\\')).toBe('de\\');
    expect(decodeUnicode('!0064!!', '!')).toBe('d!');
    expect(decodeUnicode('x', 'a')).toBeUndefined();
  });

  it('MySQL escapes and doubled quotes', () => {
    expect(decodeMysqlBackslashes('\\x64\\n\\%', "'")).toBe('x64\n\\%');
    expect(undouble("a''b", "'")).toBe("a'b");
  });
});
