// A recursive-descent parser for the POSIX shell / bash command language, reduced to what fact
// extraction needs: lists, and-or lists, pipelines, simple commands (assignments, words,
// redirections, heredocs), subshells, substitutions and the compound keywords. Grammar:
//
//   list      := and_or ((';' | '&' | NEWLINE) and_or)*
//   and_or    := pipeline (('&&' | '||') NEWLINE* pipeline)*
//   pipeline  := ['!'] command (('|' | '|&') NEWLINE* command)*
//   command   := '(' list ')' | '((' arith '))' | keyword-construct | simple
//   simple    := (assignment | redirect)* (word | redirect)*
//
// Compound commands (`{ … }`, `if … fi`, `while|until … do … done`, `for|select … do … done`,
// `case … esac`) are read as one command holding its lists: a pipe into `while read l; do sh;
// done` or a redirection after `done` reaches every command inside. Reading stays lenient: the
// end of input closes an open construct, and a stray keyword (`fi` with no `if`) is skipped.
// `case` patterns, `for` word lists and `[[ … ]]` are read as words (they run nothing, but
// substitutions inside them do).
import type { Command, Pipeline, Redirect, Script, SimpleCommand, Word } from './ast.js';
import { countCommand, enter, LimitExceeded, leave, ShellSyntaxError, tick } from './budget.js';
import { WordReader } from './word.js';

const TRANSPARENT = new Set([
  '{',
  '}',
  'if',
  'then',
  'elif',
  'else',
  'fi',
  'do',
  'done',
  'while',
  'until',
  '!',
]);
/** Reserved words that open a compound command the parser reads itself (see parseCommand). */
const COMPOUND_STARTS = new Set(['for', 'select', 'case', 'function', 'coproc', '[[']);
/** The reserved words that close or divide the lists of a construct. */
const GROUP_END = new Set(['}']);
const IF_PARTS = new Set(['then', 'elif', 'else', 'fi']);
const LOOP_BODY = new Set(['do']);
const LOOP_END = new Set(['done']);
const REDIRECT_OPS = ['&>>', '&>', '<<<', '<<-', '<<', '<>', '<&', '<', '>>', '>|', '>&', '>'];
const ASSIGNMENT = /^[A-Za-z0-9_]+(\[[^\]]*\])?\+?=/;
const DECLARATIONS = new Set(['declare', 'typeset', 'local', 'export', 'readonly']);

interface PendingHeredoc {
  redirect: Redirect;
  delim: string;
  strip: boolean;
  quoted: boolean;
}

export class Parser extends WordReader {
  private pending: PendingHeredoc[] = [];

  /** Parse the whole input as a script. */
  parseScript(): Script {
    const script = this.parseList(false);
    if (this.pos < this.src.length) throw new ShellSyntaxError(`unexpected '${this.src[this.pos]}'`);
    if (this.pending.length > 0) this.readHeredocs();
    return script;
  }

  /** `$(...)`, `<(...)`, `>(...)`: a list closed by `)`. */
  protected override parseNested(): Script {
    enter(this.budget);
    this.subDepth++;
    const script = this.parseList(true);
    if (this.src[this.pos] !== ')') throw new ShellSyntaxError('unclosed command substitution');
    this.pos++;
    this.subDepth--;
    leave(this.budget);
    return script;
  }

  /** `${ list; }` / `${| list; }`: a list closed by the reserved word `}`. */
  protected override parseFunsub(): Script {
    enter(this.budget);
    this.subDepth++;
    const script = this.parseList(true, false, GROUP_END);
    if (this.peekBare() !== '}') throw new ShellSyntaxError('unclosed ${ command substitution');
    this.pos++;
    this.subDepth--;
    leave(this.budget);
    return script;
  }

  protected override parseSubscript(text: string): Script {
    enter(this.budget);
    const script = new Parser(text, this.budget, true).parseScript();
    leave(this.budget);
    return script;
  }

