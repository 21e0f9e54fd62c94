// What SQL text does, statement by statement: destructive (DROP, TRUNCATE, DELETE or UPDATE without a
// filtering WHERE, ALTER … DROP|RENAME, …), dynamic (what runs is decided at run time: EXECUTE, DO
// blocks, CALL, COPY … PROGRAM, file reads and writes, client shell escapes, psql variables), or a
// read. Text is lexed by sql-lexer.ts; where readings can differ (the dialect is not known, or a
// server setting flips backslash escapes) every reading is analysed and the findings merged, so a
// spelling that is data to one reading and code to another is judged as code. Past the bounds the
// answer is `unknown`, which callers gate.
import {
  backslashEscapes,
  type LexedStatement,
  lexSql,
  type MetaSyntax,
  type SqlDialect,
  type Token,
} from './sql-lexer.js';
import { metaVerdict } from './sql-meta.js';

export type { MetaSyntax, SqlDialect } from './sql-lexer.js';

export interface SqlStatementAnalysis {
  /** Leading keywords (at most four), upper-case, comments removed; a meta-command's name. */
  keywords: string[];
  /** Destructive kinds: `DROP`, `TRUNCATE`, `DELETE`, `UPDATE`, `ALTER DROP`, `ALTER RENAME`, `WRITE FILE`, … */
  destructive: string[];
  /** Why what runs is decided at run time (empty when it is not). */
  dynamic: string[];
  /** Reads only (SELECT without INTO, SHOW, EXPLAIN without ANALYZE, `\d`, `.tables`, …). */
  read_only: boolean;
}

export interface SqlAnalysis {
  statements: SqlStatementAnalysis[];
  destructive: string[];
  dynamic: string[];
  /** The text could not be analysed (a bound was hit); callers gate it. */
  unknown: boolean;
  /** Every statement is a read, and there is at least one. */
  read_only: boolean;
  error?: string;
}

/** The analysis as a segment or call carries it: what rules match. */
export interface SqlFacts {
  /** Destructive kinds found in any statement (`DROP`, `TRUNCATE`, `DELETE`, `UPDATE`, `ALTER DROP`, …). */
  destructive: string[];
  /** Some statement's effect is decided at run time (dynamic SQL, a file of statements, a shell escape). */
  dynamic: boolean;
  /** The SQL could not be known or analysed (unreadable file, piped program output, a bound). */
  unknown: boolean;
  /** Every statement only reads. */
  read_only: boolean;
}

export interface SqlOptions {
  /** The server's dialect; without one every dialect's reading is analysed and merged. */
  dialect?: SqlDialect;
  /** The client whose meta-commands the text may hold (default none: text sent to a server). */
  meta?: MetaSyntax;
}

const ALL_DIALECTS: readonly SqlDialect[] = ['postgres', 'mysql', 'sqlite', 'clickhouse'];
/** Bodies of DO blocks and functions are analysed this deep. */
const MAX_DEPTH = 3;

export function analyseSql(text: string, opts: SqlOptions = {}): SqlAnalysis {
  return analyse(text, opts.dialect ? [opts.dialect] : ALL_DIALECTS, opts.meta ?? 'none', 0);
}

export function sqlFacts(a: SqlAnalysis): SqlFacts {
  return {
    destructive: a.destructive,
    dynamic: a.dynamic.length > 0,
    unknown: a.unknown,
    read_only: a.read_only,
  };
}

/** Facts for SQL that could not be read at all (a file that is missing, piped program output). */
export const UNKNOWN_SQL: SqlFacts = Object.freeze({
  destructive: [],
  dynamic: false,
  unknown: true,
  read_only: false,
});

/** Arguments of a tool call that carry SQL text (`sql`, `query`, `statement`), in this order. */
export const SQL_ARGUMENTS = ['sql', 'query', 'statement'] as const;

/**
 * The SQL facts of a (non-shell) tool call: every string argument named in SQL_ARGUMENTS analysed in
 * every dialect's reading and merged; undefined when the call carries none. Rules over MCP SQL tools
 * match these facts, so that a tool call and `psql -c` are judged by the same analysis.
 */
