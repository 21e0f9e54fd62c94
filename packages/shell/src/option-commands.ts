// Commands hidden in option values and in environment variables: `tar -I CMD`, `rsync -e CMD`,
// `sort --compress-program=PROG`, `zip -TT CMD`, `man -P CMD`, `tar --checkpoint-action=exec=CMD`, sed's `e` command, vim's `-c '!…'`,
// less's `+!…`, and `EDITOR=`/`PAGER=`/`GIT_SSH_COMMAND=`… set for a command. Each command is parsed
// and judged like any other; one that is not static is unknown-dynamic.
import type { Extractor, Handler, Invocation, Stdin } from './extract.js';
import { normalizeProgram } from './normalize.js';
import { splitWords } from './prefixes.js';
import { SHELLS } from './programs.js';
import { readOptions } from './read-options.js';
import { sedEffects } from './sed-script.js';
import type { ShellRedirect } from './types.js';
import { addPath, addSegmentWrites, type WriteSet } from './writes.js';

const DEFAULT_IFS = ' \t\n';

/** Parse a command the program will run; an unresolved one cannot be judged. */
export function runValue(
  ex: Extractor,
  inv: Invocation,
  label: string,
  value: string,
  unresolved: boolean,
  /** Words the program adds to the command (`rg --pre CMD` runs `CMD FILE`). */
  added = '',
  /** The program feeds the command data on stdin (`tar --to-command=sh` feeds it each member). */
  dataOnStdin = false,
): void {
  if (unresolved || /[$`]/.test(value)) {
    ex.flag('unresolved_code', inv.text);
    return;
  }
  if (value.trim() === '') return;
  const text = added === '' ? value : `${value} ${added}`;
  const stdin: Stdin | undefined = dataOnStdin ? { from: 'pipe-dynamic' } : undefined;
  ex.parseString(text, [...inv.via, label], { ifs: DEFAULT_IFS }, false, stdin);
}

/** Options whose command reads what the program feeds it: a shell there runs the archive's data. */
const DATA_ON_STDIN = /^((tar|bsdtar) --(to-command|use-compress-program)|sort --compress-program)$/;

/** Options whose command the program runs with more words: each searched file, for `rg --pre`. */
const ADDED_WORDS: Record<string, string> = { 'rg --pre': '"$SEARCHED_FILE"' };

/** A modelled program whose options may carry commands: emit it, then judge each command. */
export const programCommands: Handler = (ex, inv, _env, program) => {
  const args = inv.argv.slice(1);
  const read = readOptions(program, args);
  const extra = program === 'sed' ? sed(ex, inv, args) : undefined;
  if (extra) {
    // sed's `w FILE` truncates FILE as `> FILE` would: reported as a redirection and as a write.
    const writes: WriteSet = {
      paths: [...(inv.writes?.paths ?? [])],
      unresolved: inv.writes?.unresolved ?? false,
    };
    for (const r of extra) addPath(writes, r.target, inv.unresolved.some(Boolean), ex.res, inv.temp ?? null);
    ex.emit({ ...inv, redirects: [...inv.redirects, ...extra], writes });
  } else ex.emit(inv);
  if (!read) return;
  // Old-style tar (`tar cIf CMD x.tar`) reorders words; then any unresolved word taints the value.
  const sameShape = !(program.endsWith('tar') && /^[A-Za-z]+$/.test(args[0] ?? ''));
  for (const c of read.commands) {
    const unresolved = sameShape ? (inv.unresolved[c.index + 1] ?? true) : inv.unresolved.some(Boolean);
    const label = `${program} ${c.option}`;
    runValue(ex, inv, label, c.value, unresolved, ADDED_WORDS[label] ?? '', DATA_ON_STDIN.test(label));
  }
  // ripgrep reads options (--pre among them) from the file this variable names.
  if (program === 'rg' && inv.assignments.some((a) => a.startsWith('RIPGREP_CONFIG_PATH=')))
    ex.flag('unresolved_code', inv.text);
  // hyperfine's operands are commands it runs, as its --prepare and --setup values are.
  if (program === 'hyperfine') {
    for (const command of read.positionals) runValue(ex, inv, program, command, inv.unresolved.some(Boolean));
  }
  checkpointActions(ex, inv, program, read.canonical, inv.unresolved.some(Boolean));
  if (program.endsWith('tar')) {
    tarOptionsVariable(ex, inv, program);
    remoteTapeCommand(ex, inv, program, read.canonical);
  }
};

/**
 * `tar -cf host:out.tar --rmt-command=CMD`: an archive on another host (`host:path`, also from TAPE)
 * is reached through the remote tape program, the last --rmt-command given; `--force-local` keeps a
 * name with a colon a local file, and then nothing is run.
 */
function remoteTapeCommand(
  ex: Extractor,
  inv: Invocation,
  program: string,
  canonical: readonly string[],
): void {
  const last = (name: string) => canonical.findLast((o) => o.startsWith(`${name}=`))?.slice(name.length + 1);
  const rmt = last('--rmt-command');
  if (rmt === undefined || canonical.includes('--force-local')) return;
  const archive =
    last('--file') ?? inv.assignments.findLast((a) => a.startsWith('TAPE='))?.slice('TAPE='.length);
  if (archive === undefined || !/^[^/]*:/.test(archive)) return;
  runValue(ex, inv, `${program} --rmt-command`, rmt, inv.unresolved.some(Boolean));
}

/** `--checkpoint-action=exec=CMD` runs CMD; an action that is not static may be one. */
function checkpointActions(
  ex: Extractor,
  inv: Invocation,
  program: string,
  canonical: readonly string[],
  unresolved: boolean,
): void {
  for (const option of canonical) {
    if (!option.startsWith('--checkpoint-action=')) continue;
    const action = option.slice('--checkpoint-action='.length);
    const m = /^exec=(.*)$/s.exec(action);
    if (m) runValue(ex, inv, `${program} --checkpoint-action`, m[1] as string, unresolved);
    else if (/[$`]/.test(action)) ex.flag('unresolved_code', inv.text);
  }
}