  /** `stops`: reserved words that end the list in command position (the construct's own). */
  private parseList(inParens: boolean, caseItem = false, stops?: ReadonlySet<string>): Script {
    const pipelines: Pipeline[] = [];
    for (;;) {
      tick(this.budget);
      this.skipSeparators(caseItem);
      if (this.pos >= this.src.length) break;
      const c = this.src[this.pos];
      if (c === ')') {
        if (inParens || caseItem) break;
        throw new ShellSyntaxError("unexpected ')'");
      }
      if (caseItem && (this.src.startsWith(';;', this.pos) || this.src.startsWith(';&', this.pos))) break;
      if (caseItem && this.peekBare() === 'esac') break;
      if (stops?.has(this.peekBare() ?? '')) break;
      const before = this.pos;
      this.parseAndOr(pipelines);
      if (this.pos === before) throw new ShellSyntaxError(`unexpected '${c}'`);
    }
    return { pipelines };
  }

  /** Blanks, comments, newlines (reading pending heredocs), `;`, `&`, and stray operators. */
  private skipSeparators(caseItem: boolean): void {
    for (;;) {
      this.skipBlanks();
      const c = this.src[this.pos];
      if (c === '\n') {
        this.pos++;
        this.readHeredocs();
      } else if (c === ';') {
        if (caseItem && (this.src[this.pos + 1] === ';' || this.src[this.pos + 1] === '&')) return;
        this.pos++;
      } else if (c === '&' || c === '|') {
        // A list cannot start with an operator; a shell would reject it, we read on (leniently).
        this.pos++;
      } else return;
    }
  }

  private parseAndOr(out: Pipeline[]): void {
    let joined: '&&' | '||' | undefined;
    const first = out.length;
    for (;;) {
      const pipeline = this.parsePipeline();
      if (joined !== undefined) pipeline.joined = joined;
      out.push(pipeline);
      this.skipBlanks();
      if (this.src.startsWith('&&', this.pos) || this.src.startsWith('||', this.pos)) {
        joined = this.src.startsWith('&&', this.pos) ? '&&' : '||';
        this.pos += 2;
        this.skipNewlines();
        continue;
      }
      // `list &`: the whole and-or list runs in the background.
      if (this.src[this.pos] === '&' && this.src[this.pos + 1] !== '&' && this.src[this.pos + 1] !== '>')
        for (let k = first; k < out.length; k++) (out[k] as Pipeline).background = true;
      return;
    }
  }

  private parsePipeline(): Pipeline {
    const commands: Command[] = [];
    const stderrPiped: number[] = [];
    this.skipBlanks();
    const negated = this.peekBare() === '!';
    const coproc = this.peekBare() === 'coproc';
    for (;;) {
      const command = this.parseCommand();
      if (command) commands.push(command);
      this.skipBlanks();
      const c = this.src[this.pos];
      if (c === '|' && this.src[this.pos + 1] !== '|') {
        if (this.src[this.pos + 1] === '&') stderrPiped.push(commands.length - 1);
        this.pos += this.src[this.pos + 1] === '&' ? 2 : 1;
        this.skipNewlines();
        continue;
      }
      const pipeline: Pipeline = negated ? { commands, negated } : { commands };
      if (stderrPiped.length > 0) pipeline.stderrPiped = stderrPiped;
      if (coproc) pipeline.background = true;
      return pipeline;
    }
  }

  private skipNewlines(): void {
    for (;;) {
      this.skipBlanks();
      if (this.src[this.pos] !== '\n') return;
      this.pos++;
      this.readHeredocs();
    }
  }

  private parseCommand(): Command | null {
    tick(this.budget);
    this.skipBlanks();
    const start = this.pos;
    const c = this.src[this.pos];
    if (c === undefined) return null;
    if (c === '(') {
      if (this.src[this.pos + 1] === '(') {
        const arith = this.tryArithCommand(start);
        if (arith) return arith;
      }
      this.pos++;
      const body = this.parseNested();
      return this.compound('subshell', [body], [], start);
    }
    const bare = this.peekBare();
    if (bare !== null) {
      if (bare === '{' || bare === 'if' || bare === 'while' || bare === 'until')
        return this.parseConstruct(start, bare);
      if (TRANSPARENT.has(bare)) {
        this.pos += bare.length;
        return this.parseCommand();
      }
      if (bare === 'time') {
        const timed = this.parseTimed(start);
        if (timed !== undefined) return timed;
      }
      if (bare === 'for' || bare === 'select') return this.parseFor(start, bare);
      if (bare === 'case') return this.parseCase(start);
      if (bare === 'function' || bare === 'coproc') {
        this.pos += bare.length;
        this.skipBlanks();
        if (bare === 'function') {
          const name = this.readWord()?.raw;
          this.skipBlanks();
          if (this.src.startsWith('()', this.pos)) this.pos += 2;
          if (name !== undefined) return this.functionBody(start, name);
        }
        return this.parseCommand();
      }
      if (bare === '[[') return this.parseTest(start);
    }
    return this.parseSimple(start);
  }

