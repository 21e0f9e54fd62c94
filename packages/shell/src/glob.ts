// Pathname expansion (`*`, `?`, `[...]`) as bash does it with default options: a pattern is split
// at `/`, each segment holding glob characters is matched against a directory's entries (names
// starting with `.` only by a literal `.`), matches are sorted. Escaped characters (`\*`) came from
// quotes and match literally.
import type { FileView } from './files.js';
import { own } from './own.js';

/** Most paths one pattern may expand to; beyond it the expansion is unresolved. */
export const MAX_GLOB_RESULTS = 1000;

/** True when the pattern has an unescaped `*`, `?` or a `[...]` bracket expression. */
export function hasGlob(pattern: string): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '*' || c === '?') return true;
    else if (c === '[' && bracketEnd(pattern, i) > 0) return true;
  }
  return false;
}

/** Escape glob characters so that text from quotes matches literally. */
export function escapeGlob(text: string): string {
  return text.replace(/[\\*?[\]]/g, '\\$&');
}

/** Remove the escapes of a pattern that turned out to hold no glob: the word as the shell passes it. */
export function unescapeGlob(pattern: string): string {
  return pattern.replace(/\\(.)/gs, '$1');
}

/** Index of the `]` closing the bracket expression that opens at `start`, or -1. */
function bracketEnd(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === '!' || pattern[i] === '^') i++;
  if (pattern[i] === ']') i++;
  for (; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '/') return -1;
    if (c === '\\') i++;
    else if (c === '[' && (pattern[i + 1] === ':' || pattern[i + 1] === '.' || pattern[i + 1] === '=')) {
      const close = pattern.indexOf(`${pattern[i + 1]}]`, i + 2);
      if (close > 0) i = close + 1;
    } else if (c === ']') return i;
  }
  return -1;
}

const CLASSES: Record<string, string> = {
  alpha: 'A-Za-z',
  digit: '0-9',
  alnum: 'A-Za-z0-9',
  upper: 'A-Z',
  lower: 'a-z',
  space: ' \\t\\n\\r\\f\\v',
  blank: ' \\t',
  punct: '!-\\/:-@\\[-`{-~',
  xdigit: '0-9A-Fa-f',
  word: 'A-Za-z0-9_',
  graph: '!-~',
  print: ' -~',
  cntrl: '\\x00-\\x1f\\x7f',
};

/** A bracket form this matcher cannot read (a class or collating element it does not know). */
export class UnknownBracket extends Error {}

const reEscape = (c: string): string => c.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

/** A RegExp for one path segment of a pattern. */
export function segmentRegExp(segment: string): RegExp {
  let out = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i] as string;
    if (c === '\\') {
      out += reEscape(segment[i + 1] ?? '\\');
      i++;
    } else if (c === '*') out += '.*';
    else if (c === '?') out += '.';
    else if (c === '[') {
      const end = bracketEnd(segment, i);
      if (end < 0) {
        out += '\\[';
        continue;
      }
      out += bracket(segment.slice(i + 1, end));
      i = end;
    } else out += reEscape(c);
  }
  return new RegExp(`^${out}$`, 's');
}

function bracket(body: string): string {
  let negate = false;
  let i = 0;
  if (body[0] === '!' || body[0] === '^') {
    negate = true;
    i = 1;
  }
  let set = '';
  for (; i < body.length; i++) {
    const c = body[i] as string;
    if (c === '[' && body[i + 1] === ':') {
      const close = body.indexOf(':]', i + 2);
      const name = body.slice(i + 2, close);
      const members = own(CLASSES, name);
      if (members === undefined) throw new UnknownBracket(name);
      set += members;
      i = close + 1;
    } else if (c === '[' && (body[i + 1] === '.' || body[i + 1] === '=')) {
      // `[.-.]` (a collating symbol) and `[=a=]` (an equivalence class) name one character here.
      const close = body.indexOf(`${body[i + 1]}]`, i + 2);
      const name = body.slice(i + 2, close);
      if (close < 0 || [...name].length !== 1) throw new UnknownBracket(name);
      set += reEscape(name);
      i = close + 1;
    } else if (c === '\\') {
      set += reEscape(body[i + 1] ?? '\\');
      i++;
    } else if (c === '-' && set !== '' && i + 1 < body.length) set += '-';
    else set += reEscape(c);
  }
  if (set === '') return negate ? '.' : '(?!)';
  return `[${negate ? '^' : ''}${set}]`;
}

/**
 * The paths a pattern expands to, sorted: [] when nothing matches (bash then keeps the word),
 * undefined when the file system could not tell (unreadable, bounds hit, too many results).
 * `base` is the absolute directory a relative pattern is read from; results keep the pattern's
 * own spelling (relative patterns give relative paths).
 */
export function expandGlob(pattern: string, base: string, files: FileView): string[] | undefined {
  const absolute = pattern.startsWith('/');
  const segments = pattern.split('/');
  // Each candidate: the path as it will be written, and the directory it names on disk.
  let candidates: Array<{ text: string; disk: string }> = [{ text: '', disk: absolute ? '/' : base }];
  let first = true;
  for (const segment of segments) {
    if (segment === '') {
      // Leading `/`, doubled `//` or a trailing `/`: keep the separator.
      if (!first || absolute) candidates = candidates.map((c) => ({ ...c, text: `${c.text}/` }));
      first = false;
      continue;
    }
    const sep = (text: string) => (first || text.endsWith('/') ? text : `${text}/`);
    if (!hasGlob(segment)) {
      const literal = unescapeGlob(segment);
      candidates = candidates.map((c) => ({ text: sep(c.text) + literal, disk: join(c.disk, literal) }));
      first = false;
      continue;
    }
    let re: RegExp;
    try {
      re = segmentRegExp(segment);
    } catch (error) {
      // What bash would match cannot be told: the expansion is unknown.
      if (error instanceof UnknownBracket) return undefined;
      throw error;
    }
    const dotOk = segment.startsWith('.') || segment.startsWith('\\.');
    const next: typeof candidates = [];
    for (const c of candidates) {
      const names = files.readdir(c.disk);
      if (names === undefined) {
        // Not a directory, or one the shell (running as the same user) could not read either: no
        // matches. Unless a bound answered: then the expansion is unknown.
        if (files.exhausted) return undefined;
        continue;
      }
      for (const name of [...names].sort()) {
        if (name.startsWith('.') && (!dotOk || name === '.' || name === '..')) continue;
        if (!re.test(name)) continue;
        next.push({ text: sep(c.text) + name, disk: join(c.disk, name) });
        if (next.length > MAX_GLOB_RESULTS) return undefined;
      }
    }
    candidates = next;
    first = false;
  }
  if (files.exhausted) return undefined;
  return candidates.map((c) => c.text).sort();
}

function join(dir: string, name: string): string {
  return dir.endsWith('/') ? dir + name : `${dir}/${name}`;
}
