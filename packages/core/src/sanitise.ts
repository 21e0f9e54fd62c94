// Everything rendered from call fields into rails passes through here, so a crafted path or command
// cannot inject terminal escapes, fake lines or invisible instructions into what the agent reads.

// CSI and OSC escape sequences, then any remaining control or invisible formatting character.
const ANSI =
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u009b[0-?]*[ -/]*[@-~]/g;
const CONTROL = /[\p{Cc}\u2028\u2029]/gu;
// Invisible format characters (soft hyphen, bidi marks and overrides, zero-width joiners, word
// joiners, interlinear annotation, BOM) and the whole tag block, which can spell hidden text.
const FORMAT = /[\p{Cf}\u{E0000}-\u{E007F}]/gu;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export const DEFAULT_CAP = 200;

/** One line of plain text: no control characters, no escapes, at most `cap` characters. */
export function sanitiseText(value: string, cap = DEFAULT_CAP): string {
  const clean = value
    .replace(ANSI, '')
    .replace(LONE_SURROGATE, '\ufffd')
    .replace(CONTROL, ' ')
    .replace(FORMAT, '');
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