  /**
   * Bash's reserved word `time [-p] pipeline` before what a prefix cannot carry: a compound command
   * (`time if …; then …; fi`, `time ( … )`) or a simple one starting with assignments (`time
   * LD_PRELOAD=/x.so git` runs git with it), or another `time` (a keyword again there) — found by
   * test/fuzz/shell.test.ts. Those are parsed as
   * the command itself. Otherwise (`time git …`, `time -f FMT cmd`) undefined, cursor unmoved: the
   * simple command is read with `time` as its prefix, as before.
   */
  private parseTimed(start: number): Command | null | undefined {
    this.pos += 'time'.length;
    this.skipBlanks();
    for (const flag of ['-p', '--']) {
      if (this.peekBare() !== flag) continue;
      this.pos += flag.length;
      this.skipBlanks();
    }
    const word = this.peekBare();
    const compound =
      this.src[this.pos] === '(' ||
      (word !== null &&
        (TRANSPARENT.has(word) || COMPOUND_STARTS.has(word) || word === 'time' || ASSIGNMENT.test(word)));
    if (compound) return this.parseCommand();
    this.pos = start;
    return undefined;
  }

  /** `(( … ))` in command position: arithmetic in bash, but two nested subshells in POSIX sh. */
  private tryArithCommand(start: number): Command | null {
    const end = this.matchDoubleParen(this.pos + 2);
    if (end < 0) return null;
    const inner = this.src.slice(this.pos + 2, end);
    this.pos = end + 2;
    const depth = this.budget.depth;
    let body: Script[] = [];
    try {
      body = [this.parseSubscript(inner)];
    } catch (error) {
      if (error instanceof LimitExceeded) throw error;
      this.budget.depth = depth;
    }
    const command = this.compound('arith', body, [], start);
    if (command.type === 'compound') command.arith = inner;
    return command;
  }

  private parseFor(start: number, keyword: string): Command {
    this.pos += keyword.length;
    this.skipBlanks();
    if (this.src.startsWith('((', this.pos)) {
      const end = this.matchDoubleParen(this.pos + 2);
      if (end < 0) throw new ShellSyntaxError('unclosed (( in for');
      // The arithmetic runs nothing, but substitutions inside it do.
      const inner = this.src.slice(this.pos + 2, end);
      const subs = this.expansionsIn(inner);
      this.pos = end + 2;
      const loop = this.compound('words', [...subs, ...this.loopBody()], [], start);
      if (loop.type === 'compound') {
        loop.repeats = true;
        loop.arith = inner;
      }
      return loop;
    }
    const words: Word[] = [];
    const name = this.readWord()?.raw;
    this.skipNewlines();
    if (this.peekBare() === 'in') {
      this.pos += 2;
      for (;;) {
        this.skipBlanks();
        const c = this.src[this.pos];
        if (c === undefined || c === ';' || c === '\n' || c === '&' || c === ')') break;
        const word = this.readWord();
        if (!word) break;
        words.push(word);
      }
    }
    const loop = this.compound('words', this.loopBody(), words, start);
    if (loop.type === 'compound') {
      loop.repeats = true;
      if (name !== undefined) loop.assigns = name;
    }
    return loop;
  }

