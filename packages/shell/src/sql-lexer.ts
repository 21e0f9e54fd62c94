// The SQL lexer: text → statements of tokens, the way a database server (and its command-line client)
// splits it. Comments vanish (line, nested block, MySQL `#`), string literals ('' escapes, E'' and
// MySQL backslash escapes, $tag$ dollar quotes) and quoted identifiers ("", ``, [ ]) become single
// tokens so their contents can never read as keywords, `;` (or a MySQL DELIMITER) ends a statement,
// and client meta-commands (psql `\…`, mysql `\…`/`source`, sqlite3 `.…`) become statements of their own.
// Where dialects disagree the caller lexes once per dialect (see sql.ts), never guessing one.

import { decodeBackslashes, decodeMysqlBackslashes, decodeUnicode, undouble } from './sql-strings.js';

export type SqlDialect = 'postgres' | 'mysql' | 'sqlite' | 'clickhouse';
/** Which client's meta-commands the text may hold (none for SQL sent straight to a server). */
export type MetaSyntax = 'psql' | 'mysql' | 'sqlite' | 'none';

export type TokenKind = 'word' | 'ident' | 'string' | 'number' | 'punct' | 'var';

export interface Token {
  kind: TokenKind;
  /** Words upper-cased; strings and identifiers their contents; punctuation the character. */
  text: string;
  /** Parenthesis depth the token stands at (0 at the statement's top level). */
  depth: number;
  /** For strings: dollar-quoted (`$$…$$`, `$tag$…$tag$`). */
  dollar?: boolean;
  /** For strings and identifiers: the quote character that opened them. */
  quoted?: string;
}

export interface LexedStatement {
  tokens: Token[];
  /** A client meta-command: its name (`\d`, `\!`, `.tables`, `source`) and the rest of its line. */
  meta?: { name: string; args: string };
}

export interface Lexed {
  statements: LexedStatement[];
  /** Set when a bound was hit: the text is not analysed. */
  error?: string;
}

/** The dialect's own reading of backslashes in '…' strings. */
export function backslashEscapes(dialect: SqlDialect): boolean {
  return RULES[dialect].backslashes;
}

export const MAX_SQL_LENGTH = 256 * 1024;
export const MAX_STATEMENTS = 512;
const MAX_TOKENS = 50_000;

interface Rules {
  hashComments: boolean;
  /** `--` starts a comment only when followed by whitespace (MySQL). */
  dashNeedsSpace: boolean;
  nestedComments: boolean;
  /** Backslash escapes inside '…' and "…" (MySQL, ClickHouse); Postgres only in E'…'. */
  backslashes: boolean;
  dollarQuotes: boolean;
  /** "…" is a string literal rather than an identifier (MySQL). */
  doubleQuotedStrings: boolean;
  brackets: boolean;
  /** `/*! … *\/` is code, not a comment (MySQL, MariaDB). */
  executableComments: boolean;
}

const RULES: Record<SqlDialect, Rules> = {
  postgres: {
    hashComments: false,
    dashNeedsSpace: false,
    nestedComments: true,
    backslashes: false,
    dollarQuotes: true,
    doubleQuotedStrings: false,
    brackets: false,
    executableComments: false,
  },
  mysql: {
    hashComments: true,
    dashNeedsSpace: true,
    nestedComments: false,
    backslashes: true,
    dollarQuotes: false,
    doubleQuotedStrings: true,
    brackets: false,
    executableComments: true,
  },
  sqlite: {
    hashComments: false,
    dashNeedsSpace: false,
    nestedComments: false,
    backslashes: false,
    dollarQuotes: false,
    doubleQuotedStrings: false,
    brackets: true,
    executableComments: false,
  },
  clickhouse: {
    hashComments: true,
    dashNeedsSpace: false,
    nestedComments: true,
    backslashes: true,
    dollarQuotes: true,
    doubleQuotedStrings: false,
    brackets: false,
    executableComments: false,
  },
};

