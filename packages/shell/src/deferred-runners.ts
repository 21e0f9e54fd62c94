// Programs that hand a shell command to something that runs it later or in another terminal of this
// machine: `at`/`batch` (the job is read from stdin or `-f FILE`) and `tmux` (`-c CMD`, the shell
// command of new-session/new-window/split-window/respawn-*/run-shell/popup/pipe-pane/if-shell, and
// the keys send-keys types into a pane). The command is judged as if typed here; tmux commands that
// set up commands for later (source-file, set-hook, bind-key, default-command) are unknown-dynamic.
import type { Extractor, Handler, Invocation } from './extract.js';
import { firstOperand } from './option-scan.js';
import { own } from './own.js';
import { readStdinAsScript } from './runners.js';
import { runShellFile } from './scripts.js';

const DEFAULT_IFS = ' \t\n';

/** `at [-q Q] [-f FILE] [-mMv] [-t TIME] TIMESPEC` / `batch`: the job's commands run through sh. */
export const atJob: Handler = (ex, inv, _env, program) => {
  ex.emit(inv);
  const { argv, unresolved } = inv;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--' || !arg.startsWith('-') || arg === '-') break;
    for (let k = 1; k < arg.length; k++) {
      const letter = arg[k] as string;
      // Listing, printing or removing queued jobs schedules nothing.
      if ('lcdrV'.includes(letter)) return;
      if (!'qft'.includes(letter)) continue;
      const attached = arg.slice(k + 1);
      const at = attached !== '' ? i : i + 1;
      const value = attached !== '' ? attached : argv[i + 1];
      if (attached === '') i++;
      // `-f FILE`: the job is the file's commands.
      if (letter === 'f' && value !== undefined) {
        runShellFile(ex, inv, value, unresolved[at] ?? false, [], []);
        return;
      }
      break;
    }
  }
  readStdinAsScript(ex, inv, program);
};

interface TmuxCommand {
  /** Short options that take a value. */
  values: string;
  /** How the operands are used: a shell command, keys typed into a pane, or a shell command then tmux commands. */
  operands: 'shell' | 'keys' | 'if-shell';
}

const TMUX_RUNNERS: Record<string, TmuxCommand> = {
  'new-session': { values: 'cefFnstxy', operands: 'shell' },
  'new-window': { values: 'ceFnt', operands: 'shell' },
  'split-window': { values: 'celpFt', operands: 'shell' },
  'respawn-pane': { values: 'cet', operands: 'shell' },
  'respawn-window': { values: 'cet', operands: 'shell' },
  'run-shell': { values: 'cdt', operands: 'shell' },
  'display-popup': { values: 'bcdehsStTwxy', operands: 'shell' },
  'pipe-pane': { values: 't', operands: 'shell' },
  'if-shell': { values: 't', operands: 'if-shell' },
  'send-keys': { values: 'cNt', operands: 'keys' },
};

const TMUX_ALIASES: Record<string, string> = {
  new: 'new-session',
  neww: 'new-window',
  splitw: 'split-window',
  respawnp: 'respawn-pane',
  respawnw: 'respawn-window',
  run: 'run-shell',
  popup: 'display-popup',
  pipep: 'pipe-pane',
  if: 'if-shell',
  send: 'send-keys',
};

/** Key names that end a typed line. */
const ENTER_KEYS = new Set(['Enter', 'C-m', 'C-j', 'KPEnter']);
/** Other key names: line editing, other control keys and function keys change what was typed in ways not modelled. */
const KEY_NAME =
  /^([CMS]-.|[CMS]-[A-Za-z0-9]+|\^.|Escape|BSpace|Tab|BTab|Space|Up|Down|Left|Right|Home|End|PageUp|PgUp|PageDown|PgDn|NPage|PPage|DC|IC|Delete|Insert|F\d{1,2}|KP.*)$/;

/**
 * The tmux command a name stands for: a full name, an alias, or (tmux takes unambiguous prefixes) a
 * prefix of one of the runners; a prefix tmux would find ambiguous errors there, so reading it as a
 * runner only gates more.
 */
function tmuxCommand(name: string): TmuxCommand | undefined {
  const full = own(TMUX_ALIASES, name) ?? name;
  const runner = own(TMUX_RUNNERS, full);
  if (runner) return runner;
  const prefixed = Object.keys(TMUX_RUNNERS).filter((k) => name.length >= 2 && k.startsWith(name));
  return prefixed.length > 0 ? TMUX_RUNNERS[prefixed[0] as string] : undefined;
}

/** tmux's options are letters in clusters: each scan's visitor reads them, none by the default rule. */
const NO_VALUES: ReadonlySet<string> = new Set();

