// String literals and comments of interpreter code, found left to right as the language's own
// tokenizer finds them: a quote inside a comment (`# don't`) opens nothing, a `#` inside a string is
// no comment, and a regex literal (`/'/`) is data. Reading them with one regex per kind, in turn, let
// a comment's apostrophe hide the code after it (`# don't⏎__import__('os').system(…)  # '`).
import type { Language } from './programs.js';

export interface ScannedCode {
  /** The code with every literal replaced by ` "" ` and every comment by a blank. */
  code: string;
  /** Each string literal as written, prefix and quotes included (interpolations are read from them). */
  literals: string[];
  /** Something the scan cannot vouch for: a literal or comment left open, code run from a string. */
  unsure: boolean;
}

interface Syntax {
  line: readonly string[];
  block?: readonly [string, string];
  quotes: string;
  /** Python: `'''` and `"""`, and letter prefixes (r, b, u, f). */
  python?: boolean;
  /** `/…/` in operand position is a regex literal. */
  regex?: boolean;
  /** Lua `[[ … ]]` long strings. */
  longBrackets?: boolean;
}

const SYNTAX: Record<Exclude<Language, 'other'>, Syntax> = {
  python: { line: ['#'], quotes: `'"`, python: true },
  node: { line: ['//'], block: ['/*', '*/'], quotes: '\'"`', regex: true },
  php: { line: ['//', '#'], block: ['/*', '*/'], quotes: `'"` },
  ruby: { line: ['#'], quotes: `'"`, regex: true },
  lua: { line: ['--'], quotes: `'"`, longBrackets: true },
  perl: { line: ['#'], quotes: `'"` },
  awk: { line: ['#'], quotes: '"', regex: true },
};

/** Keywords after which a `/` starts a regex literal rather than dividing. */
const REGEX_AFTER_WORD =
  /(?:^|[^\w$])(?:return|typeof|case|in|of|delete|void|throw|new|else|do|yield|await|when|if|unless|and|or|not|while|until|split|grep|print|printf)$/;

/**
 * Perl's quote-like regex operators at the cursor: `s/a/b/flags`, `tr/a/b/`, `y/a/b/`, `m/a/`,
 * `qr/a/`, `/a/`. With the `e` flag a substitution runs its replacement: code, not data.
 */
const PERL_REGEX =
  /(?:(?:s|tr|y)\/(?:[^/\\\n]|\\.)*\/(?:[^/\\\n]|\\.)*\/([a-z]*)|(?:m|qr)?\/(?:[^/\\\n]|\\.)+\/[a-z]*)/y;