/** MySQL client commands that may be written as a word at the start of a statement. */
const MYSQL_LONG_COMMANDS = new Set(
  'system source tee notee pager nopager edit delimiter connect charset warnings nowarning rehash status prompt print go ego quit exit help clear resetconnection query_attributes'.split(
    ' ',
  ),
);

const isSpace = (c: number) => c === 32 || (c >= 9 && c <= 13);
const isWordStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c >= 128;
const isWordPart = (c: number) => isWordStart(c) || (c >= 48 && c <= 57) || c === 36;
const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * Lex SQL text. `backslashes` overrides the dialect's reading of backslashes in '…' strings: a server
 * setting (Postgres standard_conforming_strings, MySQL NO_BACKSLASH_ESCAPES) can flip it, so callers
 * lex text holding a backslash both ways.
 */
export function lexSql(text: string, dialect: SqlDialect, meta: MetaSyntax, backslashes?: boolean): Lexed {
  if (text.length > MAX_SQL_LENGTH)
    return { statements: [], error: `longer than ${MAX_SQL_LENGTH} characters` };
  const base = RULES[dialect];
  const rules = backslashes === undefined ? base : { ...base, backslashes };
  const statements: LexedStatement[] = [];
  let tokens: Token[] = [];
  let depth = 0;
  let count = 0;
  let delimiter = ';';
  let execComments = 0;
  const n = text.length;
  let i = 0;
  const push = (kind: TokenKind, value: string, dollar = false, quoted?: string) => {
    const token: Token = { kind, text: value, depth };
    if (dollar) token.dollar = true;
    if (quoted) token.quoted = quoted;
    tokens.push(token);
    count++;
  };
  const end = () => {
    if (tokens.length > 0) statements.push({ tokens });
    tokens = [];
    depth = 0;
  };
  const lineEnd = (from: number) => {
    const nl = text.indexOf('\n', from);
    return nl < 0 ? n : nl;
  };
  const metaStatement = (name: string, from: number, to: number) => {
    end();
    statements.push({ tokens: [], meta: { name, args: text.slice(from, to).trim() } });
  };
  /** The end of a quoted run opened at `from` by `q`, honouring doubled quotes and (maybe) backslashes. */
  const closeQuote = (from: number, q: string, backslashes: boolean): number => {
    let j = from + 1;
    while (j < n) {
      const ch = text[j];
      if (backslashes && ch === '\\') j += 2;
      else if (ch === q) {
        if (text[j + 1] === q) j += 2;
        else return j;
      } else j++;
    }
    return -1;
  };

  while (i < n) {
    if (count > MAX_TOKENS || statements.length > MAX_STATEMENTS) {
      return { statements, error: 'too many statements or tokens' };
    }
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      i++;
      continue;
    }
    const ch = text[i] as string;
    // Client meta-commands.
    if (ch === '\\' && (meta === 'psql' || meta === 'mysql')) {
      let j = i + 1;
      if (meta === 'psql')
        while (j < n && !isSpace(text.charCodeAt(j)) && (j === i + 1 || text[j] !== '\\')) j++;
      else j = Math.min(i + 2, n);
      const name = text.slice(i, j);
      if (meta === 'mysql' && (name === '\\g' || name === '\\G')) {
        end();
        i = j;
        continue;
      }
      // psql ends a meta-command's arguments at the line end or at an unquoted backslash: `\\`
      // separates SQL that follows, any other starts the next meta-command (`\echo hi \! rm -rf ~`).
      let to = lineEnd(j);
      if (meta === 'psql') to = psqlArgsEnd(text, j, to);
      metaStatement(name, j, to);
      i = meta === 'psql' && text.startsWith('\\\\', to) ? to + 2 : to;
      continue;
    }
    if (tokens.length === 0 && atLineStart(text, i)) {
      if (meta === 'sqlite' && ch === '.') {
        let j = i + 1;
        while (j < n && !isSpace(text.charCodeAt(j))) j++;
        const to = lineEnd(j);
        metaStatement(text.slice(i, j).toLowerCase(), j, to);
        i = to;
        continue;
      }
      if (meta === 'mysql' && isWordStart(c)) {
        let j = i;
        while (j < n && isWordPart(text.charCodeAt(j))) j++;
        const word = text.slice(i, j).toLowerCase();
        if (MYSQL_LONG_COMMANDS.has(word)) {
          const to = lineEnd(j);
          if (word === 'delimiter') {
            const d = text.slice(j, to).trim().split(/\s+/)[0];
            if (d) delimiter = d;
          }
          metaStatement(word, j, to);
          i = to;
          continue;
        }
      }
    }
    if (delimiter !== ';' && text.startsWith(delimiter, i)) {
      end();
      i += delimiter.length;
      continue;
    }
    // Comments.
    if (ch === '-' && text[i + 1] === '-') {
      const after = text.charCodeAt(i + 2);
      if (!rules.dashNeedsSpace || i + 2 >= n || isSpace(after) || after < 32) {
        i = lineEnd(i);
        continue;
      }
    }
    if (ch === '#' && rules.hashComments) {
      i = lineEnd(i);
      continue;
    }
    if (ch === '/' && text[i + 1] === '*') {
      if (rules.executableComments && (text[i + 2] === '!' || (text[i + 2] === 'M' && text[i + 3] === '!'))) {
        // MySQL runs the contents of /*! … */ (after an optional version number).
        i += text[i + 2] === '!' ? 3 : 4;
        while (i < n && isDigit(text.charCodeAt(i))) i++;
        execComments++;
        continue;
      }
      i = skipBlockComment(text, i, rules.nestedComments);
      continue;
    }
    if (ch === '*' && text[i + 1] === '/' && execComments > 0) {
      execComments--;
      i += 2;
      continue;
    }
    // Strings and quoted identifiers.
    if (ch === "'") {
      const close = closeQuote(i, "'", rules.backslashes);
      if (close < 0) return unterminated(statements);
      push('string', stringText(text.slice(i + 1, close), "'", rules.backslashes, dialect));
      i = close + 1;
      continue;
    }
    if (ch === '"') {
      const close = closeQuote(i, '"', rules.backslashes && rules.doubleQuotedStrings);
      if (close < 0) return unterminated(statements);
      const raw = text.slice(i + 1, close);
      if (rules.doubleQuotedStrings)
        push('string', stringText(raw, '"', rules.backslashes, dialect), false, '"');
      else push('ident', raw, false, '"');
      i = close + 1;
      continue;
    }
    if (ch === '`') {
      const close = closeQuote(i, '`', false);
      if (close < 0) return unterminated(statements);
      push('ident', text.slice(i + 1, close));
      i = close + 1;
      continue;
    }
    if (ch === '[' && rules.brackets) {
      const close = text.indexOf(']', i + 1);
      if (close < 0) return unterminated(statements);
      push('ident', text.slice(i + 1, close));
      i = close + 1;
      continue;
    }
    if (ch === '$' && rules.dollarQuotes) {
      const tag = /^\$(?:[A-Za-z_\u0080-\uffff][\w\u0080-\uffff]*)?\$/.exec(text.slice(i, i + 64))?.[0];
      if (tag) {
        const close = text.indexOf(tag, i + tag.length);
        if (close < 0) return unterminated(statements);
        push('string', text.slice(i + tag.length, close), true);
        i = close + tag.length;
        continue;
      }
    }
    if (ch === ':' && meta === 'psql' && text[i - 1] !== ':' && text[i + 1] !== ':') {
      const next = text.charCodeAt(i + 1);
      if (isWordStart(next) || text[i + 1] === "'" || text[i + 1] === '"' || text[i + 1] === '{') {
        // psql substitutes :name, :'name', :"name" (and tests :{?name}) before the server sees the text.
        let j = i + 1;
        while (j < n && (isWordPart(text.charCodeAt(j)) || '\'"{}?'.includes(text[j] as string))) j++;
        push('var', text.slice(i, j));
        i = j;
        continue;
      }
    }
    if (isWordStart(c)) {
      let j = i + 1;
      while (j < n && isWordPart(text.charCodeAt(j))) j++;
      let word = text.slice(i, j).toUpperCase();
      // U&'…': a string with Unicode escapes (`&` is no word character).
      if (word === 'U' && text[j] === '&' && text[j + 1] === "'") {
        word = 'U&';
        j++;
      }
      if (
        text[j] === "'" &&
        (word === 'E' || word === 'X' || word === 'B' || word === 'N' || word === 'U&')
      ) {
        // E'…' takes backslash escapes in Postgres; the prefix is part of the literal.
        const close = closeQuote(j, "'", rules.backslashes || word === 'E');
        if (close < 0) return unterminated(statements);
        const raw = text.slice(j + 1, close);
        i = close + 1;
        if (word === 'U&') {
          // `U&'…' UESCAPE '!'` names another escape character.
          const uescape = /^\s*UESCAPE\s*'([^']|'')'/i.exec(text.slice(i, i + 64));
          if (uescape) i += uescape[0].length;
          const mark = uescape ? undouble(uescape[1] as string, "'") : '\\';
          push('string', decodeUnicode(raw, mark) ?? raw);
        } else if (word === 'X' || word === 'B') push('string', raw);
        else push('string', stringText(raw, "'", rules.backslashes || word === 'E', dialect));
        continue;
      }
      push('word', word);
      i = j;
      continue;
    }
    if (isDigit(c)) {
      let j = i + 1;
      while (j < n && (isWordPart(text.charCodeAt(j)) || text[j] === '.')) j++;
      push('number', text.slice(i, j));
      i = j;
      continue;
    }
    if (ch === ';') {
      end();
      i++;
      continue;
    }
    if (ch === '(') {
      push('punct', ch);
      depth++;
    } else if (ch === ')') {
      depth = Math.max(0, depth - 1);
      push('punct', ch);
    } else push('punct', ch);
    i++;
  }
  end();
  return { statements };
}