  /**
   * `{ list }`, `if list then list [elif list then list]… [else list] fi`, `while|until list do
   * list done`, cursor at the keyword: one command whose lists share its stdin and redirections.
   */
  private parseConstruct(start: number, keyword: string): Command {
    enter(this.budget);
    this.pos += keyword.length;
    const body: Script[] = [];
    if (keyword === '{') body.push(this.groupList());
    else if (keyword === 'if') {
      for (;;) {
        body.push(this.parseList(true, false, IF_PARTS));
        const part = this.peekBare();
        if (part === null || !IF_PARTS.has(part)) break;
        this.pos += part.length;
        if (part === 'fi') break;
      }
    } else {
      body.push(this.parseList(true, false, LOOP_BODY));
      body.push(...this.loopBody());
    }
    leave(this.budget);
    const construct = this.compound('words', body, [], start);
    if (construct.type === 'compound' && (keyword === 'while' || keyword === 'until'))
      construct.repeats = true;
    return construct;
  }

  /** A loop's `do list done` (or `{ list }`), after its head; none when the head is not followed by one. */
  private loopBody(): Script[] {
    this.skipSeparators(false);
    const keyword = this.peekBare();
    if (keyword === '{') {
      this.pos++;
      enter(this.budget);
      const body = this.groupList();
      leave(this.budget);
      return [body];
    }
    if (keyword !== 'do') return [];
    this.pos += 2;
    enter(this.budget);
    const body = this.parseList(true, false, LOOP_END);
    this.consumeKeyword('done');
    leave(this.budget);
    return [body];
  }

  /**
   * A function definition's body, cursor after `NAME()` or `function NAME`: the command that runs at
   * each call (with the caller's stdin), walked where it is defined as well.
   */
  private functionBody(start: number, name: string): Command {
    this.skipNewlines();
    const body = this.parseCommand();
    const script: Script = { pipelines: body ? [{ commands: [body] }] : [] };
    return {
      type: 'compound',
      kind: 'words',
      body: [script],
      words: [],
      redirects: [],
      text: this.src.slice(start, this.pos).trim(),
      defines: name,
    };
  }

  /** The list of a `{ … }` group, cursor after `{`; the closing `}` is consumed. */
  private groupList(): Script {
    const list = this.parseList(true, false, GROUP_END);
    this.consumeKeyword('}');
    return list;
  }

  private consumeKeyword(word: string): void {
    if (this.peekBare() === word) this.pos += word.length;
  }

  private parseCase(start: number): Command {
    this.pos += 4;
    this.skipBlanks();
    const words: Word[] = [];
    const subject = this.readWord();
    if (subject) words.push(subject);
    this.skipNewlines();
    if (this.peekBare() !== 'in') throw new ShellSyntaxError("expected 'in' after case");
    this.pos += 2;
    const body: Script[] = [];
    for (;;) {
      tick(this.budget);
      this.skipNewlines();
      if (this.pos >= this.src.length) break;
      if (this.peekBare() === 'esac') {
        this.pos += 4;
        break;
      }
      if (this.src[this.pos] === '(') this.pos++;
      for (;;) {
        this.skipBlanks();
        const pattern = this.readWord();
        if (pattern) words.push(pattern);
        this.skipBlanks();
        if (this.src[this.pos] === '|') this.pos++;
        else break;
      }
      if (this.src[this.pos] !== ')') throw new ShellSyntaxError("expected ')' after case pattern");
      this.pos++;
      body.push(this.parseList(false, true));
      for (const op of [';;&', ';;', ';&']) {
        if (this.src.startsWith(op, this.pos)) {
          this.pos += op.length;
          break;
        }
      }
    }
    return this.compound('words', body, words, start);
  }

  /** `[[ … ]]`: a conditional expression; its words run nothing but may hold substitutions. */
  private parseTest(start: number): Command {
    this.pos += 2;
    const words: Word[] = [];
    for (;;) {
      this.skipBlanks();
      if (this.pos >= this.src.length || this.src[this.pos] === '\n') break;
      if (this.peekBare() === ']]') {
        this.pos += 2;
        break;
      }
      const word = this.readWord();
      if (word) words.push(word);
      else this.pos++; // operators such as `&&`, `<`, `(` inside the test
    }
    return this.compound('words', [], words, start);
  }

