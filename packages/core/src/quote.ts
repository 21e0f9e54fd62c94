// Whether a quote says anything about the state. A quote is informative when, after setting aside
// every word the read itself carries (its command line or its arguments: `git log --format=FORGED`
// prints FORGED whatever the state), enough letters and digits remain; and it must not be text the
// gated call or a claim's subject carries (`main` for `git push origin main` proves nothing).
// Values are compared decoded (string leaves, parsed words), never as JSON text.

/** Letters and digits a quote must show beyond what the read itself carries. */
export const MIN_INFORMATIVE_CHARS = 3;
const TOKEN = /[\p{L}\p{N}]+/gu;
const EDGE_PUNCTUATION = /^[\s\p{P}\p{S}]+|[\s\p{P}\p{S}]+$/gu;

export interface QuoteTexts {
  /** What the cited read carries in itself: its command line and words, or its argument values. */
  read: readonly string[];
  /** What the gated call carries: its command line and words, or its argument values. */
  call: readonly string[];
  /** What the claims' subjects carry. */
  subjects: readonly string[];
}

export type QuoteProblem = { kind: 'short' | 'read' | 'call' | 'subject' };

export function quoteProblem(quote: string, texts: QuoteTexts): QuoteProblem | undefined {
  const tokens = quote.match(TOKEN) ?? [];
  const readText = texts.read.join('\n').toLowerCase();
  let informative = 0;
  let carried = 0;
  for (const token of tokens) {
    if (readText.includes(token.toLowerCase())) carried += token.length;
    else informative += token.length;
  }
  if (informative < MIN_INFORMATIVE_CHARS) return { kind: carried > 0 ? 'read' : 'short' };
  const core = fold(quote);
  if (texts.call.some((t) => fold(t).includes(core))) return { kind: 'call' };
  if (texts.subjects.some((t) => fold(t).includes(core))) return { kind: 'subject' };
  return undefined;
}

function fold(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').replace(EDGE_PUNCTUATION, '');
}

/** The decoded text values of a JSON value: strings, numbers and booleans, depth- and size-bounded. */
export function textLeaves(value: unknown, out: string[] = [], depth = 0): string[] {
  if (out.length > 4096 || depth > 32) return out;
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number' || typeof value === 'boolean') out.push(String(value));
  else if (Array.isArray(value)) for (const v of value) textLeaves(v, out, depth + 1);
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      textLeaves(v, out, depth + 1);
    }
  return out;
}
