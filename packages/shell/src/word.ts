// Reading one shell word: quotes, backslash escapes, ANSI-C strings, parameter expansions,
// arithmetic, and command / process substitutions (parsed recursively by the parser subclass).
import { inArithmetic } from './arithmetic.js';
import type { Script, Word, WordPart } from './ast.js';
import { type Budget, ShellSyntaxError, tick } from './budget.js';

/** Characters that end an unquoted word. */
const META = new Set([' ', '\t', '\r', '\n', ';', '&', '|', '(', ')', '<', '>']);
/** Characters that need more than copying inside an unquoted word. */
const WORD_SPECIAL = new Set([...META, '\\', "'", '"', '$', '`']);
const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;
/** What follows `${` in bash 5.3's command substitution in the current shell. */
const FUNSUB_START = /^[ \t\n|]$/;
export abstract class WordReader {
  pos = 0;
  protected subDepth = 0;

  constructor(
    protected readonly src: string,
    protected readonly budget: Budget,
    /** This reader parses the inside of a substitution (a heredoc may end at `)`). */
    protected readonly nested = false,
  ) {}

  /** Parse a list closed by `)` at the cursor (after `$(`, `<(`, `>(`). */
  protected abstract parseNested(): Script;
  /** Parse a list closed by the word `}` at the cursor (after bash 5.3's `${ ` or `${|`). */
  protected abstract parseFunsub(): Script;
  /** Parse a separate text as a script (the inside of backquotes, a heredoc body). */
  protected abstract parseSubscript(text: string): Script;

  protected skipBlanks(): void {
    for (;;) {
      const c = this.src[this.pos];
      if (c === ' ' || c === '\t' || c === '\r') this.pos++;
      else if (c === '\\' && this.src[this.pos + 1] === '\n') this.pos += 2;
      else if (c === '#' && this.atWordStart()) this.skipComment();
      else return;
    }
  }

  protected skipComment(): void {
    const eol = this.src.indexOf('\n', this.pos);
    this.pos = eol < 0 ? this.src.length : eol;
  }

  private atWordStart(): boolean {
    const prev = this.src[this.pos - 1];
    // bash reads `\r` as part of a word: `hi\r#` is one word, and its `#` starts no comment.
    return prev === undefined || (META.has(prev) && prev !== '\r');
  }

  /** The word at the cursor when it is plain unquoted text (for reserved words), else null. */
  protected peekBare(): string | null {
    let end = this.pos;
    while (end < this.src.length && !WORD_SPECIAL.has(this.src[end] as string)) end++;
    if (end === this.pos) return null;
    return this.src.slice(this.pos, end);
  }

  /** Read one word at the cursor; null when the cursor is at a metacharacter or the end. */
  protected readWord(): Word | null {
    const start = this.pos;
    const parts: WordPart[] = [];
    const state = { escaped: false };
    const c0 = this.src[this.pos];
    if ((c0 === '<' || c0 === '>') && this.src[this.pos + 1] === '(') {
      this.pos += 2;
      const script = this.parseNested();
      parts.push({ kind: 'sub', script, src: this.src.slice(start, this.pos), quoted: false, proc: true });
    }
    while (this.pos < this.src.length) {
      tick(this.budget);
      const c = this.src[this.pos] as string;
      if (META.has(c)) break;
      if (c === '\\') {
        const next = this.src[this.pos + 1];
        if (next === '\n') this.pos += 2;
        else if (next === undefined) {
          parts.push({ kind: 'lit', text: '\\', quoted: false });
          this.pos++;
        } else {
          parts.push({ kind: 'lit', text: next, quoted: true });
          this.pos += 2;
        }
      } else if (c === "'") this.readSingle(parts);
      else if (c === '"') this.readDouble(parts, false);
      else if (c === '$') this.readDollar(parts, false, state);
      else if (c === '`') this.readBacktick(parts, false);
      else {
        let end = this.pos + 1;
        while (end < this.src.length && !WORD_SPECIAL.has(this.src[end] as string)) end++;
        parts.push({ kind: 'lit', text: this.src.slice(this.pos, end), quoted: false });
        this.pos = end;
      }
    }
    if (this.pos === start) return null;
    return { parts, raw: this.src.slice(start, this.pos), escaped: state.escaped };
  }