  private parseSimple(start: number): Command | null {
    const assigns: Word[] = [];
    const words: Word[] = [];
    const redirects: Redirect[] = [];
    for (;;) {
      tick(this.budget);
      this.skipBlanks();
      const c = this.src[this.pos];
      if (c === undefined || c === '\n' || c === ';' || c === '&' || c === '|' || c === ')') {
        if (c === '&' && this.src[this.pos + 1] === '>') {
          redirects.push(this.readRedirect(this.redirectAt()));
          continue;
        }
        break;
      }
      // After `\r` (a character of the word before it, for bash) a `#` starts no comment.
      if (c === '#' && this.src[this.pos - 1] !== '\r') {
        this.skipComment();
        continue;
      }
      if (c === '(') {
        if (words.length === 1 && /^\(\s*\)/.test(this.src.slice(this.pos, this.pos + 16))) {
          this.pos = this.src.indexOf(')', this.pos) + 1;
          return this.functionBody(start, (words[0] as Word).raw);
        }
        throw new ShellSyntaxError("unexpected '('");
      }
      const redirectLength = this.redirectAt();
      if (redirectLength > 0) {
        redirects.push(this.readRedirect(redirectLength));
        continue;
      }
      const word = this.readWord();
      if (!word) throw new ShellSyntaxError(`unexpected '${c}'`);
      if (words.length === 0 && isAssignment(word)) {
        assigns.push(word);
        if (word.raw.endsWith('=') && this.src[this.pos] === '(') word.array = this.readArray();
      } else {
        // `declare -a a=( … )`: declaration builtins take array assignments as arguments.
        if (this.src[this.pos] === '(' && isAssignment(word) && DECLARATIONS.has(words[0]?.raw ?? '')) {
          word.array = this.readArray();
        }
        words.push(word);
      }
    }
    if (assigns.length === 0 && words.length === 0 && redirects.length === 0) return null;
    countCommand(this.budget);
    const command: SimpleCommand = {
      type: 'simple',
      assigns,
      words,
      redirects,
      text: this.src.slice(start, this.pos).trim(),
    };
    return command;
  }

  /** Length of the fd prefix + operator of a redirection at the cursor, or 0. */
  private redirectAt(): number {
    let p = this.pos;
    while (p < this.src.length && this.src.charCodeAt(p) >= 48 && this.src.charCodeAt(p) <= 57) p++;
    if (p === this.pos && this.src[p] === '{') {
      const m = /^\{[A-Za-z_]\w*\}(?=[<>])/.exec(this.src.slice(p, p + 64));
      if (m) p += m[0].length;
    }
    const c = this.src[p];
    if (c !== '<' && c !== '>' && !(c === '&' && p === this.pos)) return 0;
    if ((c === '<' || c === '>') && this.src[p + 1] === '(' && p === this.pos) return 0;
    for (const op of REDIRECT_OPS) {
      if (this.src.startsWith(op, p)) return p - this.pos + op.length;
    }
    return 0;
  }

  private readRedirect(length: number): Redirect {
    const written = this.src.slice(this.pos, this.pos + length);
    const op = written.replace(/^(\d+|\{\w+\})/, '');
    const fdText = /^\d+/.exec(written);
    const fdName = /^\{(\w+)\}/.exec(written);
    this.pos += length;
    this.skipBlanks();
    const target = this.readWord();
    if (!target) throw new ShellSyntaxError(`redirection '${op}' without a target`);
    const redirect: Redirect = { op, target };
    if (fdText) redirect.fd = Number(fdText[0]);
    if (fdName) redirect.fdName = fdName[1] as string;
    if (op === '<<' || op === '<<-') {
      const quoted = target.parts.some((part) => part.kind === 'lit' && part.quoted);
      let delim = target.parts.map((part) => (part.kind === 'lit' ? part.text : part.src)).join('');
      // The parser reads `\r` as a blank; bash reads it as part of the word, so the delimiter runs
      // on to the next blank or operator (`EOF\r`, `E\rOF`).
      if (this.src[this.pos] === '\r') {
        const end = this.src.slice(this.pos).search(/[ \t\n;&|()<>]/);
        const stop = end < 0 ? this.src.length : this.pos + end;
        delim += this.src.slice(this.pos, stop);
        this.pos = stop;
      }
      this.pending.push({ redirect, delim, strip: op === '<<-', quoted });
    }
    return redirect;
  }