/** True when only blanks precede position i on its line. */
function atLineStart(text: string, i: number): boolean {
  for (let j = i - 1; j >= 0; j--) {
    const ch = text[j];
    if (ch === '\n') return true;
    if (ch !== ' ' && ch !== '\t' && ch !== '\r') return false;
  }
  return true;
}

/** Past a block comment opened at i; an unterminated one runs to the end of the text. */
function skipBlockComment(text: string, start: number, nested: boolean): number {
  let level = 0;
  let j = start;
  while (j < text.length) {
    if (text[j] === '/' && text[j + 1] === '*' && (nested || level === 0)) {
      level++;
      j += 2;
    } else if (text[j] === '*' && text[j + 1] === '/') {
      level--;
      j += 2;
      if (level === 0) return j;
    } else j++;
  }
  return text.length;
}

/**
 * An unterminated literal: the statement it is in is a syntax error and never runs (nor does anything
 * after it, which is inside the literal); the statements before it run.
 */
function unterminated(statements: LexedStatement[]): Lexed {
  return { statements };
}

/** A string literal's text as the server reads it (quotes undoubled, backslash escapes decoded). */
function stringText(raw: string, quote: string, backslashes: boolean, dialect: SqlDialect): string {
  if (!backslashes) return undouble(raw, quote);
  return dialect === 'mysql' || dialect === 'clickhouse'
    ? decodeMysqlBackslashes(raw, quote)
    : decodeBackslashes(raw, quote);
}

/** Where a psql meta-command's arguments end: the first backslash outside quotes, or `to`. */
function psqlArgsEnd(text: string, from: number, to: number): number {
  let quote: string | undefined;
  for (let k = from; k < to; k++) {
    const ch = text[k];
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
      else if (ch === '\\' && quote === "'") k++;
    } else if (ch === "'" || ch === '"' || ch === '`') quote = ch;
    else if (ch === '\\') return k;
  }
  return to;
}
