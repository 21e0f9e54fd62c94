// Brace expansion, statically, as bash does it before any other expansion: `-{r,f}` gives `-r -f`,
// `{rm,-rf,x}` gives `rm -rf x`, `{1..3}` and `{a..e..2}` give sequences, braces nest, and braces or
// commas that came from quotes or escapes are literal. Applies to the words of simple commands.
import type { Word, WordPart } from './ast.js';

/** One unit of a word: a literal character (active when unquoted), or an expansion part. */
type Item = { ch: string; active: boolean } | { part: WordPart };

/** The expansion would produce more words than the caller allows. */
export class BraceLimit extends Error {}

/** True when the word has an unquoted `{`, the only way brace expansion can apply. */
export function mayBrace(word: Word): boolean {
  return word.parts.some((p) => p.kind === 'lit' && !p.quoted && p.text.includes('{'));
}

/** The words a word brace-expands to (the word itself when no brace applies); throws BraceLimit. */
export function braceExpand(word: Word, limit: number): Word[] {
  if (!mayBrace(word)) return [word];
  const items: Item[] = [];
  for (const part of word.parts) {
    if (part.kind === 'lit') for (const ch of part.text) items.push({ ch, active: !part.quoted });
    else items.push({ part });
  }
  const expanded = expand(items, limit);
  if (expanded.length === 1) return [word];
  return expanded.map((list) => ({ parts: toParts(list), raw: word.raw, escaped: word.escaped }));
}

const isActive = (item: Item | undefined, ch: string): boolean =>
  item !== undefined && 'ch' in item && item.active && item.ch === ch;

function expand(items: Item[], limit: number): Item[][] {
  for (let i = 0; i < items.length; i++) {
    if (!isActive(items[i], '{')) continue;
    // A `{` right after an unquoted `$` is not a brace expansion.
    if (isActive(items[i - 1], '$')) continue;
    const close = matching(items, i);
    if (close < 0) continue;
    const inner = items.slice(i + 1, close);
    const alternatives = split(inner) ?? sequence(inner, limit);
    if (!alternatives) continue;
    const prefix = items.slice(0, i);
    const suffixes = expand(items.slice(close + 1), limit);
    const out: Item[][] = [];
    for (const alternative of alternatives) {
      for (const middle of expand(alternative, limit)) {
        for (const suffix of suffixes) {
          if (out.length >= limit) throw new BraceLimit(`brace expansion beyond ${limit} words`);
          out.push([...prefix, ...middle, ...suffix]);
        }
      }
    }
    return out;
  }
  return [items];
}

/** Index of the active `}` closing the `{` at `open`, or -1. */
function matching(items: Item[], open: number): number {
  let depth = 0;
  for (let k = open; k < items.length; k++) {
    if (isActive(items[k], '{')) depth++;
    else if (isActive(items[k], '}') && --depth === 0) return k;
  }
  return -1;
}

/** The comma-separated alternatives at the top level of a brace body, or null when it has no comma. */
function split(inner: Item[]): Item[][] | null {
  const parts: Item[][] = [];
  let depth = 0;
  let start = 0;
  for (let k = 0; k < inner.length; k++) {
    if (isActive(inner[k], '{')) depth++;
    else if (isActive(inner[k], '}')) depth--;
    else if (depth === 0 && isActive(inner[k], ',')) {
      parts.push(inner.slice(start, k));
      start = k + 1;
    }
  }
  if (parts.length === 0) return null;
  parts.push(inner.slice(start));
  return parts;
}

const NUMERIC = /^([+-]?\d+)\.\.([+-]?\d+)(?:\.\.([+-]?\d+))?$/;
const LETTERS = /^([A-Za-z])\.\.([A-Za-z])(?:\.\.([+-]?\d+))?$/;

/** `{1..10}`, `{01..3}`, `{10..1..3}`, `{a..e}`: the sequence as alternatives, or null. */
function sequence(inner: Item[], limit: number): Item[][] | null {
  let text = '';
  for (const item of inner) {
    if (!('ch' in item) || !item.active) return null;
    text += item.ch;
  }
  const numeric = NUMERIC.exec(text);
  const letters = numeric ? null : LETTERS.exec(text);
  const m = numeric ?? letters;
  if (!m) return null;
  const from = numeric ? Number(m[1]) : (m[1] as string).charCodeAt(0);
  const to = numeric ? Number(m[2]) : (m[2] as string).charCodeAt(0);
  const step = Math.abs(Number(m[3] ?? 1)) || 1;
  const count = Math.floor(Math.abs(to - from) / step) + 1;
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || count > limit) {
    throw new BraceLimit(`brace sequence beyond ${limit} words`);
  }
  // `{01..10}`: a leading zero on either end pads every number to the wider end.
  const padded = numeric && (/^[+-]?0\d/.test(m[1] as string) || /^[+-]?0\d/.test(m[2] as string));
  const width = padded ? Math.max((m[1] as string).length, (m[2] as string).length) : 0;
  const out: Item[][] = [];
  const dir = to >= from ? 1 : -1;
  for (let k = 0, v = from; k < count; k++, v += dir * step) {
    const digits = String(Math.abs(v)).padStart(Math.max(0, width - (v < 0 ? 1 : 0)), '0');
    const value = numeric ? (v < 0 ? `-${digits}` : digits) : String.fromCharCode(v);
    out.push([...value].map((ch) => ({ ch, active: false })));
  }
  return out;
}

function toParts(items: Item[]): WordPart[] {
  const parts: WordPart[] = [];
  for (const item of items) {
    if ('part' in item) {
      parts.push(item.part);
      continue;
    }
    const last = parts[parts.length - 1];
    if (last?.kind === 'lit' && last.quoted === !item.active) last.text += item.ch;
    else parts.push({ kind: 'lit', text: item.ch, quoted: !item.active });
  }
  return parts;
}