export function sqlFactsOfArgs(args: Readonly<Record<string, unknown>>): SqlFacts | undefined {
  const parts: SqlFacts[] = [];
  for (const name of SQL_ARGUMENTS) {
    const value = args[name];
    if (typeof value === 'string') parts.push(sqlFacts(analyseSql(value)));
  }
  return mergeFacts(parts);
}

/** Merge several pieces of SQL a client runs into one set of facts. */
export function mergeFacts(parts: readonly SqlFacts[]): SqlFacts | undefined {
  if (parts.length === 0) return undefined;
  return {
    destructive: [...new Set(parts.flatMap((p) => p.destructive))],
    dynamic: parts.some((p) => p.dynamic),
    unknown: parts.some((p) => p.unknown),
    read_only: parts.every((p) => p.read_only),
  };
}

function analyse(
  text: string,
  dialects: readonly SqlDialect[],
  meta: MetaSyntax,
  depth: number,
): SqlAnalysis {
  const readings: Array<[SqlDialect, boolean | undefined]> = [];
  // Texts without the characters dialects disagree on read alike in every dialect.
  const plain = !/[\\#$[`"]|\/\*|--/.test(text);
  for (const dialect of plain ? dialects.slice(0, 1) : dialects) {
    readings.push([dialect, undefined]);
    if (text.includes('\\')) readings.push([dialect, !backslashEscapes(dialect)]);
  }
  let first: SqlAnalysis | undefined;
  const destructive = new Set<string>();
  const dynamic = new Set<string>();
  let unknown = false;
  let readOnly = true;
  let error: string | undefined;
  for (const [dialect, backslashes] of readings) {
    const lexed = lexSql(text, dialect, meta, backslashes);
    const statements = lexed.statements.map((s) => statement(s, dialect, meta, depth));
    if (lexed.error) {
      unknown = true;
      error ??= lexed.error;
    }
    for (const s of statements) {
      for (const d of s.destructive) destructive.add(d);
      for (const d of s.dynamic) dynamic.add(d);
      if (s.dynamic.includes(TOO_DEEP)) unknown = true;
    }
    const ro = statements.length > 0 && statements.every((s) => s.read_only);
    readOnly &&= ro;
    first ??= { statements, destructive: [], dynamic: [], unknown: false, read_only: ro };
  }
  const out: SqlAnalysis = {
    statements: first?.statements ?? [],
    destructive: [...destructive],
    dynamic: [...dynamic],
    unknown,
    read_only: readOnly && !unknown,
  };
  if (error) out.error = error;
  return out;
}

const TOO_DEEP = 'bodies nested too deep';

const READ_FIRST = new Set(
  'SELECT SHOW DESCRIBE DESC EXPLAIN VALUES TABLE FROM WITH PRAGMA USE BEGIN START COMMIT END ROLLBACK SUMMARIZE EXISTS CHECK'.split(
    ' ',
  ),
);
/** Words before DELETE / UPDATE that make it part of another clause (ON DELETE, FOR UPDATE, GRANT UPDATE, …). */
const NOT_VERB_AFTER = new Set('ON FOR KEY OR GRANT REVOKE BEFORE AFTER OF'.split(' '));
const NOT_VERB_BEFORE = new Set('ON OF OR TO'.split(' '));
const OR_CONFLICT = new Set('ROLLBACK ABORT REPLACE FAIL IGNORE'.split(' '));
/** Words that can appear in a WHERE condition that filters nothing (`WHERE 1=1`, `WHERE TRUE`). */
const CONSTANT_WORDS = new Set(
  'TRUE FALSE NULL NOT AND OR IS IN BETWEEN LIKE ILIKE ISNULL NOTNULL UNKNOWN'.split(' '),
);
const WHERE_END = new Set('RETURNING ORDER LIMIT OUTPUT'.split(' '));
/** Functions that read or write server files, run statements or programs, or end sessions. */
const DYNAMIC_FUNCTIONS = new Set(
  (
    'PG_READ_FILE PG_READ_BINARY_FILE PG_FILE_WRITE PG_FILE_UNLINK PG_FILE_RENAME LO_IMPORT LO_EXPORT LO_UNLINK ' +
    'DBLINK DBLINK_EXEC DBLINK_SEND_QUERY QUERY_TO_XML QUERY_TO_XMLSCHEMA QUERY_TO_XML_AND_XMLSCHEMA CURSOR_TO_XML ' +
    'PG_TERMINATE_BACKEND PG_CANCEL_BACKEND PG_DROP_REPLICATION_SLOT PG_PROMOTE PG_RELOAD_CONF ' +
    'LOAD_FILE SYS_EXEC SYS_EVAL LOAD_EXTENSION WRITEFILE READFILE EDIT ' +
    'XP_CMDSHELL SP_EXECUTESQL OPENROWSET OPENDATASOURCE OPENQUERY SP_OACREATE EXECUTABLE QUERY'
  ).split(' '),
);
const TRUSTED_LANGUAGES = new Set(['SQL', 'PLPGSQL']);

function statement(
  s: LexedStatement,
  dialect: SqlDialect,
  meta: MetaSyntax,
  depth: number,
): SqlStatementAnalysis {
  if (s.meta) {
    const v = metaVerdict(meta, s.meta.name, s.meta.args);
    return { keywords: [s.meta.name], ...v };
  }
  const tokens = s.tokens;
  let start = 0;
  while (tokens[start]?.kind === 'punct' && tokens[start]?.text === '(') start++;
  const keywords: string[] = [];
  for (let k = start; k < tokens.length && keywords.length < 4 && tokens[k]?.kind === 'word'; k++)
    keywords.push((tokens[k] as Token).text);
  const first = keywords[0] ?? '';
  const out: SqlStatementAnalysis = { keywords, destructive: [], dynamic: [], read_only: false };
  const isWord = (t: Token | undefined, ...words: string[]) => t?.kind === 'word' && words.includes(t.text);
  const isPunct = (t: Token | undefined, p: string) => t?.kind === 'punct' && t.text === p;
  // `EXPLAIN ("analyze") DELETE …` runs the statement too: the option may be a quoted identifier.
  const analyze = (t: Token) =>
    isWord(t, 'ANALYZE', 'ANALYSE') || (t.kind === 'ident' && /^analy[sz]e$/i.test(t.text));
  if (first === 'EXPLAIN' && !tokens.some(analyze)) {
    // EXPLAIN without ANALYZE plans the statement and runs nothing.
    out.read_only = true;
    return out;
  }
  const destructive = new Set<string>();
  const dynamic = new Set<string>();
  let writes = false;
  const conflict = tokens.some((t) => isWord(t, 'CONFLICT'));
  for (let i = start; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    if (t.kind === 'var') {
      dynamic.add(`psql variable ${t.text}`);
      continue;
    }
    const prev = tokens[i - 1];
    const next = tokens[i + 1];
    const call = isPunct(next, '(');
    // A function is called by its last name, however qualified or quoted (`pg_catalog.lo_unlink(`, `"writefile"(`).
    if (call && (t.kind === 'word' || t.kind === 'ident') && DYNAMIC_FUNCTIONS.has(t.text.toUpperCase()))
      dynamic.add(`${t.text.toLowerCase()}()`);
    if (t.kind !== 'word') continue;
    // `t.drop`, `drop.x`: a qualified name, not a keyword.
    if (isPunct(prev, '.') || isPunct(next, '.')) continue;
    const atStart = i === start;
    switch (t.text) {
      case 'DROP':
        // ALTER … DROP NOT NULL / DROP DEFAULT relax a constraint and lose no data.
        if (first === 'ALTER' && isWord(next, 'NOT', 'DEFAULT')) break;
        destructive.add(first === 'ALTER' ? 'ALTER DROP' : 'DROP');
        break;
      case 'TRUNCATE':
        if (!call) destructive.add('TRUNCATE');
        break;
      case 'RENAME':
        if (first === 'ALTER') destructive.add('ALTER RENAME');
        else if (atStart) destructive.add('RENAME');
        break;
      case 'CLEAR':
        if (first === 'ALTER') destructive.add('ALTER CLEAR');
        break;
      case 'DELETE':
      case 'UPDATE':
        if (dmlVerb(tokens, i, conflict)) {
          writes = true;
          if (!filtered(tokens, i)) destructive.add(t.text);
        }
        break;
      case 'INSERT':
        writes = true;
        if (isWord(next, 'OVERWRITE')) destructive.add('INSERT OVERWRITE');
        break;
      case 'REPLACE':
        if (isWord(prev, 'OR') && isWord(next, 'TABLE')) destructive.add('REPLACE TABLE');
        if (!call) writes = true;
        break;
      case 'INTO':
        writes = true;
        if (isWord(next, 'OUTFILE', 'DUMPFILE')) dynamic.add(`INTO ${(next as Token).text}`);
        break;
      case 'FUNCTION':
        // INSERT INTO FUNCTION url(…) / s3(…) / file(…): rows sent to a table function.
        if (first === 'INSERT') dynamic.add('INSERT INTO FUNCTION');
        break;
      case 'EXECUTE':
      case 'EXEC':
        if (!isWord(next, 'ON') && !isWord(prev, 'GRANT', 'REVOKE') && !isPunct(prev, ','))
          dynamic.add(t.text);
        break;
      case 'PREPARE':
        if (atStart && !isWord(next, 'TRANSACTION')) dynamic.add('PREPARE');
        break;
      case 'DO':
        // DO [LANGUAGE l] 'code' runs a block; MySQL's DO expr only evaluates expressions.
        if (atStart && (next?.kind === 'string' || isWord(next, 'LANGUAGE'))) dynamic.add('DO');
        break;
      case 'CALL':
      case 'LOAD':
      case 'INSTALL':
        if (atStart) dynamic.add(t.text);
        break;
      case 'COPY':
        if (atStart) copy(tokens, i, dynamic, () => (writes = true));
        break;
      // A column's type changed (`ALTER COLUMN c TYPE int USING NULL`, MySQL MODIFY/CHANGE, ClickHouse
      // MODIFY TTL) rewrites or drops its values; another engine (BLACKHOLE) or a discarded tablespace
      // loses every row; REPLACE PARTITION overwrites one.
      case 'TYPE':
        if (first === 'ALTER' && !isWord(prev, 'ALTER')) destructive.add('ALTER TYPE');
        break;
      case 'MODIFY':
      case 'CHANGE':
      case 'ENGINE':
      case 'DISCARD':
      case 'PARTITION':
        if (first === 'ALTER' && (t.text !== 'PARTITION' || isWord(prev, 'REPLACE', 'MOVE')))
          destructive.add(`ALTER ${t.text}`);
        break;
      // MySQL's binary logs: what replication and point-in-time recovery read.
      case 'MASTER':
      case 'BINARY':
        if (first === 'RESET' || first === 'PURGE') destructive.add(`${first} ${t.text}`);
        break;
    }
  }
  if (first === 'CREATE' || first === 'DO') bodies(tokens, dialect, depth, destructive, dynamic);
  if (writesSchemaTable(tokens)) destructive.add('SCHEMA WRITE');
  if (first === 'PRAGMA' && writableSchema(tokens)) destructive.add('PRAGMA WRITABLE_SCHEMA');
  out.destructive = [...destructive];
  out.dynamic = [...dynamic];
  out.read_only =
    destructive.size === 0 &&
    dynamic.size === 0 &&
    !writes &&
    READ_FIRST.has(first) &&
    (first !== 'PRAGMA' || pragmaRead(tokens));
  return out;
}

/** Is the DELETE / UPDATE at i a statement verb (not ON DELETE, FOR UPDATE, GRANT UPDATE, DO UPDATE)? */
function dmlVerb(tokens: Token[], i: number, conflict: boolean): boolean {
  const prev = tokens[i - 1];
  const next = tokens[i + 1];
  if (prev?.kind === 'word' && NOT_VERB_AFTER.has(prev.text)) return false;
  if (prev?.kind === 'punct' && (prev.text === ',' || prev.text === '=')) return false;
  // sqlite's `UPDATE OR REPLACE|IGNORE|… t SET …` is the verb with a conflict clause.
  const orConflict =
    tokens[i]?.text === 'UPDATE' && next?.text === 'OR' && OR_CONFLICT.has(tokens[i + 2]?.text ?? '');
  if (next?.kind === 'word' && NOT_VERB_BEFORE.has(next.text) && !orConflict) return false;
  if (next?.kind === 'punct' && (next.text === ',' || next.text === ')' || next.text === '=')) return false;
  // INSERT … ON CONFLICT … DO UPDATE SET: an upsert of the conflicting row only.
  if (tokens[i]?.text === 'UPDATE' && prev?.kind === 'word' && prev.text === 'DO' && conflict) return false;
  return true;
}

/** Does the DELETE / UPDATE at i have a WHERE (at its own level) that names something? */
function filtered(tokens: Token[], i: number): boolean {
  const level = (tokens[i] as Token).depth;
  for (let j = i + 1; j < tokens.length; j++) {
    const t = tokens[j] as Token;
    if (t.depth < level) return false;
    if (t.depth !== level || t.kind !== 'word' || t.text !== 'WHERE') continue;
    // The condition's disjuncts (split at OR on its own level): it filters only if each one does,
    // since `id = 1 OR TRUE` and `id = id` keep every row.
    const disjuncts: Token[][] = [[]];
    for (let k = j + 1; k < tokens.length; k++) {
      const c = tokens[k] as Token;
      if (c.depth < level || (c.depth === level && c.kind === 'word' && WHERE_END.has(c.text))) break;
      if (c.depth === level && c.kind === 'word' && c.text === 'OR') disjuncts.push([]);
      else (disjuncts[disjuncts.length - 1] as Token[]).push(c);
    }
    return disjuncts.every(filters);
  }
  return false;
}

/**
 * A condition that may keep rows out: it names a column (or variable) and is not plainly true for
 * every row. A conjunction filters when one of its terms does; a term does not when it only compares
 * a thing with itself (`t.id = t.id`, `id >= id`) or matches any text (`name LIKE '%'`). Casts
 * (`true::bool`) and function names (`coalesce(null, true)`) name no column.
 */
function filters(condition: Token[]): boolean {
  const tokens = withoutCasts(condition);
  const base = Math.min(...tokens.map((t) => t.depth));
  const wrapped = enclosing(tokens, base);
  if (wrapped) return splitAt(wrapped, wrapped[0]?.depth ?? base, 'OR').every(filters);
  const terms = splitAt(tokens, base, 'AND');
  if (terms.length > 1) return terms.some(filters);
  if (!tokens.some((t, k) => names(t, tokens[k + 1]))) return false;
  return !selfComparison(tokens, base) && !matchesAnyText(tokens, base);
}

/** A token that names a column or variable (a string only with MySQL's quotes, handled by the lexer). */
function names(t: Token, next: Token | undefined): boolean {
  if (t.kind === 'ident' || t.kind === 'var' || t.quoted === '"') return true;
  if (t.kind !== 'word' || CONSTANT_WORDS.has(t.text)) return false;
  return !(next?.kind === 'punct' && next.text === '(');
}

/** The tokens without `::type` casts (a cast of a constant is a constant). */
function withoutCasts(tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k] as Token;
    if (t.kind === 'punct' && t.text === ':' && tokens[k + 1]?.text === ':' && tokens[k + 2]?.kind === 'word')
      k += 2;
    else out.push(t);
  }
  return out;
}