export function scanLiterals(source: string, language: Language): ScannedCode {
  if (language === 'other') return { code: source, literals: [], unsure: true };
  const syntax = SYNTAX[language];
  const literals: string[] = [];
  const open = (out: string) => ({ code: out, literals, unsure: true });
  let out = '';
  let unsure = ambiguousConstructs(source, language);
  let i = 0;
  const n = source.length;
  while (i < n) {
    const c = source[i] as string;
    const atLineStart = i === 0 || source[i - 1] === '\n';
    // Perl POD (`=pod` … `=cut`) and JS's `<!--` / line-start `-->` (Annex B) are comments.
    if (language === 'perl' && atLineStart && /^=[A-Za-z]/.test(source.slice(i, i + 2))) {
      const cut = /\n=cut\b[^\n]*/g;
      cut.lastIndex = i;
      const m = cut.exec(source);
      i = m ? m.index + m[0].length : n;
      out += ' ';
      continue;
    }
    const comment =
      syntax.line.find((opener) => source.startsWith(opener, i)) ??
      (language === 'node' &&
      (source.startsWith('<!--', i) || (/^\s*$/.test(lineBefore(source, i)) && source.startsWith('-->', i)))
        ? '//'
        : undefined);
    if (comment && isComment(source, i, out, language, syntax)) {
      // Lua `--[[ … ]]` / `--[==[ … ]==]` is a block comment.
      const long = syntax.longBrackets ? longBracketEnd(source, i + 2) : undefined;
      if (long !== undefined) {
        if (long < 0) return open(out);
        i = long;
      } else {
        const eol = source.indexOf('\n', i);
        i = eol < 0 ? n : eol;
      }
      out += ' ';
      continue;
    }
    if (syntax.block && source.startsWith(syntax.block[0], i)) {
      const end = source.indexOf(syntax.block[1], i + syntax.block[0].length);
      if (end < 0) return open(out);
      i = end + syntax.block[1].length;
      out += ' ';
      continue;
    }
    if (syntax.longBrackets && c === '[') {
      const long = longBracketEnd(source, i);
      if (long !== undefined) {
        if (long < 0) return open(out);
        literals.push(source.slice(i, long));
        out += ' "" ';
        i = long;
        continue;
      }
    }
    if (syntax.quotes.includes(c)) {
      // Perl's old package separator (`$main'x`) and quote-like operators (`q'…'`) are not strings here.
      if (language === 'perl' && /\w$/.test(out)) return open(out);
      let prefix = '';
      if (syntax.python) {
        prefix = /(?:^|[^\w])([rRbBuUfFtT]{1,2})$/.exec(out)?.[1] ?? '';
        out = out.slice(0, out.length - prefix.length);
      }
      const end =
        c === '`' ? templateEnd(source, i, language) : literalEnd(source, i, syntax.python === true);
      if (end < 0) return open(out);
      literals.push(prefix + source.slice(i, end));
      out += ' "" ';
      i = end;
      continue;
    }
    if (
      language === 'perl' &&
      /[/smqty]/.test(c) &&
      !/[\w$@%]/.test(out[out.length - 1] ?? '') &&
      regexMayStart(out)
    ) {
      PERL_REGEX.lastIndex = i;
      const m = PERL_REGEX.exec(source);
      if (m) {
        if (m[1]?.includes('e')) unsure = true;
        out += ' "" ';
        i += m[0].length;
        continue;
      }
    }
    if (c === '/' && syntax.regex) {
      const end = regexEnd(source, i);
      if (regexMayStart(out)) {
        if (end < 0) unsure = true;
        else {
          out += ' "" ';
          i = end;
          continue;
        }
      } else if (end > 0 && /['"`]/.test(source.slice(i, end))) {
        // Read as division, but a regex literal holding a quote would hide what follows: `if (x) /'/`.
        unsure = true;
      }
    }
    out += c;
    i++;
  }
  return { code: out, literals, unsure };
}

/** Constructs this scan does not follow, whose text could hide code: heredocs, percent literals, `?>`. */
function ambiguousConstructs(source: string, language: Language): boolean {
  if ((language === 'perl' || language === 'ruby') && /<<[~-]?\s*["'`]?[A-Za-z_]/.test(source)) return true;
  if (language === 'ruby' && (/%[qQwWiIrsx]?[^\w\s=]/.test(source) || /\?["'`]/.test(source))) return true;
  if (language === 'php' && source.includes('?>')) return true;
  return false;
}

/** Whether a line-comment opener at `i` starts a comment in this language. */
function isComment(source: string, i: number, out: string, language: Language, syntax: Syntax): boolean {
  // PHP 8 attributes: `#[…]` is code.
  if (language === 'php' && source[i] === '#' && source[i + 1] === '[') return false;
  if (language === 'perl') {
    // `$#array`, `$#{…}`; `s#a#b#`, `q#…#`: a quote-like delimiter, not a comment.
    const before = out.replace(/\s+$/, '');
    if (before.endsWith('$') || /(^|[^\w])(s|q|qq|qw|qr|qx|m|y|tr)$/.test(before)) return false;
    return true;
  }
  return syntax.line.length > 0;
}

function lineBefore(source: string, i: number): string {
  return source.slice(source.lastIndexOf('\n', i - 1) + 1, i);
}

/** Lua long brackets at `at` (`[[`, `[==[`): index past the matching close, -1 if unclosed, undefined if none. */
function longBracketEnd(source: string, at: number): number | undefined {
  const m = /^\[(=*)\[/.exec(source.slice(at, at + 64));
  if (!m) return undefined;
  const close = `]${m[1]}]`;
  const end = source.indexOf(close, at + m[0].length);
  return end < 0 ? -1 : end + close.length;
}

/** Index just past the literal opened at `at`, or -1 when it is not closed. */
function literalEnd(source: string, at: number, python: boolean): number {
  const quote = source[at] as string;
  const triple = python && source.startsWith(quote.repeat(3), at);
  const close = triple ? quote.repeat(3) : quote;
  for (let k = at + close.length; k < source.length; k++) {
    const c = source[k];
    if (c === '\\') k++;
    else if (python && !triple && c === '\n') return -1;
    else if (source.startsWith(close, k)) return k + close.length;
  }
  return -1;
}

/** A JS template literal: `${ … }` holds code, strings and templates of its own. */
function templateEnd(source: string, at: number, language: Language): number {
  for (let k = at + 1; k < source.length; k++) {
    const c = source[k];
    if (c === '\\') k++;
    else if (c === '`') return k + 1;
    else if (c === '$' && source[k + 1] === '{') {
      const end = interpolationEnd(source, k + 2, language);
      if (end < 0) return -1;
      k = end - 1;
    }
  }
  return -1;
}

/** Index past the `}` closing an interpolation whose code starts at `from`. */
function interpolationEnd(source: string, from: number, language: Language): number {
  let depth = 0;
  for (let k = from; k < source.length; k++) {
    const c = source[k] as string;
    if (c === '/') return -1; // a regex or a comment inside `${…}`: not followed here
    if (c === "'" || c === '"') {
      const end = literalEnd(source, k, false);
      if (end < 0) return -1;
      k = end - 1;
    } else if (c === '`') {
      const end = templateEnd(source, k, language);
      if (end < 0) return -1;
      k = end - 1;
    } else if (c === '{') depth++;
    else if (c === '}') {
      if (depth === 0) return k + 1;
      depth--;
    }
  }
  return -1;
}

/** Whether a `/` after this code is in operand position (starts a regex) rather than dividing. */
function regexMayStart(before: string): boolean {
  const trimmed = before.replace(/\s+$/, '');
  if (trimmed === '') return true;
  const last = trimmed[trimmed.length - 1] as string;
  if ('(,=:[!&|?{};~+-*%<>^'.includes(last)) return true;
  return REGEX_AFTER_WORD.test(trimmed);
}

/** Index past a regex literal's closing `/` (and flags), or -1 when the line ends first. */
function regexEnd(source: string, at: number): number {
  let inClass = false;
  for (let k = at + 1; k < source.length; k++) {
    const c = source[k];
    if (c === '\n') return -1;
    if (c === '\\') k++;
    else if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    else if (c === '/' && !inClass) {
      let e = k + 1;
      while (e < source.length && /[a-z]/i.test(source[e] as string)) e++;
      return e;
    }
  }
  return -1;
}