/** `tmux [-c CMD] [options] [command [flags] [args] [; command …]]`. */
export const tmux: Handler = (ex, inv) => {
  ex.emit(inv);
  const { argv, unresolved } = inv;
  const i = firstOperand(argv, {
    values: NO_VALUES,
    visit: (arg, next, at) => {
      for (let k = 1; k < arg.length; k++) {
        const letter = arg[k] as string;
        if (!'cfLST'.includes(letter)) continue;
        const attached = arg.slice(k + 1);
        // `tmux -c CMD` runs CMD with the default shell, as a login shell would.
        if (letter === 'c') {
          const value = attached !== '' ? attached : next;
          const from = attached !== '' ? at : at + 1;
          if (value !== undefined) runString(ex, inv, value, unresolved[from] ?? false, 'tmux -c');
        }
        return attached !== '' ? 1 : 2;
      }
      return 1;
    },
  });
  // Commands are separated by a `;` word (`\;` on the command line).
  let start = i;
  for (let j = i; j <= argv.length; j++) {
    if (j < argv.length && argv[j] !== ';') continue;
    if (j > start) tmuxOne(ex, inv, start, j);
    start = j + 1;
  }
};

/**
 * tmux commands that set up commands to run later: a configuration file (which may run-shell), a hook,
 * a key binding, or the command new windows start with.
 */
const TMUX_LATER = new Set(['source-file', 'source', 'set-hook', 'bind-key', 'bind']);
const TMUX_SET = new Set(['set-option', 'set', 'set-window-option', 'setw']);

function tmuxOne(ex: Extractor, inv: Invocation, from: number, to: number): void {
  const { argv, unresolved } = inv;
  const name = argv[from] as string;
  const later =
    TMUX_LATER.has(name) ||
    (TMUX_SET.has(name) && argv.slice(from + 1, to).some((a) => /^default-(command|shell)$/.test(a)));
  if (later) {
    ex.flag('unresolved_code', inv.text);
    return;
  }
  const command = tmuxCommand(name);
  if (!command) return;
  let literal = false;
  let tmuxCommands = false;
  const i = firstOperand(
    argv,
    {
      values: NO_VALUES,
      visit: (arg) => {
        for (let k = 1; k < arg.length; k++) {
          const letter = arg[k] as string;
          // An option taking a value ends the cluster: the value is its rest, or the next word.
          if (command.values.includes(letter)) return k === arg.length - 1 ? 2 : 1;
          if (letter === 'l') literal = true;
          // run-shell -C runs tmux commands; send-keys -H types hexadecimal key codes.
          if (
            (letter === 'C' && command === TMUX_RUNNERS['run-shell']) ||
            (letter === 'H' && command.operands === 'keys')
          )
            tmuxCommands = true;
        }
        return 1;
      },
    },
    from + 1,
    to,
  );
  const operands = argv.slice(i, to);
  const operandsUnresolved = unresolved.slice(i, to).some(Boolean);
  if (operands.length === 0) return;
  if (tmuxCommands) {
    ex.flag('unresolved_code', inv.text);
    return;
  }
  if (command.operands === 'keys') {
    const text = typedText(operands, literal);
    if (text === null) ex.flag('unresolved_code', inv.text);
    else runString(ex, inv, text, operandsUnresolved, 'tmux send-keys');
    return;
  }
  if (command.operands === 'if-shell') {
    runString(ex, inv, operands[0] as string, unresolved[i] ?? false, 'tmux if-shell');
    // The commands run on either branch are tmux commands: not modelled.
    if (operands.length > 1) ex.flag('unresolved_code', inv.text);
    return;
  }
  runString(ex, inv, operands.join(' '), operandsUnresolved, `tmux ${name}`);
}

/** The text send-keys types: literal words, Enter as a line end, C-c dropping the open line; null for keys that edit. */
function typedText(keys: readonly string[], literal: boolean): string | null {
  if (literal) return keys.join('');
  let text = '';
  for (const key of keys) {
    if (ENTER_KEYS.has(key)) text += '\n';
    else if (key === 'Space') text += ' ';
    // An interrupt discards the line being typed (and stops what runs): nothing new runs from it.
    else if (key === 'C-c') text = text.slice(0, text.lastIndexOf('\n') + 1);
    else if (KEY_NAME.test(key)) return null;
    else text += key;
  }
  return text;
}

function runString(ex: Extractor, inv: Invocation, text: string, unresolved: boolean, label: string): void {
  if (unresolved) {
    ex.flag('unresolved_code', inv.text);
    return;
  }
  ex.parseString(text, [...inv.via, label], { ifs: DEFAULT_IFS });
}