/** The inside of `( … )` when the parentheses enclose the whole condition. */
function enclosing(tokens: Token[], base: number): Token[] | undefined {
  const first = tokens[0];
  const last = tokens[tokens.length - 1];
  if (tokens.length < 3 || first?.text !== '(' || last?.text !== ')' || first.kind !== 'punct')
    return undefined;
  // The first `(` must close at the end: no other token at its depth in between.
  if (tokens.slice(1, -1).some((t) => t.depth <= base)) return undefined;
  return tokens.slice(1, -1);
}

/** Split at a keyword on the base depth (`AND` after BETWEEN is its own). */
function splitAt(tokens: Token[], base: number, word: 'AND' | 'OR'): Token[][] {
  const parts: Token[][] = [[]];
  let between = false;
  for (const t of tokens) {
    const here = t.depth === base && t.kind === 'word';
    if (here && t.text === 'BETWEEN') between = true;
    if (here && t.text === word && !(word === 'AND' && between)) parts.push([]);
    else (parts[parts.length - 1] as Token[]).push(t);
    if (here && t.text === 'AND') between = false;
  }
  return parts.filter((part) => part.length > 0);
}

const same = (a: Token[], b: Token[]): boolean =>
  a.length > 0 && a.length === b.length && a.every((t, k) => t.kind === b[k]?.kind && t.text === b[k]?.text);

