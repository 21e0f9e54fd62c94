// gdb runs the commands `-ex`/`--eval-command` (and `-iex`, a command file `-x`) give it, and some of
// them run anything: `shell`, `!`, `pipe`, `python`, `source`, `make`, `define`, `run` through the
// shell with its arguments, `set logging file` writing anywhere. A debugging session that only runs
// the program and reads its state (`-batch -ex run -ex bt`) is common and harmless: such commands
// are recognised, any other makes gdb's code unknown. gdb takes long options with one or two dashes
// and any unambiguous prefix (`-eval`, `--eval-comm`). `--args PROG ARGS` is a command of its own.
import type { Env } from './expand.js';
import type { Extractor, Invocation } from './extract.js';
import { noteRunFile } from './scripts.js';

/** No shell metacharacters: gdb hands `run`'s arguments to a shell. */
const PLAIN = '[^;|&$`<>()\\\\\'"\\n]';
const READ_ONLY = new RegExp(
  '^(' +
    [
      // The program's arguments and a plain input file: no other shell text.
      `(r|run|start)( ${PLAIN}+)?( < [\\w./-]+)?`,
      `set args( ${PLAIN}+)?`,
      'target (remote|extended-remote) [\\w.:-]+',
      'set disassembly-flavor \\w+',
      'layout \\w+',
      `(bt|backtrace|where)( full)?( -?\\d+)?`,
      'info [a-z ]+',
      'i [a-z]+',
      // No parentheses: a call in an expression runs in the program (`p system("…")`, `$_shell(…)`).
      `(p|print|output|ptype|whatis|display)(/[a-z])? [^;|&\`()]+`,
      'x/[0-9a-z]+ [^;|&`()]+',
      '(frame|f) \\d+',
      '(up|down)( \\d+)?',
      `(list|l)( ${PLAIN}+)?`,
      'thread apply all (bt|backtrace)( full)?',
      'thread \\d+',
      'c(ontinue)?',
      'n(ext)?',
      's(tep)?',
      'finish',
      'q(uit)?',
      'kill',
      `disas(semble)?( ${PLAIN}+)?`,
      '(b|break|tbreak) [\\w.:/+-]+',
      'set (pagination|confirm|print pretty|width|height) [\\w.-]+',
      'catch (throw|catch|signal|syscall)( \\w+)?',
      'handle \\w+ [a-z ]+',
    ].join('|') +
    ')$',
);

/** Long options that take gdb commands, and those that take a file of them. */
const COMMANDS = ['ex', 'iex', 'eval-command', 'init-eval-command'];
const COMMAND_FILES = ['x', 'ix', 'command', 'init-command'];
/** Options with a value that is not code (a pid, a core, a directory, …). */
const VALUES = new Set([
  'p',
  'pid',
  'c',
  'core',
  'd',
  'directory',
  'cd',
  's',
  'symbols',
  'e',
  'exec',
  'se',
  'b',
  'l',
  'i',
  'interpreter',
  'D',
  'data-directory',
  'tty',
]);

/** The option a word names: `ex`/`iex` exactly, others by an unambiguous prefix of three or more letters. */
function optionName(word: string): string {
  const bare = word.replace(/^--?/, '').split('=')[0] as string;
  if (bare === 'ar' || bare === 'arg') return 'args';
  if (bare.length < 3) return bare;
  const all = [...COMMANDS, ...COMMAND_FILES, 'args'];
  const found = all.filter((o) => o.startsWith(bare));
  return found.length === 1 ? (found[0] as string) : bare;
}

export function gdbCommands(ex: Extractor, inv: Invocation, env: Env): void {
  const { argv, unresolved } = inv;
  let program: string | undefined;
  for (let k = 1; k < argv.length; k++) {
    const arg = argv[k] as string;
    if (!arg.startsWith('-') || arg === '-') {
      program ??= arg;
      continue;
    }
    if (unresolved[k]) {
      ex.flag('unresolved_code', inv.text);
      return;
    }
    const name = optionName(arg);
    const attached = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : undefined;
    if (name === 'args') {
      // `--args PROG ARGS…`: the program gdb debugs (and runs) with its arguments, a command.
      ex.resolve(
        {
          ...inv,
          argv: argv.slice(k + 1),
          unresolved: unresolved.slice(k + 1),
          via: [...inv.via, 'gdb --args'],
        },
        env,
      );
      break;
    }
    if (COMMANDS.includes(name) || COMMAND_FILES.includes(name)) {
      const at = attached === undefined ? k + 1 : k;
      const value = attached ?? argv[k + 1];
      if (attached === undefined) k++;
      if (
        value === undefined ||
        unresolved[at] ||
        COMMAND_FILES.includes(name) ||
        !READ_ONLY.test(value.trim())
      ) {
        ex.flag('interpreter_code', inv.text);
        return;
      }
      continue;
    }
    if (VALUES.has(name) && attached === undefined) k++;
  }
  // The program debugged (and run by `run`): a file the session wrote is refused.
  if (program !== undefined) noteRunFile(ex, inv, program);
  // gdb reads commands from stdin: a file, a pipe or text there is code (not /dev/null).
  const stdin = inv.stdin;
  if (stdin === undefined) return;
  if (stdin.text !== undefined ? stdin.text.trim() !== '' : stdin.file !== '/dev/null')
    ex.flag('interpreter_stdin', inv.text);
}