  /** The substitutions in an unquoted heredoc body (they run when the heredoc is read). */
  protected expansionsIn(body: string): Script[] {
    if (!body.includes('$') && !body.includes('`')) return [];
    const reader = new (this.constructor as new (s: string, b: Budget, n: boolean) => WordReader)(
      body,
      this.budget,
      true,
    );
    const parts: WordPart[] = [];
    reader.readDouble(parts, true);
    return collectSubs(parts);
  }

  private readSingle(parts: WordPart[]): void {
    const end = this.src.indexOf("'", this.pos + 1);
    if (end < 0) {
      this.budget.soft.push('unterminated single quote');
      parts.push({ kind: 'lit', text: this.src.slice(this.pos + 1), quoted: true });
      this.pos = this.src.length;
      return;
    }
    parts.push({ kind: 'lit', text: this.src.slice(this.pos + 1, end), quoted: true });
    this.pos = end + 1;
  }

  /** A double-quoted string at the cursor; with `toEnd`, the whole remaining text (a heredoc body). */
  protected readDouble(parts: WordPart[], toEnd: boolean): void {
    if (!toEnd) this.pos++;
    let buf = '';
    const flush = () => {
      if (buf !== '') parts.push({ kind: 'lit', text: buf, quoted: true });
      buf = '';
    };
    const state = { escaped: false };
    for (;;) {
      tick(this.budget);
      const c = this.src[this.pos];
      if (c === undefined) {
        if (!toEnd) this.budget.soft.push('unterminated double quote');
        break;
      }
      if (c === '"' && !toEnd) {
        this.pos++;
        break;
      }
      if (c === '\\') {
        const next = this.src[this.pos + 1];
        if (next === '\n') this.pos += 2;
        else if (next === '$' || next === '`' || next === '\\' || (next === '"' && !toEnd)) {
          buf += next;
          this.pos += 2;
        } else {
          buf += '\\';
          this.pos++;
        }
      } else if (c === '$') {
        flush();
        this.readDollar(parts, true, state);
      } else if (c === '`') {
        flush();
        this.readBacktick(parts, true);
      } else {
        buf += c;
        this.pos++;
      }
    }
    flush();
  }