/** `x = x`, `t.id >= t.id`, `x <= x`, `x IS NOT DISTINCT FROM x`: true for every row (but NULLs). */
function selfComparison(tokens: Token[], base: number): boolean {
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k] as Token;
    if (t.depth !== base || t.kind !== 'punct' || t.text !== '=') continue;
    const before = tokens[k - 1];
    const widened =
      before?.kind === 'punct' && (before.text === '<' || before.text === '>' || before.text === '=');
    const end = tokens[k + 1]?.kind === 'punct' && tokens[k + 1]?.text === '=' ? k + 2 : k + 1;
    if (same(tokens.slice(0, widened ? k - 1 : k), tokens.slice(end))) return true;
  }
  const words = tokens.map((t) => (t.depth === base && t.kind === 'word' ? t.text : ''));
  const at = words.findIndex((w, k) => w === 'IS' && words[k + 1] === 'NOT' && words[k + 2] === 'DISTINCT');
  return at > 0 && words[at + 3] === 'FROM' && same(tokens.slice(0, at), tokens.slice(at + 4));
}

/** `x LIKE '%'` (ILIKE, `SIMILAR TO '%'`), `x ~ ''`, `x REGEXP '.*'`: any text matches. */
function matchesAnyText(tokens: Token[], base: number): boolean {
  const last = tokens[tokens.length - 1];
  if (last?.kind !== 'string' || last.depth !== base) return false;
  const op = tokens[tokens.length - 2];
  if (op?.kind === 'word' && (op.text === 'LIKE' || op.text === 'ILIKE' || op.text === 'TO'))
    return /^%+$/.test(last.text) && tokens[tokens.length - 3]?.text !== 'NOT';
  const regex =
    (op?.kind === 'word' && (op.text === 'REGEXP' || op.text === 'RLIKE')) ||
    (op?.kind === 'punct' && op.text === '~');
  return regex && /^(\.\*|\^|)$/.test(last.text) && tokens[tokens.length - 3]?.text !== 'NOT';
}

