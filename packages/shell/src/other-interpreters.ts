// Interpreters whose code the gate does not read (R, Tcl/expect, Julia, the Lisps, Erlang/Elixir,
// Haskell, Scala, Nushell, gdb, …). Inline code (`-e`, `--eval`, `-c`, …, per program, anywhere
// before `--`: an option's value may stand between) and code on stdin are unknown; a file they run
// is listed among the command's scripts, so one the session wrote is refused, and one the same
// command writes is a script written then run. gdb's commands are read: those that only run the
// program and read its state pass (gdb-commands.ts).
import type { Env } from './expand.js';
import type { Extractor, Invocation } from './extract.js';
import { gdbCommands } from './gdb-commands.js';
import { otherBase } from './programs.js';
import { noteRunFile } from './scripts.js';

interface Spec {
  /** Options whose value is code. */
  code: readonly string[];
  /**
   * getopt reads the options: a short code option may close a cluster or carry its value
   * (`-qie CODE`, `-e'CODE'`), a long one may be any unambiguous prefix (`--ev`).
   */
  getopt?: boolean;
  /** Options whose value is a file of code it loads. */
  files?: readonly string[];
  /** An operand in parentheses is an expression evaluated (babashka). */
  expression?: boolean;
  /** The first operand is the code (`stack eval CODE`, `crystal eval CODE`). */
  codeOperand?: boolean;
  /** Operands are the program's arguments, not files it runs (`kotlinc Main.kt` compiles). */
  operandsNotRun?: boolean;
  /** stdin is the program's data even when no file is named (`mix run` starts the application). */
  stdinIsData?: boolean;
}

const SPECS: Record<string, Spec> = {
  rscript: { code: ['-e'] },
  r: { code: ['-e'], files: ['-f', '--file'] },
  osascript: { getopt: true, code: ['-e'] },
  tclsh: { code: [] },
  wish: { code: [] },
  expect: { getopt: true, code: ['-c'], files: ['-f'] },
  julia: { getopt: true, code: ['-e', '-E', '--eval', '--print'], files: ['-L', '--load'] },
  groovy: { code: ['-e'] },
  guile: { getopt: true, code: ['-c'], files: ['-s', '-l'] },
  racket: {
    getopt: true,
    code: ['-e', '--eval'],
    files: ['-f', '--load', '-r', '--script', '-t', '--require'],
  },
  sbcl: { code: ['--eval'], files: ['--load', '--script'] },
  clisp: { code: ['-x'], files: ['-i'] },
  erl: { code: ['-eval', '-s', '-run'] },
  elixir: { code: ['-e', '--eval'], files: ['-r', '--require', '-pr'] },
  jshell: { code: [] },
  octave: { getopt: true, code: ['--eval'] },
  nu: { code: ['-c', '--commands'] },
  xonsh: { code: ['-c'] },
  elvish: { code: ['-c'] },
  bb: { code: ['-e', '--eval'], expression: true },
  clojure: { code: ['-e', '--eval'] },
  clj: { code: ['-e', '--eval'] },
  hy: { getopt: true, code: ['-c'] },
  ghc: { code: ['-e'] },
  runghc: { code: [] },
  runhaskell: { code: [] },
  scala: { code: ['-e'] },
  ghci: { code: ['-e'] },
  raku: { getopt: true, code: ['-e'] },
  rakudo: { getopt: true, code: ['-e'] },
  kotlin: { code: ['-e', '-expression'], files: ['-script'] },
  kotlinc: { code: ['-e', '-expression'], files: ['-script'], operandsNotRun: true },
  swift: { code: ['-e'] },
  ocaml: { code: [] },
  // Java's source launcher runs `X.java` itself; `-jar` a jar. stdin is the program's data.
  java: { code: [], files: ['-jar'], stdinIsData: true },
  // A playbook's tasks run commands; an executable inventory or vault password file is run.
  'ansible-playbook': {
    code: [],
    files: ['-i', '--inventory', '--vault-password-file', '--vault-pass-file'],
    stdinIsData: true,
  },
  // Toolchain subcommands (toolchain-runners.ts): argv[0] is the subcommand.
  'mix run': {
    code: ['-e', '--eval'],
    files: ['-r', '--require', '-pr', '--parallel-require'],
    stdinIsData: true,
  },
  'stack eval': { code: [], codeOperand: true },
  'crystal eval': { code: [], codeOperand: true },
  'crystal run': { code: [], stdinIsData: true },
  // The interpreter: a file, or code on stdin.
  'crystal i': { code: [] },
  'nim run': { code: [], stdinIsData: true },
  // `-exec CMD` runs the built program through CMD.
  'go run': { code: ['-exec'], stdinIsData: true },
  'cabal run': { code: [], stdinIsData: true },
  'zig run': { code: [], stdinIsData: true },
  'dotnet script': { code: [], files: ['-s', '--script'] },
  // The code (or a file of it) is the first operand.
  'rails runner': { code: [], codeOperand: true },
  'rails console': { code: [] },
  'django-admin shell': { code: ['-c', '--command'] },
  'flask shell': { code: [] },
};

