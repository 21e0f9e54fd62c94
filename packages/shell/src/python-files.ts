// Python that opens files by literal path — the agent's edit idiom `python3 - <<'PY' … s =
// open(p).read() … open(p, 'w').write(s) … PY`: the paths it writes, so that they are judged as any
// other write is (zones, .git, outside the project) while the rest of the code is judged read-only.
// Deliberately narrow: every `open` must be a call whose path is a plain string literal, or a name
// bound once to one, with a literal mode; anything else (a computed path, `open` passed around or
// shadowed, `os.open`) is not read here and leaves the code as it was: unknown-dynamic.

/** A string literal's value: no f/b prefix, no escapes, no shell-looking or glob characters. */
const PLAIN_LITERAL = /^[rRuU]?("""|'''|"|')([^\\\n$*?[\]~'"]*)\1$/;
const KEYWORD_VALUES = new Set(['encoding', 'errors', 'newline', 'buffering']);

export interface PythonOpens {
  /** Paths opened for writing (a mode with w, a, x or +), as written. */
  writes: string[];
  /**
   * Of those, the paths opened in a mode that empties the file (w) where the code has not opened the
   * file for reading before: its contents replaced whole. One read first is the edit idiom (read,
   * change, write back), judged as `sed -i` is.
   */
  truncates: string[];
  /** How many `open(…)` calls there are. */
  calls: number;
}

/** The files the code opens, or null when some `open` is not a call this reading can follow. */
export function pythonOpens(code: string): PythonOpens | null {
  if (code.includes('\r')) return null;
  const writes: string[] = [];
  const truncates: string[] = [];
  const read = new Set<string>();
  let calls = 0;
  let i = 0;
  while (i < code.length) {
    const c = code[i] as string;
    if (c === '#') {
      const eol = code.indexOf('\n', i);
      i = eol < 0 ? code.length : eol;
    } else if (c === '"' || c === "'") {
      const end = literalEnd(code, i);
      if (end < 0) return null;
      i = end;
    } else if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < code.length && /\w/.test(code[j] as string)) j++;
      const name = code.slice(i, j);
      // An f-string's `{…}` is code this reading does not follow: `open` there is not read.
      if (/^[rRbBuU]?[fFtT][rRbBuU]?$/.test(name) && (code[j] === '"' || code[j] === "'")) {
        const end = literalEnd(code, j);
        if (end < 0 || /\bopen\b/.test(code.slice(j, end))) return null;
        i = end;
        continue;
      }
      if (name === 'open') {
        if (code[i - 1] === '.') return null;
        let k = j;
        while (code[k] === ' ' || code[k] === '\t') k++;
        if (code[k] !== '(') return null;
        const args = callArguments(code, k + 1);
        if (!args) return null;
        const opened = openedFile(code, args.list);
        if (!opened) return null;
        calls++;
        if (opened.write) writes.push(opened.path);
        if (opened.truncate && !read.has(opened.path)) truncates.push(opened.path);
        if (opened.read) read.add(opened.path);
        j = args.end;
      }
      i = j;
    } else i++;
  }
  return { writes, truncates, calls };
}

/** Index just past the string literal starting at `at` (a quote), or -1 when it is not closed. */
function literalEnd(code: string, at: number): number {
  const quote = code[at] as string;
  const triple = code.startsWith(quote.repeat(3), at);
  const close = triple ? quote.repeat(3) : quote;
  for (let k = at + close.length; k < code.length; k++) {
    const c = code[k];
    if (c === '\\') k++;
    else if (!triple && c === '\n') return -1;
    else if (code.startsWith(close, k)) return k + close.length;
  }
  return -1;
}

/** The top-level arguments of a call whose `(` ends just before `from`, and the index past its `)`. */
export function callArguments(code: string, from: number): { list: string[]; end: number } | null {
  const list: string[] = [];
  let depth = 0;
  let start = from;
  for (let k = from; k < code.length; k++) {
    const c = code[k] as string;
    if (c === '"' || c === "'") {
      const end = literalEnd(code, k);
      if (end < 0) return null;
      k = end - 1;
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if ((c === ')' || c === ']' || c === '}') && depth > 0) depth--;
    else if (c === ')' || (c === ',' && depth === 0)) {
      const arg = code.slice(start, k).trim();
      if (arg !== '') list.push(arg);
      if (c === ')') return { list, end: k + 1 };
      start = k + 1;
    }
  }
  return null;
}

/** `open(PATH[, MODE][, encoding=…])` with a literal (or literal-bound) path and a literal mode. */
function openedFile(
  code: string,
  args: string[],
): { path: string; read: boolean; write: boolean; truncate: boolean } | null {
  const [first, ...rest] = args;
  if (first === undefined) return null;
  const path = literal(first) ?? boundLiteral(code, first);
  if (path === undefined || path === '') return null;
  let mode = 'r';
  for (const [n, arg] of rest.entries()) {
    const keyword = /^(\w+)\s*=\s*([\s\S]+)$/.exec(arg);
    if (keyword) {
      const [, name, value] = keyword as unknown as [string, string, string];
      if (name === 'mode') {
        const m = literal(value);
        if (m === undefined) return null;
        mode = m;
      } else if (!KEYWORD_VALUES.has(name) || (literal(value) === undefined && !/^-?\d+$/.test(value)))
        return null;
    } else if (n === 0) {
      const m = literal(arg);
      if (m === undefined) return null;
      mode = m;
    } else return null;
  }
  if (!/^[rwaxbt+]*$/.test(mode)) return null;
  const write = /[wax+]/.test(mode);
  return { path, read: !write || mode.includes('r'), write, truncate: mode.includes('w') };
}

function literal(text: string): string | undefined {
  return PLAIN_LITERAL.exec(text.trim())?.[2];
}

/**
 * The literal a name is bound to: bound exactly once, by a statement `NAME = 'literal'` of its own,
 * and otherwise only read — every other statement that mentions it assigns nothing to it (it stands
 * right of the statement's first `=`, or in a statement with none) and binds no names around it
 * (for, lambda, def, with … as, import, global, del, walrus) — so `(p) = …`, `p, q = …`,
 * `lambda p: …` and `[p] = …` all leave the name unread.
 */
function boundLiteral(code: string, name: string): string | undefined {
  if (!/^[A-Za-z_]\w*$/.test(name)) return undefined;
  const { text, literals } = withoutLiterals(code);
  const mention = new RegExp(`(?<![\\w.])${name}(?!\\w)`);
  let value: string | undefined;
  for (const statement of statements(text)) {
    if (!mention.test(statement)) continue;
    const binding = new RegExp(`^\\s*${name}\\s*=\\s*\\0(\\d+)\\0\\s*$`).exec(statement);
    if (binding) {
      if (value !== undefined) return undefined;
      value = literal(literals[Number(binding[1])] as string);
      if (value === undefined) return undefined;
      continue;
    }
    if (/(^|[^\w])(for|lambda|def|class|as|import|global|nonlocal|del|match|case)(?!\w)|:=/.test(statement))
      return undefined;
    const assign = assignmentAt(statement);
    if (assign >= 0 && mention.test(statement.slice(0, assign))) return undefined;
  }
  return value;
}

/** Where a statement's last assignment operator stands (`a = b = 'x'` binds both), or -1. */
function assignmentAt(statement: string): number {
  let depth = 0;
  let last = -1;
  for (let k = 0; k < statement.length; k++) {
    const c = statement[k];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if ((c === ')' || c === ']' || c === '}') && depth > 0) depth--;
    else if (c === '=' && depth === 0 && statement[k + 1] !== '=' && !/[=!<>]/.test(statement[k - 1] ?? ''))
      last = k;
  }
  return last;
}

/** Logical statements: split at newlines and `;` outside brackets (a call may span lines). */
function statements(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let k = 0; k < text.length; k++) {
    const c = text[k];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if ((c === ')' || c === ']' || c === '}') && depth > 0) depth--;
    else if ((c === '\n' || c === ';') && depth === 0) {
      out.push(text.slice(start, k));
      start = k + 1;
    }
  }
  out.push(text.slice(start));
  return out;
}

/** The code with each string literal replaced by `\0k\0` (k indexes `literals`) and comments removed. */
function withoutLiterals(code: string): { text: string; literals: string[] } {
  const literals: string[] = [];
  let text = '';
  for (let i = 0; i < code.length; i++) {
    const c = code[i] as string;
    if (c === '#') {
      const eol = code.indexOf('\n', i);
      i = (eol < 0 ? code.length : eol) - 1;
    } else if (c === '"' || c === "'") {
      const end = literalEnd(code, i);
      if (end < 0) break;
      // A prefix (r, u, f, b) is an identifier character just before: it stays with the literal.
      const prefix = /[A-Za-z]{1,2}$/.exec(text)?.[0] ?? '';
      text = text.slice(0, text.length - prefix.length);
      text += `\0${literals.length}\0`;
      literals.push(prefix + code.slice(i, end));
      i = end - 1;
    } else text += c;
  }
  return { text, literals };
}
