// The syntax tree the parser produces: only what fact extraction needs (words with their
// expansions, redirections, heredocs, and the nesting of lists, pipelines and substitutions).

export type WordPart =
  /** Literal text; `quoted` when it came from quotes or a backslash escape. */
  | { kind: 'lit'; text: string; quoted: boolean }
  /** A parameter expansion: `$x`, `${x:-y}`, `$1`, `$@`. */
  | { kind: 'param'; name: string; src: string; quoted: boolean; subs: Script[] }
  /** A command or process substitution: `$(...)`, backticks, `<(...)`, `>(...)`. */
  | { kind: 'sub'; script: Script; src: string; quoted: boolean; proc: boolean }
  /** An arithmetic expansion `$((...))`, with the substitutions found inside it. */
  | { kind: 'arith'; src: string; subs: Script[]; quoted: boolean };

export interface Word {
  parts: WordPart[];
  /** Source text of the word. */
  raw: string;
  /** An ANSI-C quoted string (`$'...'`) with an escape sequence contributed to the word. */
  escaped: boolean;
  /** For an assignment `name=( … )`: the array's element words (their substitutions run). */
  array?: Word[];
}

export interface Heredoc {
  body: string;
  /** The delimiter was quoted: the body is taken literally. */
  quoted: boolean;
  /** Substitutions found in an unquoted body (they run). */
  subs: Script[];
}

export interface Redirect {
  op: string;
  fd?: number;
  /** `{NAME}>file`: the shell puts the new descriptor's number in NAME. */
  fdName?: string;
  target?: Word;
  heredoc?: Heredoc;
}

export interface SimpleCommand {
  type: 'simple';
  assigns: Word[];
  words: Word[];
  redirects: Redirect[];
  text: string;
}

export interface CompoundCommand {
  type: 'compound';
  kind: 'subshell' | 'arith' | 'words';
  /** Lists nested in the compound command (a subshell's body; `((...))` read as commands). */
  body: Script[];
  /** Words of the construct that are not commands but can hold substitutions (`for x in ...`, `case w`). */
  words: Word[];
  redirects: Redirect[];
  text: string;
  /** The variable a `for`/`select` loop assigns. */
  assigns?: string;
  /** A function definition (`f() { … }`, `function f { … }`): its name; `body` holds its one command. */
  defines?: string;
  /** A loop (`for`, `select`, `while`, `until`): its body may run again after what follows it in the text. */
  repeats?: boolean;
  /** `(( EXPR ))` and `for (( EXPR; EXPR; EXPR ))`: the text bash evaluates as arithmetic. */
  arith?: string;
}

export type Command = SimpleCommand | CompoundCommand;

export interface Pipeline {
  commands: Command[];
  /** The operator before it in its and-or list (`a && b`: b's is `&&`); absent for the first. */
  joined?: '&&' | '||';
  /** `! pipeline`: its status is negated. */
  negated?: boolean;
  /** Run in the background (`list &`, `coproc`): alongside what follows it, not before. */
  background?: boolean;
  /** `a |& b`: indices of the commands whose stderr goes down the pipe with their stdout. */
  stderrPiped?: number[];
}

export interface Script {
  pipelines: Pipeline[];
}