/** COPY … PROGRAM runs a shell command; COPY … TO|FROM 'file' reads or writes a file. */
function copy(tokens: Token[], i: number, dynamic: Set<string>, write: () => void): void {
  for (let j = i + 1; j < tokens.length; j++) {
    const t = tokens[j] as Token;
    if (t.kind !== 'word') continue;
    if (t.text === 'PROGRAM') dynamic.add('COPY PROGRAM');
    if (t.text === 'FROM') write();
    if ((t.text === 'TO' || t.text === 'FROM') && tokens[j + 1]?.kind === 'string') dynamic.add('COPY FILE');
  }
}

/** The bodies of DO blocks and functions (string literals) are statements too; untrusted languages run anything. */
function bodies(
  tokens: Token[],
  dialect: SqlDialect,
  depth: number,
  destructive: Set<string>,
  dynamic: Set<string>,
): void {
  const routine = tokens.some(
    (t) => t.kind === 'word' && (t.text === 'FUNCTION' || t.text === 'PROCEDURE' || t.text === 'DO'),
  );
  if (!routine) return;
  for (const [k, t] of tokens.entries()) {
    if (t.kind === 'word' && t.text === 'LANGUAGE') {
      const lang = tokens[k + 1];
      const name =
        lang?.kind === 'word' || lang?.kind === 'ident' || lang?.kind === 'string' ? lang.text : '';
      if (!TRUSTED_LANGUAGES.has(name.toUpperCase())) dynamic.add(`LANGUAGE ${name.toLowerCase()}`);
    }
  }
  for (const t of tokens) {
    if (t.kind !== 'string') continue;
    if (depth + 1 > MAX_DEPTH) {
      dynamic.add(TOO_DEEP);
      return;
    }
    const inner = analyse(t.text, [dialect], 'none', depth + 1);
    for (const d of inner.destructive) destructive.add(d);
    for (const d of inner.dynamic) dynamic.add(d);
    if (inner.unknown) dynamic.add(TOO_DEEP);
  }
}

