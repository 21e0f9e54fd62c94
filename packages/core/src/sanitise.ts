// Everything rendered from call fields into rails passes through here, so a crafted path or command
// cannot inject terminal escapes, fake lines or invisible instructions into what the agent reads.
// The rule: a value inside a line is sanitiseText (one line, quoted or not); a whole text leaving an
// adapter toward the model is sanitiseOutgoing (its own line feeds kept, nothing else); JSON shown
// to the model is escapedJson (lossless: it parses to the same value).

// CSI and OSC escape sequences, then any remaining control or invisible formatting character. An
// unterminated OSC ends at a line feed, so it cannot swallow the lines of a whole text after it.
const ANSI =
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b\n]*(?:\u0007|\u001b\\)?|\u009b[0-?]*[ -/]*[@-~]/g;
const CONTROL = /[\p{Cc}\u2028\u2029]/gu;
// The same, less the line feed: what an outgoing text may not carry between its own lines.
const CONTROL_BUT_LF = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/gu;
// Invisible format characters (soft hyphen, bidi marks and overrides, zero-width joiners, word
// joiners, interlinear annotation, BOM) and the whole tag block, which can spell hidden text.
const FORMAT = /[\p{Cf}\u{E0000}-\u{E007F}]/gu;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export const DEFAULT_CAP = 200;
/** Hosts cap injected text near 10,000 characters (Claude Code); outgoing texts stay under it. */
export const OUTGOING_CAP = 9500;

/** One line of plain text: no control characters, no escapes, at most `cap` characters. */
export function sanitiseText(value: string, cap = DEFAULT_CAP): string {
  return capped(strip(value).replace(CONTROL, ' '), cap);
}

/**
 * A whole text as it leaves an adapter toward the model (a hook's reason or context, an MCP tool
 * result the proxy writes, an HTTP problem's detail): its own '\n' line breaks stay ('\r\n' becomes
 * '\n'); every other control (C0, DEL, C1), line or paragraph separator, format or bidi character
 * and escape sequence goes; at most `cap` characters, never ending in half a surrogate pair.
 */
export function sanitiseOutgoing(value: string, cap = OUTGOING_CAP): string {
  return capped(strip(value.replace(/\r\n/g, '\n')).replace(CONTROL_BUT_LF, ' '), cap);
}

// Characters JSON.stringify leaves raw that sanitising would remove (it escapes C0 and lone
// surrogates itself); they occur only inside string literals, where \uXXXX means the same.
const JSON_UNSAFE = /[\u007f-\u009f\u2028\u2029\p{Cf}\u{E0000}-\u{E007F}]/gu;

/**
 * JSON text for the model to read or copy: JSON.stringify with every control, separator, format and
 * bidi character written as a \uXXXX escape, so it reads as plain ASCII there and still parses to
 * exactly the same value (a tool's arguments stay the arguments that bind a prediction).
 */
export function escapedJson(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(JSON_UNSAFE, (c) =>
    Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join(
      '',
    ),
  );
}

function strip(value: string): string {
  return value.replace(ANSI, '').replace(LONE_SURROGATE, '\ufffd').replace(FORMAT, '');
}

function capped(clean: string, cap: number): string {
  // Most texts are short: count code points only when the UTF-16 length could exceed the cap.
  if (clean.length <= cap) return clean;
  const chars = Array.from(clean);
  return chars.length > cap ? `${chars.slice(0, cap - 1).join('')}…` : clean;
}

/** A sanitised value in double quotes, for prose. */
export function quoted(value: string, cap = DEFAULT_CAP): string {
  return JSON.stringify(sanitiseText(value, cap));
}

/** A sanitised value as one single-quoted shell word, for commands the agent may paste. */
export function shellQuoted(value: string, cap = DEFAULT_CAP): string {
  const clean = sanitiseText(value, cap);
  return /^[\w@%+=:,./-]+$/.test(clean) ? clean : `'${clean.replace(/'/g, `'\\''`)}'`;
}

/** Deep copy of a JSON value with every string sanitised (for examples embedded in rails). */
export function sanitiseJson(value: unknown, cap = DEFAULT_CAP, depth = 0): unknown {
  if (typeof value === 'string') return sanitiseText(value, cap);
  if (value === null || typeof value !== 'object' || depth > 8)
    return typeof value === 'object' ? null : value;
  if (Array.isArray(value)) return value.slice(0, 16).map((v) => sanitiseJson(v, cap, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value).slice(0, 32))
    out[sanitiseText(k, 64)] = sanitiseJson(v, cap, depth + 1);
  return out;
}
