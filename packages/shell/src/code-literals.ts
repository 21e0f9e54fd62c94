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
  /** A line comment opener counts only at the start or after a blank (perl's `$#a`, `s#a#b#`). */
  blankBeforeComment?: boolean;
  /** Lua `[[ … ]]` long strings. */
  longBrackets?: boolean;
}

const SYNTAX: Record<Exclude<Language, 'other'>, Syntax> = {
  python: { line: ['#'], quotes: `'"`, python: true },
  node: { line: ['//'], block: ['/*', '*/'], quotes: '\'"`', regex: true },
  php: { line: ['//', '#'], block: ['/*', '*/'], quotes: `'"` },
  ruby: { line: ['#'], quotes: `'"`, regex: true },
  lua: { line: ['--'], quotes: `'"`, longBrackets: true },
  perl: { line: ['#'], quotes: `'"`, blankBeforeComment: true },
  awk: { line: ['#'], quotes: '"', regex: true },
};

/** Keywords after which a `/` starts a regex literal rather than dividing. */
const REGEX_AFTER_WORD =
  /(?:^|[^\w$])(?:return|typeof|case|in|of|delete|void|throw|new|else|do|yield|await|when|if|unless|and|or|not|while|until|split|grep)$/;

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
  let out = '';
  let unsure = false;
  let i = 0;
  const n = source.length;
  while (i < n) {
    const c = source[i] as string;
    const comment = syntax.line.find((open) => source.startsWith(open, i));
    if (comment && (!syntax.blankBeforeComment || i === 0 || /\s/.test(source[i - 1] as string))) {
      // Lua `--[[ … ]]` is a block comment.
      if (syntax.longBrackets && source.startsWith('[[', i + 2)) {
        const end = source.indexOf(']]', i + 4);
        if (end < 0) return { code: out, literals, unsure: true };
        i = end + 2;
      } else {
        const eol = source.indexOf('\n', i);
        i = eol < 0 ? n : eol;
      }
      out += ' ';
      continue;
    }
    if (syntax.block && source.startsWith(syntax.block[0], i)) {
      const end = source.indexOf(syntax.block[1], i + syntax.block[0].length);
      if (end < 0) return { code: out, literals, unsure: true };
      i = end + syntax.block[1].length;
      out += ' ';
      continue;
    }
    if (syntax.longBrackets && source.startsWith('[[', i)) {
      const end = source.indexOf(']]', i + 2);
      if (end < 0) return { code: out, literals, unsure: true };
      literals.push(source.slice(i, end + 2));
      out += ' "" ';
      i = end + 2;
      continue;
    }
    if (syntax.quotes.includes(c)) {
      let prefix = '';
      if (syntax.python) {
        prefix = /(?:^|[^\w])([rRbBuUfF]{1,2})$/.exec(out)?.[1] ?? '';
        out = out.slice(0, out.length - prefix.length);
      }
      const end =
        c === '`' ? templateEnd(source, i, language) : literalEnd(source, i, syntax.python === true);
      if (end < 0) return { code: out, literals, unsure: true };
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
    if (c === '/' && syntax.regex && regexMayStart(out)) {
      const end = regexEnd(source, i);
      if (end < 0) unsure = true;
      else {
        out += ' "" ';
        i = end;
        continue;
      }
    }
    out += c;
    i++;
  }
  return { code: out, literals, unsure };
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
