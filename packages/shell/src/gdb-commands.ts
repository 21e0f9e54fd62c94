// gdb runs the commands `-ex`/`--eval-command` (and `-iex`) give it, and some of them run anything:
// `shell`, `!`, `pipe`, `python`, `source`, `make`, `define`, `run` through the shell with its
// arguments. A debugging session that only runs the program and reads its state (`-batch -ex run
// -ex bt`) is common and harmless: such commands are recognised, any other makes gdb's code unknown.
const READ_ONLY = new RegExp(
  '^(' +
    [
      'r(un)?',
      'start',
      'bt( full)?',
      'backtrace( full)?',
      'where',
      'info [a-z ]+',
      'i [a-z]+',
      'p(rint)?(/[a-z])? [^;|&$`<>()]+',
      'x/[0-9a-z]+ [^;|&$`<>()]+',
      'frame [0-9]+',
      'f [0-9]+',
      'up( [0-9]+)?',
      'down( [0-9]+)?',
      'list( [^;|&$`<>()]+)?',
      'l( [^;|&$`<>()]+)?',
      'thread apply all bt( full)?',
      'c(ontinue)?',
      'n(ext)?',
      's(tep)?',
      'finish',
      'q(uit)?',
      'kill',
      'disassemble',
      '(b|break|tbreak) [\\w.:/+-]+',
      'set (pagination|confirm|print pretty|width|height|logging \\w+) [\\w.-]+',
      'catch (throw|catch|signal|syscall)( \\w+)?',
      'handle \\w+ [a-z ]+',
    ].join('|') +
    ')$',
);

/** Whether every gdb command of the call only runs the program as given and reads its state. */
export function gdbReadOnly(argv: readonly string[], unresolved: readonly boolean[]): boolean {
  for (let k = 1; k < argv.length; k++) {
    const arg = argv[k] as string;
    // Command files (`-x FILE`, `-ix`, `--command`) and a Python or Guile script are not read.
    if (/^-{1,2}(x|ix|command|init-command)(=|$)/.test(arg)) return false;
    const eq = arg.indexOf('=');
    const name = /^--?[\w-]+$/.test(arg) ? arg : eq > 0 ? arg.slice(0, eq) : arg;
    if (!/^-{1,2}(ex|iex|eval-command|init-eval-command)$/.test(name)) continue;
    const inline = eq > 0 && name !== arg;
    const value = inline ? arg.slice(eq + 1) : argv[k + 1];
    if (value === undefined || unresolved[inline ? k : k + 1]) return false;
    if (!READ_ONLY.test(value.trim())) return false;
    if (!inline) k++;
  }
  return true;
}