/** SQLite's schema tables: a row written there defines, redefines or drops a table or index. */
const SCHEMA_TABLES = /^(sqlite_master|sqlite_schema|sqlite_temp_master|sqlite_temp_schema)$/i;

/** A name token (bare, quoted, `[…]`, or SQLite's legacy '…' name) that is a schema table. */
const schemaName = (t: Token | undefined): boolean =>
  t !== undefined &&
  (t.kind === 'word' || t.kind === 'ident' || t.kind === 'string') &&
  SCHEMA_TABLES.test(t.text);

/**
 * `DELETE FROM`, `UPDATE [OR …]`, `INSERT|REPLACE … INTO` a schema table (`main.sqlite_schema` too):
 * with writable_schema on, the rows are the schema itself, so a table is gone as with DROP.
 */
function writesSchemaTable(tokens: Token[]): boolean {
  return tokens.some((t, i) => {
    if (t.kind !== 'word') return false;
    let j: number;
    if (t.text === 'DELETE' && tokens[i + 1]?.text === 'FROM') j = i + 2;
    else if (t.text === 'INTO') j = i + 1;
    else if (t.text === 'UPDATE') j = tokens[i + 1]?.text === 'OR' ? i + 3 : i + 1;
    else return false;
    // A schema-qualified name: the table is the part after the dot.
    if (tokens[j + 1]?.kind === 'punct' && tokens[j + 1]?.text === '.') j += 2;
    return schemaName(tokens[j]);
  });
}