/**
 * GNU tar reads TAR_OPTIONS as options before its own (split as a shell would, `\ ` keeping a
 * blank): `TAR_OPTIONS='--to-command=sh' tar -xf x.tar` runs sh for every member. A value that is
 * not static, or one set earlier by the command (`export TAR_OPTIONS=…; tar …`), cannot be judged.
 */
function tarOptionsVariable(ex: Extractor, inv: Invocation, program: string): void {
  const word = inv.assignments.findLast((a) => a.startsWith('TAR_OPTIONS='));
  if (word === undefined) {
    if (ex.res.texts.some((t) => /(^|[^\w])TAR_OPTIONS\s*[+]?=/.test(t)))
      ex.flag('unresolved_code', inv.text);
    return;
  }
  const value = word.slice('TAR_OPTIONS='.length);
  if (/[$`]/.test(value)) {
    ex.flag('unresolved_code', inv.text);
    return;
  }
  const read = readOptions(program, splitWords(value));
  if (!read) return;
  for (const c of read.commands)
    runValue(ex, inv, `TAR_OPTIONS ${c.option}`, c.value, false, '', DATA_ON_STDIN.test(`tar ${c.option}`));
  checkpointActions(ex, inv, 'TAR_OPTIONS', read.canonical, false);
}

/** sed: `e` runs a command (or the pattern space), `w FILE` truncates FILE like `> FILE`. */
function sed(ex: Extractor, inv: Invocation, args: string[]): ShellRedirect[] | undefined {
  const read = readOptions('sed', args);
  if (!read || read.canonical.includes('--sandbox')) return undefined;
  const scripts = read.canonical.filter((o) => o.startsWith('--expression=')).map((o) => o.slice(13));
  if (read.canonical.some((o) => o.startsWith('--file='))) ex.flag('unresolved_script', inv.text);
  if (scripts.length === 0 && !read.canonical.includes('--file') && read.positionals[0] !== undefined) {
    scripts.push(read.positionals[0]);
  }
  const redirects: ShellRedirect[] = [];
  for (const script of scripts) {
    const effects = sedEffects(script);
    if (effects.unreadable) ex.flag('unresolved_code', inv.text);
    for (const command of effects.commands) {
      if (command === '') ex.flag('interpreter_code', inv.text);
      else runValue(ex, inv, 'sed e', command, false);
    }
    for (const target of effects.writes) {
      if (!/^\/dev\/(stdout|stderr)$/.test(target)) redirects.push({ op: '>', target, truncates: true });
    }
  }
  return redirects.length > 0 ? redirects : undefined;
}

/** Vim commands that only move, search or set options; anything else may run a shell or write. */
const VIM_PLAIN = /^(\d*|[/?].*|(se|set|setl|setlocal|syn|syntax|filetype|ft|noh|nohlsearch)(\s.*)?)$/;

/** Vim's short options that take a value (`-c CMD`, `-S FILE`, `-u VIMRC`, `-i VIMINFO`, …). */
const VIM_VALUES = 'cSuUiTwWtq';

/** `vim -c CMD`, `vim +CMD`, `vim --cmd CMD`, `vim -S FILE`, `ex`/`vim -e` reading commands on stdin. */
export const vim: Handler = (ex, inv, _env, program) => {
  ex.emit(inv);
  const { argv } = inv;
  let silentEx = program === 'ex';
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') break;
    const commands: string[] = [];
    if (arg === '--cmd') commands.push(argv[++i] ?? '');
    else if (arg.startsWith('+')) commands.push(arg.slice(1));
    else if (/^-[a-zA-Z]/.test(arg)) {
      // Vim reads a cluster letter by letter (`-Nesc CMD`, `-esc`); a letter that takes a value
      // takes the rest of the word, or the next word.
      for (let k = 1; k < arg.length; k++) {
        const letter = arg[k] as string;
        if ('eEs'.includes(letter)) silentEx = true;
        if (!VIM_VALUES.includes(letter)) continue;
        const value = k + 1 < arg.length ? arg.slice(k + 1) : (argv[++i] ?? '');
        if (letter === 'c') commands.push(value);
        // -S FILE and -u FILE (the vimrc) run a file of commands.
        else if ((letter === 'S' || letter === 'u') && !/^(NONE|NORC|DEFAULTS)$/.test(value))
          ex.flag('source', inv.text);
        break;
      }
    }
    for (const command of commands)
      if (!VIM_PLAIN.test(command.trim())) ex.flag('interpreter_code', inv.text);
  }
  if (silentEx && inv.stdin) ex.flag('interpreter_stdin', inv.text);
};

/**
 * `ed` / `red` read their commands on stdin: `!CMD` (also after `e`, `r`, `w`) runs a shell command,
 * and `w`/`W`/`wq` write the file named, or the one being edited. Unknown commands on stdin are code.
 */
export const ed: Handler = (ex, inv) => {
  ex.emit(inv);
  const stdin = inv.stdin;
  // Without stdin a person types the commands.
  if (stdin === undefined) return;
  if (stdin.text === undefined) {
    ex.flag('interpreter_stdin', inv.text);
    return;
  }
  const at = inv.argv.findIndex((a, k) => k > 0 && !a.startsWith('-') && inv.argv[k - 1] !== '-p');
  const edited = at > 0 ? (inv.argv[at] as string) : undefined;
  const written: string[] = [];
  for (const line of stdin.text.split('\n')) {
    const bang = line.indexOf('!');
    if (bang >= 0) runValue(ex, inv, 'ed !', line.slice(bang + 1), false);
    const w = /^[\s\d,.$;+-]*(?:w|W|wq)(?:\s+(\S.*))?$/.exec(line);
    if (w && !(w[1] ?? '').startsWith('!')) {
      const target = w[1]?.trim() ?? edited;
      if (target !== undefined) written.push(target);
    }
  }
  const segment = ex.segments[ex.segments.length - 1];
  if (segment === undefined || written.length === 0) return;
  const unresolved = inv.unresolved[at] ?? false;
  addSegmentWrites(
    segment,
    written.map((text) => ({ text, unresolved })),
    ex.res,
    inv.temp ?? null,
  );
};

/**
 * Emacs options that run nothing: display, start-up files skipped, a directory or font. Emacs takes
 * `-opt` and `--opt` alike, and any unambiguous prefix of a long one (`--ev` is `--eval`), so the
 * options are read against what is known to be inert, never against a list of the ones that run code
 * (`--eval`, `-l`, `--script`, `-f`, `-x`): any other option is code it may run.
 */
const EMACS_INERT =
  /^--?(nw|no-window-system|q|no-init-file|Q|quick|batch|no-site-file|no-site-lisp|no-splash|nsl|no-x-resources|no-desktop|no-loadup|nl|no-shared-memory|debug-init|D|basic-display|fs|fullscreen|mm|maximized|fh|fullheight|fw|fullwidth|no-blinking-cursor|nbc|iconic|version|help|t|terminal|display|d|geometry|g|font|fn|name|title|T|bg|background-color|fg|foreground-color|chdir|L|directory|insert|visit|file|find-file|fg-daemon|bg-daemon|daemon)(=.*)?$/;
/** Those of them that take the next word as their value. */
const EMACS_VALUE =
  /^--?(t|terminal|display|d|geometry|g|font|fn|name|title|T|bg|background-color|fg|foreground-color|chdir|L|directory|insert|visit|file|find-file)$/;
/** emacsclient's options that run nothing (`-e`/`--eval` evaluates its words; `-a CMD` runs CMD). */
const EMACSCLIENT_INERT =
  /^(-[nctqudHVw]+|--(no-wait|create-frame|tty|nw|quiet|suppress-output|display|parent-id|timeout|socket-name|server-file|tramp|frame-parameters|reuse-frame|version|help)(=.*)?|-[sfTFw])$/;
const EMACSCLIENT_VALUE =
  /^(-[sfTFdw]|--(display|parent-id|timeout|socket-name|server-file|tramp|frame-parameters))$/;

/**
 * `emacs --eval EXPR`, `-l FILE`, `--script FILE`, `-f FUNC` and `emacsclient -e EXPR` run Lisp that
 * may do anything: unknown-dynamic. `emacsclient -a CMD` runs CMD when no server answers: judged as
 * the command it is. Visiting files (`emacs -nw README`, `+LINE FILE`) runs nothing.
 */
export const emacs: Handler = (ex, inv, _env, program) => {
  ex.emit(inv);
  const { argv } = inv;
  const client = program === 'emacsclient';
  const inert = client ? EMACSCLIENT_INERT : EMACS_INERT;
  const takesValue = client ? EMACSCLIENT_VALUE : EMACS_VALUE;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') break;
    if (!arg.startsWith('-') || arg === '-') continue;
    if (client) {
      const alternate = /^(-a|--alternate-editor)(?:=(.*))?$/.exec(arg);
      if (alternate) {
        const at = alternate[2] === undefined ? ++i : i;
        const value = alternate[2] ?? argv[at] ?? '';
        runValue(ex, inv, 'emacsclient -a', value, inv.unresolved[at] ?? false);
        continue;
      }
    }
    if (inv.unresolved[i] || !inert.test(arg)) {
      ex.flag('interpreter_code', inv.text);
      return;
    }
    if (takesValue.test(arg)) i++;
  }
};

/** `less '+!CMD' file`: less's `!` command runs a shell command at start. */
export const less: Handler = (ex, inv) => {
  ex.emit(inv);
  inv.argv.forEach((arg, k) => {
    if (k === 0 || !arg.startsWith('+')) return;
    const bang = arg.indexOf('!');
    if (bang >= 0) runValue(ex, inv, 'less !', arg.slice(bang + 1), inv.unresolved[k] ?? false);
  });
};

/** Variables whose value a program runs as a shell command (editors, pagers, transports, lesspipe). */
const COMMAND_VARIABLES = new Set(
  (
    'EDITOR VISUAL GIT_EDITOR GIT_SEQUENCE_EDITOR GIT_PAGER PAGER MANPAGER SYSTEMD_PAGER SYSTEMD_EDITOR ' +
    'SUDO_EDITOR KUBE_EDITOR FCEDIT GH_EDITOR GH_PAGER GH_BROWSER GLAB_EDITOR PSQL_EDITOR PSQL_PAGER HGEDITOR ' +
    'SVN_EDITOR BAT_PAGER DELTA_PAGER GIT_SSH_COMMAND RSYNC_RSH CVS_RSH BROWSER LESSOPEN LESSCLOSE ' +
    'SSH_ASKPASS SUDO_ASKPASS GIT_ASKPASS GIT_EXTERNAL_DIFF RUSTC_WRAPPER RUSTC_WORKSPACE_WRAPPER ' +
    'CARGO_BUILD_RUSTC_WRAPPER CARGO_BUILD_RUSTC RUSTC RUSTDOC CC CXX CPP LD ' +
    'npm_config_script_shell npm_config_shell npm_config_git npm_config_editor npm_config_browser ' +
    // The shell `script -c`, tmux, screen, parallel, entr -s, vim's `:!`, less's `!` and make run.
    'SHELL'
  ).split(' '),
);
/** Variables naming the shell a program runs its commands with (`SHELL -c CMD`). */
const SHELL_VARIABLES = new Set(['SHELL', 'npm_config_script_shell', 'npm_config_shell']);
/** npm reads `npm_config_*` whatever its case: `NPM_CONFIG_SCRIPT_SHELL` is the same setting. */
const canonicalVariable = (name: string): string =>
  /^npm_config_/i.test(name) ? `npm_config_${name.slice(11).toLowerCase()}` : name;
const commandVariable = (name: string): boolean => COMMAND_VARIABLES.has(canonicalVariable(name));

/** Whether a value names a shell program (`/bin/zsh`, `bash`); empty is the default shell. */
function namesShell(value: string): boolean {
  const first = value.trim().split(/\s/, 1)[0] ?? '';
  return first === '' || SHELLS.has(normalizeProgram(first));
}

const DECLARATIONS = new Set(['export', 'declare', 'typeset', 'readonly', 'local', 'setenv']);

/**
 * The commands in `NAME=value` assignments given to a command (or to env), or declared by `export`
 * and its kin: a later program runs them. Each variable and value is judged once per command text.
 */
export function assignedCommands(ex: Extractor, inv: Invocation, program: string): void {
  const words = DECLARATIONS.has(program) ? [...inv.assignments, ...inv.argv.slice(1)] : inv.assignments;
  for (const word of words) {
    const eq = word.indexOf('=');
    if (eq <= 0 || !commandVariable(word.slice(0, eq))) continue;
    const name = word.slice(0, eq);
    const key = `${inv.text}\0${word}`;
    const judged = ex.res.slot(JUDGED, () => new Set<string>());
    if (judged.has(key)) continue;
    judged.add(key);
    // LESSOPEN='|cmd %s' (or '||cmd', '-|cmd'): the command after the pipe marks.
    const value = name.startsWith('LESS') ? word.slice(eq + 1).replace(/^-?\|\|?/, '') : word.slice(eq + 1);
    // Another interpreter there (`python3`, a project file) reads the command given to its -c as its
    // own code, which is judged here as shell.
    if (SHELL_VARIABLES.has(canonicalVariable(name)) && !namesShell(value))
      ex.flag('unresolved_config', inv.text);
    runValue(ex, inv, name, value, false);
  }
}

/** The JavaScript package managers, which read any `--KEY[=VALUE]` as their config KEY. */
const NPM_LIKE = new Set(['npm', 'npx', 'pnpm', 'pnpx', 'yarn']);
/** Their config keys whose value is a command run for scripts, git or an editor. */
const NPM_COMMAND_KEYS = /^--(script-shell|shell|git|editor|browser)(?:=(.*))?$/s;
/** Keys that load another config file, or code into every node process. */
const NPM_LOADING_KEYS = /^--(userconfig|globalconfig|node-options)(=|$)/;

/**
 * `npm test --script-shell=./evil.sh`: the flag form of `npm_config_script_shell`, judged as the
 * command it names; `--userconfig FILE` (a config that may set it) and `--node-options` are unknown.
 */
export function packageManagerConfig(ex: Extractor, inv: Invocation, program: string): void {
  if (!NPM_LIKE.has(program)) return;
  const { argv } = inv;
  for (let k = 1; k < argv.length; k++) {
    const arg = argv[k] as string;
    if (arg === '--') break;
    const command = NPM_COMMAND_KEYS.exec(arg);
    if (command) {
      const value = command[2] ?? argv[k + 1] ?? '';
      const unresolved = (command[2] === undefined ? inv.unresolved[k + 1] : inv.unresolved[k]) ?? false;
      // The script shell runs every script as `SHELL -c SCRIPT`: another interpreter (`python3`) reads
      // the scripts as its own code, which nothing here judges.
      const shell = /^(script-shell|shell)$/.test(command[1] as string);
      if (shell && !namesShell(value)) ex.flag('unresolved_config', inv.text);
      runValue(ex, inv, `${program} --${command[1] as string}`, value, unresolved);
    } else if (NPM_LOADING_KEYS.test(arg)) ex.flag('unresolved_config', inv.text);
  }
}

/**
 * Options whose value is a program the tool runs, of tools without an option model here: sftp's
 * `-S PROGRAM` (instead of ssh) and `-D SERVER`, wget's `--use-askpass=PROGRAM`, aria2c's hooks.
 */
const COMMAND_VALUED: Record<string, readonly string[]> = {
  sftp: ['-S', '-D'],
  wget: ['--use-askpass'],
  wget2: ['--use-askpass'],
  aria2c: [
    '--on-download-complete',
    '--on-download-error',
    '--on-download-start',
    '--on-download-pause',
    '--on-download-stop',
    '--on-bt-download-complete',
  ],
};

/** Judge the program given to one of COMMAND_VALUED's options as the command it is. */
export function commandValuedOptions(ex: Extractor, inv: Invocation, program: string): void {
  const options = Object.hasOwn(COMMAND_VALUED, program) ? COMMAND_VALUED[program] : undefined;
  if (options === undefined) return;
  const { argv } = inv;
  for (let k = 1; k < argv.length; k++) {
    const arg = argv[k] as string;
    if (arg === '--') break;
    for (const option of options) {
      let value: string | undefined;
      let at = k;
      if (arg === option) {
        value = argv[k + 1];
        at = k + 1;
      } else if (arg.startsWith(`${option}=`)) value = arg.slice(option.length + 1);
      else if (option.length === 2 && arg.startsWith(option)) value = arg.slice(2);
      if (value !== undefined) runValue(ex, inv, `${program} ${option}`, value, inv.unresolved[at] ?? false);
    }
  }
}

/** The key of the assignments already judged in a parse (Resolver.slot). */
const JUDGED = {};
