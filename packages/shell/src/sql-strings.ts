// The text a SQL string literal stands for, as the server reads it: a routine body is analysed as
// that text, not as written. `E'\x64elete from t'` is `delete from t`, `U&'\0064elete'` too, and
// a doubled quote is one quote. An escape the server would refuse is kept as written (the
// statement then fails, running nothing).

/** A quoted run's text with doubled quotes (`''`) made one. */
export function undouble(raw: string, quote: string): string {
  return raw.split(quote + quote).join(quote);
}

/** Postgres's E'…' (and '…' with standard_conforming_strings off): C-like backslash escapes. */
export function decodeBackslashes(raw: string, quote: string): string {
  return decodeEscapes(raw, quote, backslashEscape);
}

/**
 * A quoted run's text, a doubled quote made one and each backslash escape replaced by what
 * `escapeAt` reads it as (`rest` follows the backslash; `length` is how much of it the escape took).
 */
function decodeEscapes(
  raw: string,
  quote: string,
  escapeAt: (rest: string) => { text: string; length: number },
): string {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i] as string;
    if (ch === quote && raw[i + 1] === quote) {
      out += quote;
      i++;
    } else if (ch === '\\' && i + 1 < raw.length) {
      const escaped = escapeAt(raw.slice(i + 1));
      out += escaped.text;
      i += escaped.length;
    } else out += ch;
  }
  return out;
}

/** The character a Postgres backslash escape stands for (`rest` follows the backslash), and its length. */
function backslashEscape(rest: string): { text: string; length: number } {
  const octal = /^[0-7]{1,3}/.exec(rest)?.[0];
  if (octal) return { text: String.fromCharCode(Number.parseInt(octal, 8) & 0xff), length: octal.length };
  const hex = /^x([0-9A-Fa-f]{1,2})/.exec(rest);
  if (hex) return { text: String.fromCharCode(Number.parseInt(hex[1] as string, 16)), length: hex[0].length };
  const unicode = /^u([0-9A-Fa-f]{4})|^U([0-9A-Fa-f]{8})/.exec(rest);
  if (unicode) {
    const value = Number.parseInt((unicode[1] ?? unicode[2]) as string, 16);
    return { text: codePoint(value, unicode[0]), length: unicode[0].length };
  }
  const next = rest[0] as string;
  return { text: SIMPLE[next] ?? next, length: 1 };
}

/** MySQL's backslash escapes in '…' and "…": `\n`, `\0`, `\Z`…; `\%` and `\_` keep the backslash. */
export function decodeMysqlBackslashes(raw: string, quote: string): string {
  return decodeEscapes(raw, quote, (rest) => {
    const next = rest[0] as string;
    return { text: next === '%' || next === '_' ? `\\${next}` : (MYSQL[next] ?? next), length: 1 };
  });
}

/**
 * U&'…' [UESCAPE 'c']: `cXXXX` and `c+XXXXXX` are code points, `cc` the escape character itself.
 * Undefined for an escape character Postgres refuses (a hex digit, +, ', ", whitespace).
 */
export function decodeUnicode(raw: string, mark = '\\'): string | undefined {
  if (mark.length !== 1 || /[0-9A-Fa-f+'"\s]/.test(mark)) return undefined;
  const text = undouble(raw, "'");
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch !== mark) {
      out += ch;
      continue;
    }
    const rest = text.slice(i + 1);
    const code = /^[0-9A-Fa-f]{4}|^\+[0-9A-Fa-f]{6}/.exec(rest)?.[0];
    if (rest[0] === mark) {
      out += mark;
      i++;
    } else if (code !== undefined) {
      out += codePoint(Number.parseInt(code.replace('+', ''), 16), code);
      i += code.length;
    } else out += ch;
  }
  return out;
}

const SIMPLE: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const MYSQL: Record<string, string> = { '0': '\0', b: '\b', n: '\n', r: '\r', t: '\t', Z: '\x1a' };

/** A code point's character; the escape as written when it is no character. */
function codePoint(value: number, written: string): string {
  return value <= 0x10ffff ? String.fromCodePoint(value) : written;
}