/** Values that turn a boolean pragma off. */
const PRAGMA_OFF = /^(off|false|no|0+)$/i;

/** `PRAGMA [schema.]writable_schema = v` or `(v)` with v not off: the schema tables become writable. */
function writableSchema(tokens: Token[]): boolean {
  const at = tokens.findIndex((t) => t.kind !== 'punct' && /^writable_schema$/i.test(t.text));
  if (at < 0) return false;
  const sign = tokens[at + 1];
  if (sign === undefined) return false; // a read of the setting
  const value = tokens[at + 2];
  return value === undefined || !PRAGMA_OFF.test(value.text);
}

const PRAGMA_READS = new Set(
  'TABLE_INFO TABLE_XINFO TABLE_LIST INDEX_LIST INDEX_INFO INDEX_XINFO FOREIGN_KEY_LIST FOREIGN_KEY_CHECK INTEGRITY_CHECK QUICK_CHECK COLLATION_LIST FUNCTION_LIST MODULE_LIST PRAGMA_LIST DATABASE_LIST COMPILE_OPTIONS'.split(
    ' ',
  ),
);

/** PRAGMA name reads; PRAGMA name = value and PRAGMA name(value) set, except the listing pragmas. */
function pragmaRead(tokens: Token[]): boolean {
  if (tokens.some((t) => t.kind === 'punct' && t.text === '=')) return false;
  const open = tokens.findIndex((t) => t.kind === 'punct' && t.text === '(');
  if (open < 0) return true;
  const name = tokens[open - 1];
  return name?.kind === 'word' && PRAGMA_READS.has(name.text);
}