  private readDollar(parts: WordPart[], quoted: boolean, state: { escaped: boolean }): void {
    const start = this.pos;
    // A line continuation after `$` is removed before the shell looks at what follows
    // (`$\⏎(cmd)` is `$(cmd)`): read on from the last one, as if the `$` stood there.
    let after = this.pos + 1;
    while (this.src[after] === '\\' && this.src[after + 1] === '\n') after += 2;
    if (after > this.pos + 1 && /[('"{[A-Za-z_0-9@*#?$!-]/.test(this.src[after] ?? '')) this.pos = after - 1;
    const next = this.src[this.pos + 1];
    if (next === "'" && !quoted) {
      this.pos += 2;
      const { text, escaped } = this.readAnsiC();
      if (escaped) state.escaped = true;
      parts.push({ kind: 'lit', text, quoted: true });
    } else if (next === '"' && !quoted) {
      this.pos++;
      this.readDouble(parts, false);
    } else if (next === '(') {
      if (this.src[this.pos + 2] === '(' && this.readArith(parts, quoted)) return;
      this.pos += 2;
      const script = this.parseNested();
      parts.push({ kind: 'sub', script, src: this.src.slice(start, this.pos), quoted, proc: false });
    } else if (next === '{' && FUNSUB_START.test(this.src[this.pos + 2] ?? '')) {
      // bash 5.3's `${ list; }` and `${| list; }` run the list in this shell: a command substitution.
      this.pos += this.src[this.pos + 2] === '|' ? 3 : 2;
      const script = this.parseFunsub();
      parts.push({ kind: 'sub', script, src: this.src.slice(start, this.pos), quoted, proc: false });
    } else if (next === '{') {
      this.readBraceParam(parts, quoted);
    } else if (next === '[') {
      this.readBracketArith(parts, quoted);
    } else if (next !== undefined && /[A-Za-z_]/.test(next)) {
      const name = (NAME.exec(this.src.slice(this.pos + 1, this.pos + 257)) as RegExpExecArray)[0];
      this.pos += 1 + name.length;
      parts.push({ kind: 'param', name, src: `$${name}`, quoted, subs: [] });
    } else if (next !== undefined && /[=~^]/.test(next) && /[A-Za-z_]/.test(this.src[this.pos + 2] ?? '')) {
      // zsh's `$=name` (split), `$~name` (glob) and `$^name`: an expansion, never literal text.
      const name = (NAME.exec(this.src.slice(this.pos + 2, this.pos + 258)) as RegExpExecArray)[0];
      this.pos += 2 + name.length;
      parts.push({ kind: 'param', name: '', src: this.src.slice(start, this.pos), quoted, subs: [] });
    } else if (next !== undefined && /[0-9@*#?$!-]/.test(next)) {
      this.pos += 2;
      parts.push({ kind: 'param', name: next, src: `$${next}`, quoted, subs: [] });
    } else {
      this.pos++;
      parts.push({ kind: 'lit', text: '$', quoted });
    }
  }

  /** `$((…))`; returns false (cursor unmoved) when it turns out to be `$( (…) )`. */
  private readArith(parts: WordPart[], quoted: boolean): boolean {
    const start = this.pos;
    this.pos += 3;
    const inner = this.readArithBody('(', 'unclosed $((');
    if (inner === null) {
      this.pos = start;
      return false;
    }
    parts.push({ kind: 'arith', src: this.src.slice(start, this.pos), subs: collectSubs(inner), quoted });
    return true;
  }

  /** bash's old `$[ expression ]` arithmetic: read as `$(( ))` is. */
  private readBracketArith(parts: WordPart[], quoted: boolean): void {
    const start = this.pos;
    this.pos += 2;
    const inner = this.readArithBody('[', 'unclosed $[') as WordPart[];
    parts.push({ kind: 'arith', src: this.src.slice(start, this.pos), subs: collectSubs(inner), quoted });
  }

  /**
   * An arithmetic expression up to its close (`))` after `$((`, `]` after `$[`), cursor after the
   * opener: its parts, with the cursor past the close. Null when a `)` closes alone (`$( (…) )`).
   */
  private readArithBody(open: '(' | '[', unclosed: string): WordPart[] | null {
    const close = open === '(' ? ')' : ']';
    const inner: WordPart[] = [];
    const state = { escaped: false };
    let depth = 0;
    for (;;) {
      tick(this.budget);
      const c = this.src[this.pos];
      if (c === undefined) throw new ShellSyntaxError(unclosed);
      if (c === open) depth++;
      else if (c === close) {
        if (depth === 0) {
          if (open === '(' && this.src[this.pos + 1] !== ')') return null;
          this.pos += open === '(' ? 2 : 1;
          return inner;
        }
        depth--;
      } else if (c === '$') {
        this.readDollar(inner, true, state);
        continue;
      } else if (c === '`') {
        this.readBacktick(inner, true);
        continue;
      } else if (c === '"') {
        this.readDouble(inner, false);
        continue;
      }
      // A single quote does not quote in arithmetic: bash expands `$(( '$(cmd)' ))` and runs cmd.
      this.pos++;
    }
  }

  private readBraceParam(parts: WordPart[], quoted: boolean): void {
    const start = this.pos;
    this.pos += 2;
    const inner: WordPart[] = [];
    const state = { escaped: false };
    let depth = 1;
    for (;;) {
      tick(this.budget);
      const c = this.src[this.pos];
      if (c === undefined) throw new ShellSyntaxError('unclosed ${');
      if (c === '}') {
        if (--depth === 0) {
          this.pos++;
          break;
        }
      } else if (c === '{') depth++;
      else if (c === '\\') this.pos++;
      else if (c === '$') {
        this.readDollar(inner, true, state);
        continue;
      } else if (c === '`') {
        this.readBacktick(inner, true);
        continue;
      } else if (c === "'" && !quoted && !inArithmetic(this.src.slice(start, this.pos))) {
        // Quotes quote in a default value (`${x:-'…'}`), not in a subscript or a substring's offset
        // (`${a['$(…)']@Q}`, `${@:'…'}`): bash evaluates those as arithmetic, and their `$(…)` runs.
        this.readSingle(inner);
        continue;
      } else if (c === '"') {
        this.readDouble(inner, false);
        continue;
      }
      this.pos++;
    }
    const src = this.src.slice(start, this.pos);
    const name = /^\$\{[#!]?([A-Za-z_]\w*|\d+|[@*#?$!-])/.exec(src)?.[1] ?? '';
    parts.push({ kind: 'param', name, src, quoted, subs: collectSubs(inner) });
  }

  private readBacktick(parts: WordPart[], quoted: boolean): void {
    const start = this.pos;
    this.pos++;
    let buf = '';
    for (;;) {
      tick(this.budget);
      const c = this.src[this.pos];
      if (c === undefined) {
        this.budget.soft.push('unterminated backquote');
        break;
      }
      if (c === '`') {
        this.pos++;
        break;
      }
      if (c === '\\') {
        const next = this.src[this.pos + 1];
        if (next === '`' || next === '$' || next === '\\' || (quoted && next === '"')) {
          buf += next;
          this.pos += 2;
          continue;
        }
      }
      buf += c;
      this.pos++;
    }
    const script = this.parseSubscript(buf);
    parts.push({ kind: 'sub', script, src: this.src.slice(start, this.pos), quoted, proc: false });
  }

  /** The body of `$'…'` with its escapes decoded; the cursor is after the opening quote. */
  private readAnsiC(): { text: string; escaped: boolean } {
    let text = '';
    let escaped = false;
    for (;;) {
      const c = this.src[this.pos];
      if (c === undefined) {
        this.budget.soft.push("unterminated $' string");
        break;
      }
      this.pos++;
      if (c === "'") break;
      if (c !== '\\') {
        text += c;
        continue;
      }
      escaped = true;
      const e = this.src[this.pos++] ?? '';
      const simple: Record<string, string> = {
        n: '\n',
        t: '\t',
        r: '\r',
        a: '\x07',
        b: '\b',
        e: '\x1b',
        E: '\x1b',
        f: '\f',
        v: '\v',
      };
      if (simple[e] !== undefined) text += simple[e];
      else if (e === 'x' || e === 'u' || e === 'U') {
        const max = e === 'x' ? 2 : e === 'u' ? 4 : 8;
        const m = new RegExp(`^[0-9a-fA-F]{1,${max}}`).exec(this.src.slice(this.pos, this.pos + max));
        if (!m) text += `\\${e}`;
        else {
          this.pos += m[0].length;
          const code = Number.parseInt(m[0], 16);
          text +=
            code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '\uFFFD';
        }
      } else if (e >= '0' && e <= '7') {
        const m = /^[0-7]{0,2}/.exec(this.src.slice(this.pos, this.pos + 2)) as RegExpExecArray;
        this.pos += m[0].length;
        text += String.fromCharCode(Number.parseInt(e + m[0], 8) & 0xff);
      } else if (e === 'c') {
        text += String.fromCharCode((this.src.charCodeAt(this.pos++) || 64) & 31);
      } else text += e;
    }
    // bash ends the string at a NUL (`$'--hard\0x'` is --hard); no word can carry one anyway.
    const nul = text.indexOf('\0');
    return { text: nul < 0 ? text : text.slice(0, nul), escaped };
  }
}

function collectSubs(parts: WordPart[]): Script[] {
  const subs: Script[] = [];
  for (const part of parts) {
    if (part.kind === 'sub') subs.push(part.script);
    else if (part.kind === 'arith' || part.kind === 'param') subs.push(...part.subs);
  }
  return subs;
}