/** At most this many operands are listed as files the interpreter may run. */
const MAX_FILES = 8;

export function otherInterpreter(ex: Extractor, inv: Invocation, env: Env, program: string): void {
  const base = otherBase(program);
  ex.emit(inv);
  if (base === 'gdb') gdbCommands(ex, inv, env);
  else judgeInterpreterWords(ex, inv, base);
}

/**
 * Judge an interpreter's words by its spec (`name` is its base name, or a toolchain's `PROGRAM SUB`
 * with argv[0] the subcommand): inline code and code on stdin are unknown, files it runs are listed.
 */
export function judgeInterpreterWords(ex: Extractor, inv: Invocation, name: string): void {
  const { argv, unresolved } = inv;
  const spec = SPECS[name] ?? { code: ['-e', '-c'] };
  const files: Array<{ word: string; unresolved: boolean }> = [];
  for (let k = 1; k < argv.length; k++) {
    const arg = argv[k] as string;
    if (arg === '--') break;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (
      spec.code.includes(name) ||
      (spec.expression && arg.startsWith('(')) ||
      (spec.getopt && getoptCode(spec, arg))
    ) {
      ex.flag('interpreter_code', inv.text);
      return;
    }
    // A word the shell could not resolve may be a code option itself.
    if (unresolved[k] && (arg.startsWith('-') || arg === '')) {
      ex.flag('unresolved_code', inv.text);
      return;
    }
    if (spec.files?.includes(name)) {
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++k];
      if (value !== undefined) files.push({ word: value, unresolved: unresolved[k] ?? false });
      continue;
    }
    if (spec.codeOperand && !arg.startsWith('-')) {
      ex.flag('interpreter_code', inv.text);
      return;
    }
    if (spec.operandsNotRun) continue;
    // An operand that cannot be told (`<(…)`, `$F`) may be the program itself.
    if (!arg.startsWith('-') && unresolved[k]) {
      ex.flag('unresolved_script', inv.text);
      return;
    }
    // An operand that names a file (a script, or an option's value: listing it is harmless).
    if (!arg.startsWith('-') && /[./]/.test(arg))
      files.push({ word: arg, unresolved: unresolved[k] ?? false });
  }
  for (const file of files.slice(0, MAX_FILES)) noteRunFile(ex, inv, file.word, file.unresolved);
  const stdin = inv.stdin;
  // With a program file named, stdin is the program's data (`cat data.csv | Rscript analyze.R`).
  if (stdin === undefined || files.length > 0 || spec.stdinIsData) return;
  // `R --no-save < analysis.R`: the program is that file.
  if (stdin.file !== undefined && stdin.text === undefined)
    noteRunFile(ex, inv, stdin.file, /[$`]/.test(stdin.file));
  else if ((stdin.text !== undefined && stdin.text.trim() !== '') || stdin.from === 'pipe-dynamic')
    ex.flag('interpreter_stdin', inv.text);
}

/** A getopt spelling of a code option: in a cluster of short options, attached, or a long prefix. */
function getoptCode(spec: Spec, arg: string): boolean {
  if (arg.startsWith('--')) {
    const name = arg.split('=')[0] as string;
    return name.length >= 4 && spec.code.some((o) => o.startsWith('--') && o.startsWith(name));
  }
  if (!arg.startsWith('-') || arg.length < 3) return false;
  // `-qie`, `-eCODE`: a short code option anywhere in a run of letters.
  const letters = /^-([a-zA-Z]+)/.exec(arg)?.[1] ?? '';
  return spec.code.some((o) => /^-[a-zA-Z]$/.test(o) && letters.includes(o[1] as string));
}