  /** Read the bodies of the heredocs started on the line just ended. */
  private readHeredocs(): void {
    const pending = this.pending;
    if (pending.length === 0) return;
    this.pending = [];
    for (const doc of pending) {
      let body = '';
      for (;;) {
        tick(this.budget);
        if (this.pos >= this.src.length) {
          // bash ends a top-level heredoc at the end of input (with a warning) and runs the command
          // with the body read so far; inside a substitution or nested string the reading is less sure.
          if (this.subDepth > 0 || this.nested)
            this.budget.soft.push(`heredoc '${doc.delim.slice(0, 40)}' not terminated`);
          break;
        }
        let eol = this.src.indexOf('\n', this.pos);
        // In an unquoted body bash joins a line ending in `\` with the next before it compares the
        // line with the delimiter: `EO\⏎F` ends the body.
        while (!doc.quoted && eol >= 0 && /(^|[^\\])(\\\\)*\\$/.test(this.src.slice(this.pos, eol)))
          eol = this.src.indexOf('\n', eol + 1);
        const lineEnd = eol < 0 ? this.src.length : eol;
        const line = this.src.slice(this.pos, lineEnd);
        const joined = doc.quoted ? line : line.replace(/\\\n/g, '');
        const cmp = doc.strip ? joined.replace(/^\t+/, '') : joined;
        // bash ends the body only at a line that is the delimiter exactly (its `\r`s included).
        if (cmp === doc.delim) {
          this.pos = lineEnd + 1;
          break;
        }
        if (
          (this.subDepth > 0 || this.nested) &&
          cmp.startsWith(doc.delim) &&
          /^\s*\)/.test(cmp.slice(doc.delim.length))
        ) {
          this.pos += line.length - cmp.length + doc.delim.length;
          break;
        }
        body += `${cmp}\n`;
        this.pos = Math.min(lineEnd + 1, this.src.length);
      }
      // An unquoted body is read as a double-quoted string is: a backslash-newline joins lines
      // first (`$\⏎(cmd)` is a substitution).
      const text = doc.quoted ? body : joinContinuedLines(body);
      doc.redirect.heredoc = {
        body: text,
        quoted: doc.quoted,
        subs: doc.quoted ? [] : this.expansionsIn(text),
      };
    }
  }

  private compound(
    kind: 'subshell' | 'arith' | 'words',
    body: Script[],
    words: Word[],
    start: number,
  ): Command {
    const redirects: Redirect[] = [];
    for (;;) {
      this.skipBlanks();
      const length = this.redirectAt();
      if (length === 0) break;
      redirects.push(this.readRedirect(length));
    }
    return { type: 'compound', kind, body, words, redirects, text: this.src.slice(start, this.pos).trim() };
  }

  /** Index of the `))` closing a `((` whose body starts at `from`, or -1. */
  private matchDoubleParen(from: number): number {
    let depth = 0;
    for (let p = from; p < this.src.length; p++) {
      const c = this.src[p];
      if (c === '(') depth++;
      else if (c === ')') {
        if (depth === 0) return this.src[p + 1] === ')' ? p : -1;
        depth--;
      } else if (c === '\n') return -1;
    }
    return -1;
  }

  /** The element words of `name=( … )`, cursor at `(`. */
  private readArray(): Word[] {
    const words: Word[] = [];
    this.pos++;
    for (;;) {
      this.skipBlanks();
      const c = this.src[this.pos];
      if (c === undefined) throw new ShellSyntaxError('unclosed array assignment');
      if (c === ')') {
        this.pos++;
        return words;
      }
      if (c === '\n') {
        this.pos++;
        continue;
      }
      const word = this.readWord();
      if (word) words.push(word);
      else this.pos++;
    }
  }
}

/** Remove each backslash-newline pair (a backslash escaping a backslash is kept, with what follows). */
function joinContinuedLines(text: string): string {
  if (!text.includes('\\\n')) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '\\' && text[i + 1] === '\n') i++;
    else if (c === '\\') {
      out += c + (text[i + 1] ?? '');
      i++;
    } else out += c;
  }
  return out;
}

function isAssignment(word: Word): boolean {
  const first = word.parts[0];
  return first?.kind === 'lit' && !first.quoted && ASSIGNMENT.test(first.text);
}
