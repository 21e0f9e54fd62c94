// Handlers for programs that run other commands: shells (`-c`, a script, stdin), `ssh`, `eval`,
// `source`, `trap`, `su -c`, `watch`, `flock`, `kubectl exec`, `docker exec`, and git's aliases.
import { posix } from 'node:path';
import { noteLosses, noteMovesInto } from './build-outputs.js';
import type { Extractor, Handler, Invocation } from './extract.js';
import type { FileView, ResolveContext } from './files.js';
import { type FileConfig, resolveGit, scanGlobals } from './git.js';
import { findGitDir, findTopLevel, type GitFileConfig, parseGitConfig, readGitConfig } from './git-config.js';
import { gitFacts } from './git-facts.js';
import { HOOK_NAMES, HOOK_VIA, hookFiles, mayRunHooks } from './git-hooks.js';
import { namesRevision } from './git-refs.js';
import { noteCloneRemote, noteRemotesDefined, pushRelies, remotesNamed } from './git-remotes.js';
import { rebaseEffect, switchEffect, switchPlaces } from './git-switch.js';
import { changedFiles, worktreeChanges } from './git-worktree.js';
import { gitWrites, traceFiles } from './git-writes.js';
import { runValue } from './option-commands.js';
import type { ParsedOptions } from './option-model.js';
import { firstOperand, longOption, takesValue } from './option-scan.js';
import { GLOBAL_VALUE_OPTIONS } from './options.js';
import { own } from './own.js';
import { commandText, gitCommandValues } from './pager-editor.js';
import { slice } from './prefixes.js';
import { SHELLS } from './programs.js';
import { readOptions } from './read-options.js';
import {
  canRead,
  noteRunFile,
  noteRunsHooks,
  noteScript,
  readInput,
  runShellFile,
  shebang,
  stdinScriptFile,
  stdinText,
} from './scripts.js';
import { isKnownInitEval, isKnownInitFile, isKnownInitSource } from './shell-init.js';
import type { ShellSegment } from './types.js';
import { addSegmentWrites } from './writes.js';

const DEFAULT_IFS = ' \t\n';

function inner(inv: Invocation, from: number, label: string, to?: number): Invocation {
  return { ...inv, ...slice(inv, from, to), via: [...inv.via, label] };
}

/** fish's options that carry a command: `--command[=CMD]`, `-C CMD`, `--init-command[=CMD]`. */
const FISH_COMMAND = /^(--command(=|$)|--init-command(=|$)|-C$)/;

/**
 * Whether a zsh option setting leaves commands executed (true), stops them (false), or is not about
 * that (undefined). zsh ignores case, `_` and `-` in names, and each leading `no` inverts one:
 * `-o exec`, `+o noexec`, `-o nonoexec`, `--no-no-exec` all run the code.
 */
function zshExec(name: string, on: boolean): boolean | undefined {
  let option = name.toLowerCase().replace(/[_-]/g, '');
  let value = on;
  while (option.startsWith('no') && option !== 'notify') {
    option = option.slice(2);
    value = !value;
  }
  return option === 'exec' ? value : undefined;
}

/** `bash [options] -c STRING [$0 [$1 …]]`, `bash SCRIPT`, or `bash` reading commands on stdin. */
export const shell: Handler = (ex, inv, _env, program) => {
  const { argv, unresolved } = inv;
  let command = false;
  let noexec = false;
  let fromStdin = false;
  let interactive = false;
  /** `--rcfile FILE` / `--init-file FILE` (and `=FILE`): what an interactive shell runs first. */
  const startup: Array<{ word: string; unresolved: boolean }> = [];
  /** Commands given inline to options (fish's `--command=CMD`, `-C CMD`). */
  const early: Array<{ code: string; unresolved: boolean }> = [];
  let i = 1;
  for (; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--' || arg === '-') {
      i++;
      break;
    }
    if (unresolved[i] && arg.startsWith('-')) ex.flag('unresolved_option', inv.text);
    // fish: `--command CMD` is its -c; `-C CMD` / `--init-command CMD` runs before anything else.
    if (program === 'fish' && FISH_COMMAND.test(arg)) {
      const eq = arg.indexOf('=');
      if (eq > 0) early.push({ code: arg.slice(eq + 1), unresolved: unresolved[i] ?? false });
      else if (arg === '--command') command = true;
      else {
        early.push({ code: argv[i + 1] ?? '', unresolved: unresolved[i + 1] ?? false });
        i++;
      }
      continue;
    }
    if (arg.startsWith('--')) {
      // zsh takes any option by its long name (`--exec`, `--no-noexec`).
      if (program === 'zsh') {
        const toggled = zshExec(arg.slice(2), true);
        if (toggled !== undefined) noexec = !toggled;
      }
      if (arg === '--rcfile' || arg === '--init-file') {
        startup.push({ word: argv[i + 1] ?? '', unresolved: unresolved[i + 1] ?? false });
        i++;
      } else if (arg.startsWith('--rcfile=') || arg.startsWith('--init-file=')) {
        startup.push({ word: arg.slice(arg.indexOf('=') + 1), unresolved: unresolved[i] ?? false });
      }
      continue;
    }
    if ((arg[0] === '-' || arg[0] === '+') && arg.length > 1) {
      // An `o` / `O` takes an option name: zsh the rest of the cluster if any (`-onotify`), else
      // the next word; bash always the next word, for each one (`-euo pipefail`).
      const on = arg[0] === '-';
      let letters = arg.slice(1);
      const named: string[] = [];
      if (program === 'zsh') {
        const at = letters.search(/[oO]/);
        if (at >= 0) {
          named.push(at === letters.length - 1 ? (argv[++i] ?? '') : letters.slice(at + 1));
          letters = letters.slice(0, at);
        }
      } else for (const letter of letters) if (letter === 'o' || letter === 'O') named.push(argv[++i] ?? '');
      // Options apply in order: `-n +n` and `-n +o noexec` run the code after all.
      if (letters.includes('n')) noexec = on;
      for (const name of named) {
        if (program === 'zsh') {
          const toggled = zshExec(name, on);
          if (toggled !== undefined) noexec = !toggled;
        } else if (name === 'noexec') noexec = on;
      }
      if (on) {
        if (letters.includes('c')) command = true;
        if (letters.includes('s')) fromStdin = true;
        if (letters.includes('i')) interactive = true;
      }
      continue;
    }
    break;
  }
  for (const given of early) {
    if (given.unresolved) ex.flag('unresolved_code', inv.text);
    else ex.parseString(given.code, [...inv.via, `${program} -c`], { ifs: DEFAULT_IFS }, false, inv.stdin);
  }
  if (command) {
    const code = argv[i];
    ex.emit(inv, code === undefined ? {} : { payload: code });
    if (noexec || code === undefined) return;
    // `bash -i -c CMD` is interactive too: its startup file runs (and may alias CMD) first.
    if (interactive) runStartupFiles(ex, inv, startup);
    if (unresolved[i]) {
      ex.flag('unresolved_code', inv.text);
      return;
    }
    const params = argv.slice(i + 1).map((v, k) => (unresolved[i + 1 + k] ? null : v));
    ex.parseString(code, [...inv.via, `${program} -c`], { params, ifs: DEFAULT_IFS }, false, inv.stdin);
    return;
  }
  ex.emit(inv);
  if (noexec) return;
  const script = fromStdin ? undefined : argv[i];
  // Without a script the shell reads stdin, interactively when that is a terminal: the startup file
  // may run even without -i.
  if (interactive || script === undefined) runStartupFiles(ex, inv, startup);
  if (script !== undefined) {
    runShellFile(ex, inv, script, unresolved[i] ?? false, argv.slice(i + 1), unresolved.slice(i + 1));
    return;
  }
  readStdinAsScript(ex, inv, program);
};

/**
 * The startup files an interactive shell reads before anything else, judged as `source FILE` is
 * (`--norc` is not trusted to skip them). Without a file view they are unknown.
 */
function runStartupFiles(
  ex: Extractor,
  inv: Invocation,
  files: ReadonlyArray<{ word: string; unresolved: boolean }>,
): void {
  for (const { word, unresolved } of files) {
    if (word === '' && !unresolved) continue;
    if (!canRead(ex, inv)) ex.flag('startup_file', inv.text);
    else runShellFile(ex, inv, word, unresolved, [], []);
  }
}

/**
 * Commands a program reads on stdin and runs as shell: a here-doc or here-string is parsed, a file
 * (`sh < FILE`, `{ sh; } < FILE`) is read as a script, a pipe is unknown.
 */
export function readStdinAsScript(ex: Extractor, inv: Invocation, program: string): void {
  const file = stdinScriptFile(inv);
  if (file !== undefined) {
    runShellFile(ex, inv, file, /[$`]/.test(file), [], []);
    if (!canRead(ex, inv)) ex.flag('unresolved_script', inv.text);
    return;
  }
  if (!inv.stdin) return;
  if (inv.stdin.text === undefined) {
    ex.flag('pipe_to_shell', inv.text);
    return;
  }
  ex.parseString(inv.stdin.text, [...inv.via, `${program} <stdin`], { ifs: DEFAULT_IFS });
}

const SSH_VALUES = GLOBAL_VALUE_OPTIONS.ssh as ReadonlySet<string>;

/** `ssh [options] HOST [COMMAND …]`: the remote command is a shell string. */
export const ssh: Handler = (ex, inv) => {
  const { argv, unresolved } = inv;
  // A cluster ending in a letter that takes a value (`-vo X`, `-4p 22`) takes the next word too, as
  // every option scan reads clusters (option-scan.ts, takesValue).
  const i = firstOperand(argv, { values: SSH_VALUES, loneDashIsOperand: false });
  ex.emit(inv);
  sshOptions(ex, inv, i);
  const rest = argv.slice(i + 1);
  if (rest.length === 0) {
    readStdinAsScript(ex, inv, 'ssh');
    return;
  }
  if (unresolved.slice(i + 1).some(Boolean)) {
    ex.flag('unresolved_code', inv.text);
    return;
  }
  ex.parseString(rest.join(' '), [...inv.via, 'ssh'], { ifs: DEFAULT_IFS }, false, inv.stdin);
};

/** A `-o` option or config line that runs a command locally (or, RemoteCommand, on the host). */
const SSH_COMMAND_OPTION = /^\s*(proxycommand|localcommand|remotecommand|knownhostscommand)\s*[= ]\s*(.*)$/i;

/**
 * ssh's options before operand `end` (ssh, sftp): `-o ProxyCommand=…` and its kin are commands; a
 * config file given with `-F` is listed among the scripts (one the session wrote is refused) and,
 * where it can be read, its command lines are judged too.
 */
function sshOptions(ex: Extractor, inv: Invocation, end: number): void {
  const { argv, unresolved } = inv;
  const options: Array<[string, boolean]> = [];
  for (let k = 1; k < end; k++) {
    const arg = argv[k] as string;
    if (arg === '-o') options.push([argv[k + 1] ?? '', unresolved[k + 1] ?? false]);
    else if (/^-[46AaCfGgKkMNnqsTtVvXxYy]*o./.test(arg))
      options.push([arg.slice(arg.indexOf('o') + 1), unresolved[k] ?? false]);
    else if (/^-[46AaCfGgKkMNnqsTtVvXxYy]*o$/.test(arg))
      options.push([argv[k + 1] ?? '', unresolved[k + 1] ?? false]);
    const config = arg === '-F' ? k + 1 : /^-[46AaCfGgKkMNnqsTtVvXxYy]*F$/.test(arg) ? k + 1 : -1;
    if (config > 0 && argv[config] !== undefined) {
      const file = argv[config] as string;
      noteRunFile(ex, inv, file, unresolved[config] ?? false);
      const text = canRead(ex, inv) && !unresolved[config] ? readConfig(ex, file) : undefined;
      for (const line of text?.split('\n') ?? []) options.push([line, false]);
    }
    if (SSH_VALUES.has(arg) || /^-[46AaCfGgKkMNnqsTtVvXxYy]+[bcDEeFIiJLlmOopQRSWwB]$/.test(arg)) k++;
  }
  for (const [option, unknown] of options) {
    // ProxyCommand and LocalCommand run through the local shell; RemoteCommand through the remote one.
    const m = SSH_COMMAND_OPTION.exec(option);
    if (m && (m[2] as string).trim().toLowerCase() !== 'none')
      runValue(ex, inv, `ssh ${m[1]}`, m[2] as string, unknown);
  }
}

/** An ssh config file's text, bounded as scripts are; undefined where it cannot be read. */
function readConfig(ex: Extractor, file: string): string | undefined {
  const { paths, unresolved } = ex.res.paths(file);
  if (unresolved || paths.length !== 1 || !ex.res.files) return undefined;
  return ex.res.files.readText(paths[0] as string, 64 * 1024);
}

/** `sftp [options] HOST`: ssh's options, ProxyCommand among them, are sftp's too. */
export const sftp: Handler = (ex, inv) => {
  ex.emit(inv);
  sshOptions(ex, inv, firstOperand(inv.argv, { values: SFTP_VALUES, loneDashIsOperand: false }));
};
const SFTP_VALUES = new Set([
  '-B',
  '-b',
  '-c',
  '-D',
  '-F',
  '-i',
  '-J',
  '-l',
  '-o',
  '-P',
  '-R',
  '-S',
  '-s',
  '-X',
]);

/** `eval ARGS`: static arguments are parsed as a script; anything else is unknown-dynamic. */
export const evalHandler: Handler = (ex, inv) => {
  ex.emit(inv);
  const args = inv.argv.slice(1);
  // `eval "$(direnv hook bash)"`: a well-known tool's shell set-up (its command is a segment too).
  if (isKnownInitEval(inv.text)) return;
  if (inv.unresolved.slice(1).some(Boolean)) {
    ex.flag('eval', inv.text);
    return;
  }
  ex.parseString(args.join(' '), [...inv.via, 'eval'], { ifs: DEFAULT_IFS }, false, inv.stdin);
};

/**
 * `source FILE` / `. FILE`: runs a file in this shell. Well-known initialisation (a virtualenv's
 * activate, nvm.sh, cargo's env) is taken as what it is; any other file is read and parsed as shell
 * when a context gives the files, and is unknown-dynamic otherwise. Either way it is listed in the
 * scripts, so one the session wrote is refused.
 */
export const source: Handler = (ex, inv) => {
  ex.emit(inv);
  const word = inv.argv[1];
  if (word === undefined) return;
  // `source <(kubectl completion zsh)`: a well-known tool's set-up (its command is a segment too).
  if (isKnownInitSource(inv.text)) return;
  // Without a context `~` stays unresolved; with one it resolves unless the command assigned HOME.
  const textual = !ex.res.ctx && !/(^|[^\w])HOME=/.test(ex.res.texts.join('\n'));
  const home = ex.res.ctx?.home;
  const named = home && word.startsWith(`${home}/`) ? `~${word.slice(home.length)}` : word;
  if (isKnownInitFile(named) && (!inv.unresolved[1] || textual)) {
    if (canRead(ex, inv)) {
      const { paths, unresolved } = ex.res.paths(word);
      if (!unresolved && paths.length === 1) noteScript(ex.res, paths[0] as string);
    }
    return;
  }
  if (!canRead(ex, inv)) {
    ex.flag('source', inv.text);
    return;
  }
  runShellFile(ex, inv, word, inv.unresolved[1] ?? false, inv.argv.slice(2), inv.unresolved.slice(2));
};

/** `trap 'COMMANDS' SIGNAL…`: the commands run later, in this shell. */
export const trap: Handler = (ex, inv) => {
  ex.emit(inv);
  // `trap -- ACTION SIGNAL…`: `--` ends the options; after it even `-x` is an action.
  const at = inv.argv[1] === '--' ? 2 : 1;
  const action = inv.argv[at];
  if (action === undefined || action === '-' || (at === 1 && action.startsWith('-'))) return;
  if (inv.unresolved[at]) {
    ex.flag('unresolved_code', inv.text);
    return;
  }
  ex.parseString(action, [...inv.via, 'trap'], { ifs: DEFAULT_IFS });
};

/**
 * Short options taking a value, by program (a cluster ends at one: `su -sc` gives -s the value "c"),
 * and letters whose value is optional and only attached (`script -tFILE`).
 */
const COMMAND_OPTION_LETTERS: Record<string, { values: string; optional: string }> = {
  su: { values: 'sgGw', optional: '' },
  runuser: { values: 'ugGsw', optional: '' },
  sg: { values: '', optional: '' },
  script: { values: 'IOBEmT', optional: 't' },
};

/** `su [user] -c COMMAND`, `runuser … -c COMMAND`, `sg group -c COMMAND`, `script -qc COMMAND`. */
export const commandOption: Handler = (ex, inv, _env, program) => {
  ex.emit(inv);
  const { argv, unresolved } = inv;
  const letters = own(COMMAND_OPTION_LETTERS, program) ?? { values: '', optional: '' };
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i] as string;
    let code: string | undefined;
    let at = i;
    // `--comm CMD`, `--c=CMD`: getopt_long takes any unambiguous prefix of --command.
    const long = longOption(arg, 'command');
    if (long === null) {
      code = argv[i + 1];
      at = i + 1;
    } else if (long !== undefined) code = long;
    else if (/^-[^-]/.test(arg)) {
      // A short cluster as getopt reads it: `-qc CMD`, `-cCMD`; a value-taking letter ends it.
      for (let k = 1; k < arg.length; k++) {
        const letter = arg[k] as string;
        if (letter === 'c') {
          const attached = arg.slice(k + 1);
          code = attached !== '' ? attached : argv[i + 1];
          at = attached !== '' ? i : i + 1;
          break;
        }
        if (letters.values.includes(letter)) {
          if (k === arg.length - 1) i++;
          break;
        }
        if (letters.optional.includes(letter)) break;
      }
    }
    if (code === undefined) continue;
    if (unresolved[at]) {
      ex.flag('unresolved_code', inv.text);
      return;
    }
    ex.parseString(code, [...inv.via, `${program} -c`], { ifs: DEFAULT_IFS }, false, inv.stdin);
    return;
  }
  // `sg [-] GROUP COMMAND`: without -c, the word after the group is the command, run by /bin/sh -c.
  if (program === 'sg') {
    const operands = argv.map((a, k) => ({ a, k })).filter(({ a, k }) => k > 0 && a !== '-');
    const command = operands[1];
    if (command === undefined) return;
    if (unresolved[command.k]) ex.flag('unresolved_code', inv.text);
    else ex.parseString(command.a, [...inv.via, 'sg'], { ifs: DEFAULT_IFS }, false, inv.stdin);
  }
};

const WATCH_VALUES = new Set(['-n', '--interval', '-q', '--equexit', '-s', '--shell']);

/** `watch [options] COMMAND…`: the words are joined and run by `sh -c` (or exec'd with `-x`). */
export const watch: Handler = (ex, inv, env) => {
  const { argv } = inv;
  let exec = false;
  const i = firstOperand(argv, {
    values: WATCH_VALUES,
    loneDashIsOperand: false,
    visit: (arg) => {
      if (arg === '-x' || arg === '--exec') exec = true;
      return undefined;
    },
  });
  if (i >= argv.length) {
    ex.emit(inv);
    return;
  }
  // Without -x, watch joins the words and hands them to `sh -c`, which re-splits them; judge both readings.
  ex.resolve(inner(inv, i, 'watch'), env);
  if (!exec && !inv.unresolved.slice(i).some(Boolean)) {
    ex.parseString(argv.slice(i).join(' '), [...inv.via, 'watch'], { ifs: DEFAULT_IFS });
  }
};

const FLOCK_VALUES = new Set(['-w', '--timeout', '-E', '--conflict-exit-code']);

/** `flock [options] FILE COMMAND…` or `flock [options] FILE -c STRING`. */
export const flock: Handler = (ex, inv, env) => {
  const { argv, unresolved } = inv;
  let i = 1;
  while (i < argv.length) {
    const arg = argv[i] as string;
    const long = longOption(arg, 'command');
    if (arg === '-c' || long !== undefined) {
      if (long ? unresolved[i] : unresolved[i + 1]) {
        ex.flag('unresolved_code', inv.text);
        return;
      }
      ex.parseString(
        long ?? argv[i + 1] ?? '',
        [...inv.via, 'flock -c'],
        { ifs: DEFAULT_IFS },
        false,
        inv.stdin,
      );
      return;
    }
    if (!arg.startsWith('-')) break;
    i += takesValue(FLOCK_VALUES, arg) ? 2 : 1;
  }
  const rest = argv.slice(i + 1);
  const long = longOption(rest[0] ?? '', 'command');
  if (rest[0] === '-c' || long !== undefined) {
    if (long ? unresolved[i + 1] : unresolved[i + 2]) {
      ex.flag('unresolved_code', inv.text);
      return;
    }
    ex.parseString(long ?? rest[1] ?? '', [...inv.via, 'flock -c'], { ifs: DEFAULT_IFS }, false, inv.stdin);
    return;
  }
  if (rest.length === 0) {
    ex.emit(inv);
    return;
  }
  ex.resolve(inner(inv, i + 1, 'flock'), env);
};

/** Options of `docker exec|run`, `compose exec|run` and `kubectl exec|run|debug` that take a value. */
const CONTAINER_VALUES = new Set(
  (
    '-e --env -u --user -w --workdir --env-file --detach-keys --index --name -v --volume --mount -p --publish ' +
    '--network --net --network-alias -l --label --label-file --entrypoint --platform --pull --cpus -c --cpu-shares ' +
    '--cpuset-cpus -m --memory --memory-swap --memory-reservation --restart --add-host --device --cap-add --cap-drop ' +
    '--security-opt -h --hostname --domainname --dns --dns-search --dns-option --log-driver --log-opt --ulimit ' +
    '--tmpfs --shm-size --stop-signal --stop-timeout --health-cmd --health-interval --health-retries ' +
    '--health-timeout --health-start-period --ipc --pid --uts --userns --cgroupns --cgroup-parent --runtime ' +
    '--gpus --group-add --ip --ip6 --link --mac-address --expose --volumes-from --isolation --cidfile ' +
    '--attach -a --sysctl --storage-opt --oom-score-adj --pids-limit --blkio-weight --device-read-bps ' +
    '--device-write-bps --annotation --hostuser --requires --secret --uidmap --gidmap --arch --os --variant ' +
    '-n --namespace --context -c --container --image --image-pull-policy --target --profile --share-processes ' +
    '--attach-timeout --pod-running-timeout --overrides --port --labels --restart --env-from --serviceaccount ' +
    '--shell --timeout -f --filename --copy-to --custom --kubeconfig --cluster --as'
  ).split(' '),
);

/** Where the command of `SUB [options] TARGET COMMAND…` starts (after TARGET), or -1. */
function afterTarget(argv: readonly string[], from: number): number {
  let i = from;
  while (i < argv.length && (argv[i] as string).startsWith('-') && argv[i] !== '--') {
    const arg = argv[i] as string;
    i += CONTAINER_VALUES.has(arg) ? 2 : 1;
  }
  if (argv[i] === '--') i++;
  return i + 1 < argv.length ? i + 1 : -1;
}

/**
 * A command run in a container or pod: `docker exec|run … TARGET COMMAND…`, `docker compose
 * exec|run SERVICE COMMAND…`, `kubectl exec|run|debug … -- COMMAND…`, `oc rsh POD COMMAND…`.
 */
export const containerExec: Handler = (ex, inv, env, program) => {
  ex.emit(inv);
  const { argv } = inv;
  if (program === 'kubectl' || program === 'oc') {
    const dashes = argv.indexOf('--');
    const sub = argv.find(
      (w, k) => k > 0 && k < (dashes < 0 ? argv.length : dashes) && /^(exec|run|debug|rsh)$/.test(w),
    );
    if (sub === undefined) return;
    if (dashes > 0 && dashes < argv.length - 1) ex.resolve(inner(inv, dashes + 1, `${program} ${sub}`), env);
    else if (sub === 'rsh' || sub === 'exec') {
      // `oc rsh POD CMD`, and kubectl's older `exec POD CMD` without `--`, which it still runs.
      const at = afterTarget(argv, argv.indexOf(sub) + 1);
      if (at > 0) ex.resolve(inner(inv, at, `${program} ${sub}`), env);
    }
    return;
  }
  // `docker [global options] [container|compose] [global options] exec|run [options] TARGET COMMAND…`.
  const globals = own(GLOBAL_VALUE_OPTIONS, program) ?? new Set<string>();
  let at = 1;
  let compose = program.endsWith('-compose');
  for (let hop = 0; at < argv.length && hop < 2; hop++) {
    const table = compose ? (GLOBAL_VALUE_OPTIONS['docker-compose'] as ReadonlySet<string>) : globals;
    while (at < argv.length && (argv[at] as string).startsWith('-'))
      at += takesValue(table, argv[at] as string) ? 2 : 1;
    if (hop === 0 && (argv[at] === 'container' || argv[at] === 'compose')) {
      compose = argv[at] === 'compose';
      at++;
    }
  }
  const sub = argv[at];
  if (sub !== 'exec' && sub !== 'run') return;
  let i = at + 1;
  // stdin reaches the command only with -i (and not detached): otherwise what is piped in is not read.
  // compose exec passes stdin unless -T; compose run too.
  let interactive = compose;
  let detached = false;
  let entrypoint: string | undefined;
  while (i < argv.length && (argv[i] as string).startsWith('-') && argv[i] !== '--') {
    const arg = argv[i] as string;
    const value = /^--(interactive|detach)=(.*)$/.exec(arg) ?? /^-([id])=(.*)$/.exec(arg);
    const on = value ? !/^(false|0)$/i.test(value[2] as string) : true;
    if (/^(-[a-zA-Z]*i[a-zA-Z]*|--interactive(=.*)?|-i=.*)$/.test(arg) && !arg.startsWith('--detach'))
      interactive = on;
    if (/^(-[a-zA-Z]*d[a-zA-Z]*|--detach(=.*)?|-d=.*)$/.test(arg) && arg !== '--detach-keys') detached = on;
    if (compose && /^(-T|--no-TTY|--no-tty)$/.test(arg)) interactive = false;
    if (arg === '--entrypoint') entrypoint = argv[i + 1];
    else if (arg.startsWith('--entrypoint=')) entrypoint = arg.slice('--entrypoint='.length);
    i += CONTAINER_VALUES.has(arg) ? 2 : 1;
  }
  if (argv[i] === '--') i++;
  const target = argv[i];
  const label = `${program} ${compose ? 'compose ' : ''}${sub}`;
  const strip = (command: Invocation) => {
    if (!interactive || detached) delete command.stdin;
    return command;
  };
  if (entrypoint !== undefined && entrypoint !== '') {
    // `--entrypoint sh IMAGE -c '…'`: the entrypoint runs with the words after the image.
    const command = inner(inv, i, label);
    command.argv = [entrypoint, ...command.argv.slice(1)];
    ex.resolve(strip(command), env);
    return;
  }
  if (i + 1 >= argv.length || target === undefined) return;
  ex.resolve(strip(inner(inv, i + 1, label)), env);
};

/**
 * Whether a git invocation only asks for help: `--help` right after the subcommand (git runs `git
 * help SUB`), or, where the subcommand's options are read, `--help`/`-h` among them (parse-options
 * prints the usage and exits) — not an option's value (`-m --help`).
 */
function asksHelp(argv: readonly string[], subIndex: number, read: ParsedOptions | undefined): boolean {
  if (argv[subIndex + 1] === '--help') return true;
  return read?.canonical.includes('--help') === true;
}

/** Options whose value is only a message or the name of a branch to create, per subcommand. */
const NAMING: Readonly<Record<string, ReadonlySet<string>>> = {
  commit: new Set(['-m', '--message']),
  stash: new Set(['-m', '--message']),
  tag: new Set(['-m', '--message']),
  merge: new Set(['-m']),
  checkout: new Set(['-b', '--orphan']),
  switch: new Set(['-c', '--create', '--orphan']),
  worktree: new Set(['-b']),
};

/**
 * The invocation with a message or new branch name that stays one word (`-m "$MSG"`, `-b "$B"`)
 * counted as resolved: it can become neither an option nor a path, whatever it holds.
 */
function namesOnly(inv: Invocation, sub: string | undefined, subIndex: number): Invocation {
  const naming = sub !== undefined && Object.hasOwn(NAMING, sub) ? NAMING[sub] : undefined;
  if (naming === undefined || inv.single === undefined || !inv.unresolved.some(Boolean)) return inv;
  const unresolved = inv.unresolved.map(
    (u, k) =>
      u &&
      !(
        k > subIndex + 1 &&
        naming.has(inv.argv[k - 1] as string) &&
        !inv.unresolved[k - 1] &&
        inv.single?.has(inv.argv[k] as string)
      ),
  );
  return { ...inv, unresolved };
}

/** git: configuration and aliases (from the command line and the config files) are resolved before matching. */
export const git: Handler = (ex, inv, env) => {
  // A `-c` value the shell cannot tell, among git's own options (`git switch -c "$B"` names a branch).
  const globalsEnd = scanGlobals(inv.argv).subIndex;
  const unknownConfig = inv.argv.some(
    (arg, k) =>
      k > 0 &&
      k < globalsEnd &&
      inv.unresolved[k] &&
      (inv.argv[k - 1] === '-c' || inv.argv[k - 1] === '--config-env' || /^-c|^--config-env/.test(arg)),
  );
  if (unknownConfig) ex.flag('unresolved_config', inv.text);
  const files = gitFiles(ex, inv);
  const resolved = resolveGit(inv.argv, inv.assignments, files);
  if (resolved.aliasUnknown) ex.flag('git_alias_unreadable', inv.text);
  if (resolved.autocorrect) ex.flag('git_autocorrect', inv.text);
  if (resolved.shellAlias !== undefined) {
    ex.flag('shell_alias', inv.text);
    ex.parseString(resolved.shellAlias, [...inv.via, 'git alias'], env, false, inv.stdin);
  }
  const read = readOptions('git', resolved.argv.slice(1));
  const { subIndex } = scanGlobals(resolved.argv);
  const sub = resolved.argv[subIndex];
  // `git SUB … --help`: git shows SUB's manual or usage and does nothing else — as configured:
  // with options or GIT_* variables of its own (`-c man.x.cmd=…`), it stays as written.
  const plain = subIndex === 1 && !inv.assignments.some((a) => a.startsWith('GIT_'));
  if (sub !== undefined && plain && resolved.argv === inv.argv && asksHelp(resolved.argv, subIndex, read)) {
    ex.emit(inv, { argv: ['git', 'help', sub] });
    return;
  }
  const facts = sub === undefined ? {} : gitFacts(sub, resolved.argv.slice(subIndex + 1), read);
  // A pager or editor configured for this invocation is judged as the command git runs (its own
  // segments), so its configuration entry no longer gates by name; variables: see checkAssignment.
  const judged = new Set<string>();
  for (const { kind, value, entry } of gitCommandValues(inv.argv, inv.assignments)) {
    const text = commandText(kind, value);
    if (text !== '') ex.parseString(text, [...inv.via, `git ${kind}`], { ifs: DEFAULT_IFS });
    judged.add(entry);
  }
  const config = [...resolved.config, ...(facts.config ?? []), ...foreignConfig(ex, inv, files)].filter(
    (c) => !judged.has(c),
  );
  noteHooks(ex, sub, files);
  // Read before this command's own segment counts among those that may move HEAD.
  const branches =
    sub === 'push' && files
      ? ex.res.possibleBranches({ cwds: files.cwds ?? [], gitDir: files.gitDir, at: ex.at })
      : null;
  const headKnown = !ex.res.headMayMove;
  const argv = checkoutOfPath(ex, inv, resolved.argv, subIndex, read) ?? resolved.argv;
  ex.emit(resolved.argv === inv.argv ? namesOnly(inv, sub, subIndex) : inv, { argv, config });
  // A switch to a branch that can be told keeps the branch known (emit counted it as moving HEAD).
  const switches = sub === 'checkout' || sub === 'switch' || sub === 'rebase';
  if (headKnown && read && switches && files?.cwds) {
    const remotes = new Set(
      (files?.entries ?? []).map((e) => /^remote\.(.+)\.url=/i.exec(e)?.[1]).filter((r) => r !== undefined),
    );
    const effect =
      sub === 'rebase'
        ? rebaseEffect(read, inv.unresolved.some(Boolean))
        : switchEffect(sub, argv.slice(subIndex + 1), read, inv.unresolved.some(Boolean), remotes);
    if (effect !== 'unknown') {
      ex.res.headMayMove = false;
      if (effect !== 'keeps') {
        const where = ex.res.files ? switchPlaces(ex.res.files, files.cwds, files.gitDir) : ['?'];
        for (const place of where)
          ex.res.switchedTo.push(...effect.branches.map((branch) => ({ branch, where: place })));
        ex.res.lastSwitch = { branches: effect.branches, at: ex.at, where };
      }
    }
  }
  const segment = ex.segments[ex.segments.length - 1];
  if (segment?.program === 'git') {
    if (facts.configWrites) segment.config_writes = facts.configWrites;
    notePushConfig(ex, sub, read, facts.configWrites);
    noteRemoteNames(ex, inv, sub, read, files?.cwds?.[0] ?? ex.res.ctx?.cwd);
    const moot = mootForce(ex, sub, read, files?.cwds);
    if (moot !== undefined && segment.canonical) segment.canonical = moot(segment.canonical);
    noteGitWrites(ex, inv, segment, resolved.argv, subIndex);
    if (sub !== undefined && files?.cwds)
      noteWorktreeChanges(ex, inv, segment, sub, argv, subIndex, read, files);
    const steering = files ? steeringConfig(files.entries, read?.positionals) : [];
    if (steering.length > 0) segment.repo_config = steering;
    // Of the branches the push may be on, a default branch is the one reported. Where the branch
    // cannot be told (a switch to `-`, `gh pr checkout`, a directory not known), a push without a
    // destination of its own may be on the repository's main or master.
    const view = ex.res.files;
    if (files && read && view && sub === 'push') {
      const cwd = files.cwds?.[0] ?? ex.res.ctx?.cwd;
      const hasBranch = (name: string) => cwd !== undefined && namesRevision(view, cwd, name) === true;
      const candidates = branches ?? [[...DEFAULT_BRANCHES].find(hasBranch) ?? ''];
      // Configuration given through the environment or --config-env is not read here.
      const injected =
        inv.assignments.some((a) => /^GIT_CONFIG_(PARAMETERS|COUNT|KEY_\d+|VALUE_\d+)=/.test(a)) ||
        inv.argv.slice(1, subIndex).some((g) => /^--config-env(=|$)/.test(g));
      const changed = injected
        ? new Set([...ex.res.pushConfigChanged, 'push' as const])
        : ex.res.pushConfigChanged;
      const pushed = candidates
        .filter((b) => b !== '')
        .map((b) => pushedBranch(b, read, [...files.entries, ...resolved.config], hasBranch, changed))
        .filter((b) => b !== undefined)
        .sort((a, b) => Number(DEFAULT_BRANCHES.has(b)) - Number(DEFAULT_BRANCHES.has(a)))[0];
      if (pushed !== undefined) segment.pushes_branch = pushed;
    }
  }
  const unresolved = inv.unresolved.some(Boolean);
  for (const c of read?.commands ?? []) runValue(ex, inv, `git ${c.option}`, c.value, unresolved);
  if (facts.command !== undefined) runValue(ex, inv, 'git', facts.command, unresolved);
};

/** The directories clone, init DIR and worktree add create (git-writes.ts) are the segment's writes. */
function noteGitWrites(
  ex: Extractor,
  inv: Invocation,
  segment: ShellSegment,
  argv: string[],
  subIndex: number,
): void {
  // `-C DIR` moves where git runs: its paths are relative to DIR.
  let base = '';
  for (let k = 1; k < subIndex; k++)
    if (argv[k] === '-C' && argv[k + 1] !== undefined) base = posix.join(base, argv[k + 1] as string);
  // A patch `git apply` reads, relative to where git runs.
  const read = (path: string) => readInput(ex.res, path, base);
  const made = gitWrites(argv.slice(subIndex), base, read, stdinText(inv, read));
  const traces = [
    ...traceFiles(inv.assignments, segment.config ?? []),
    ...otherWorkTree(argv, inv.assignments, subIndex),
    ...configFileWritten(argv, subIndex, segment.config_writes),
  ];
  if (made.length === 0 && traces.length === 0) return;
  // An alias rewrote argv: the unresolved flags no longer line up, and any of them counts.
  const aligned = argv === inv.argv;
  const words = made.map((w) => ({
    text: w.text,
    unresolved: aligned
      ? (w.at < 0
          ? inv.unresolved.slice(subIndex).some(Boolean)
          : (inv.unresolved[subIndex + w.at] ?? false)) || inv.unresolved.slice(1, subIndex).some(Boolean)
      : inv.unresolved.some(Boolean),
    elsewhere: w.unknown === true,
    moved: w.moved === true,
  }));
  for (const t of traces) words.push({ ...t, elsewhere: false, moved: false });
  addSegmentWrites(segment, words, ex.res, inv.temp ?? null);
  const files = ex.res.files;
  if (files && !ex.res.folded) {
    const replaced = made.flatMap((w, n) => {
      if (w.replaces !== true || words[n]?.unresolved) return [];
      const { paths, unresolved } = ex.res.paths(w.text);
      return unresolved ? [] : paths;
    });
    noteLosses(files, segment, replaced);
  }
  // A clone, a worktree, a submodule or an index checked out under a prefix fills a whole tree: every
  // file below is the session's (`git clone . cl` then `tclsh cl/x.tcl` runs a file it wrote).
  if (made.length > 0 && GIT_TREES.has(segment.subcommand ?? '')) segment.writes_trees = true;
  noteMovesInto(segment, ex.res);
}

/**
 * The files `git SUB` takes into the work tree from commits (git-worktree.ts), kept on the segment
 * for core to judge; a revision that cannot be told, or more changes than are read, is dynamic.
 */
function noteWorktreeChanges(
  ex: Extractor,
  inv: Invocation,
  segment: ShellSegment,
  sub: string,
  argv: readonly string[],
  subIndex: number,
  read: ParsedOptions | undefined,
  files: { entries: readonly string[]; cwds?: readonly string[] },
): void {
  const view = ex.res.files;
  if (!view || !canRead(ex, inv)) return;
  const remotes = files.entries
    .map((e) => /^remote\.(.+)\.url=/i.exec(e)?.[1])
    .filter((r): r is string => r !== undefined);
  // The work trees the command may run in (each `cd` may leave it in another).
  const tops = () => [
    ...new Set((files.cwds ?? []).map((cwd) => findTopLevel(view, cwd)).filter((t) => t !== undefined)),
  ];
  // The word after the subcommand (`bisect start`, `stash push`), as git's option model reads it when
  // it has one for the subcommand.
  const action = read ? read.positionals[1] : argv.slice(subIndex + 1).find((a) => !a.startsWith('-'));
  // A bisection checks out commits it chooses as it goes: what it writes cannot be told.
  if (sub === 'bisect' && !/^(log|visualize|view|terms|help)$/.test(action ?? '')) {
    ex.flag('worktree_unresolved', inv.text);
    return;
  }
  // A sparse checkout removes (or brings back) whatever lies outside its patterns: any entry of the
  // work tree's top may be written.
  if (sub === 'sparse-checkout' && action !== undefined && action !== 'list' && action !== 'check-rules') {
    const entries = tops().flatMap((top) =>
      (view.readdir(top) ?? []).filter((name) => name !== '.git').map((name) => posix.join(top, name)),
    );
    if (entries.length > 0) segment.worktree_changes = entries;
    return;
  }
  if (!read) return;
  // `git stash [push|save]`: the work tree goes back to HEAD (and loses its untracked files with -u).
  if (sub === 'stash' && (action === undefined || action === 'push' || action === 'save')) {
    const untracked = read.canonical.some((o) => o === '--include-untracked' || o === '--all');
    const found = tops();
    if (found.length > 0) segment.stashes = found.map((top) => ({ top, untracked }));
    return;
  }
  const changes = worktreeChanges(sub, argv.slice(subIndex), read, remotes);
  if (changes === undefined || changes.length === 0) return;
  const changed =
    changes === 'unknown' || inv.unresolved.some(Boolean) ? 'unknown' : changedFiles(view, tops(), changes);
  if (changed === 'unknown') ex.flag('worktree_unresolved', inv.text);
  else if (changed.length > 0) segment.worktree_changes = changed;
}

/** git subcommands whose written directory is filled with files they do not name. */
const GIT_TREES: ReadonlySet<string> = new Set(['clone', 'worktree', 'submodule', 'checkout-index', 'init']);

/** git subcommands that cannot make a branch appear before a later one in the same command. */
const MAKES_NO_BRANCH = new Set([
  'status',
  'log',
  'diff',
  'show',
  'add',
  'rm',
  'mv',
  'init',
  'config',
  'commit',
]);

/**
 * The branch a forcing option would overwrite, and the options as they read once the force has
 * nothing to overwrite: `git branch -M NEW` / `-C NEW` (rename or copy the current branch) and
 * `git branch -f NAME [START]` drop `--force`, `git checkout -B NAME` is `-b NAME`, `git switch -C
 * NAME` is `-c NAME` (GitHub's `git branch -M main` in a new repository; `checkout -B topic` where
 * there is no topic). Undefined when nothing is forced or no single branch name can be told.
 */
function forcedBranch(
  sub: string | undefined,
  read: ParsedOptions,
): { name: string; moot: (options: readonly string[]) => string[] } | undefined {
  const options = read.canonical;
  if (sub === 'branch') {
    if (!options.includes('--force')) return undefined;
    if (options.some((o) => !['--move', '--copy', '--force', '--quiet'].includes(o))) return undefined;
    const names = read.positionals.slice(1);
    const moves = options.includes('--move') || options.includes('--copy');
    // A move or copy names its target alone here; `-f NAME START` names the branch first.
    if (moves ? names.length !== 1 : names.length < 1 || names.length > 2) return undefined;
    return { name: names[0] as string, moot: (all) => all.filter((o) => o !== '--force') };
  }
  const flag = sub === 'checkout' ? '-B' : sub === 'switch' ? '--force-create' : undefined;
  if (flag === undefined) return undefined;
  const values = options.filter((o) => o.startsWith(`${flag}=`));
  if (values.length !== 1) return undefined;
  const to = sub === 'checkout' ? '-b' : '--create';
  const moot = (all: readonly string[]) =>
    all.map((o) => (o === flag ? to : o.startsWith(`${flag}=`) ? `${to}=${o.slice(flag.length + 1)}` : o));
  return { name: (values[0] as string).slice(flag.length + 1), moot };
}

/**
 * How the options of a branch-forcing git command read when its force has nothing to overwrite (forcedBranch):
 * no ref of that name, in one known directory, and nothing earlier in the command can have made
 * one (a commit makes only the current branch, which a rename onto itself keeps). Undefined when
 * the force stands.
 */
function mootForce(
  ex: Extractor,
  sub: string | undefined,
  read: ParsedOptions | undefined,
  cwds: readonly string[] | undefined,
): ((options: readonly string[]) => string[]) | undefined {
  const view = ex.res.files;
  if (!read || !view || cwds?.length !== 1) return undefined;
  const forced = forcedBranch(sub, read);
  if (forced === undefined || /[$`*?[]/.test(forced.name) || forced.name === '') return undefined;
  const earlier = ex.segments.slice(0, -1);
  if (earlier.some((s) => s.program === 'git' && !MAKES_NO_BRANCH.has(s.subcommand ?? ''))) return undefined;
  return namesRevision(view, cwds[0] as string, forced.name, false) === false ? forced.moot : undefined;
}

/**
 * Remote names the session chooses (git-remotes.ts): `git remote add|set-url|rename` defines one;
 * a push to a remote by name (origin when none is given) relies on it, and one defined by this
 * same command makes the push go where the command chose.
 */
function noteRemoteNames(
  ex: Extractor,
  inv: Invocation,
  sub: string | undefined,
  read: ParsedOptions | undefined,
  cwd: string | undefined,
): void {
  if (!read) return;
  if (sub === 'remote')
    noteRemotesDefined(ex.res, cwd, remotesNamed(read.positionals[1], read.positionals.slice(2)));
  if (sub === 'clone' && cwd !== undefined) {
    const made = gitWrites(read.positionals, '');
    const dir = made[made.length - 1]?.text;
    const origin =
      read.canonical.find((o) => o.startsWith('--origin='))?.slice('--origin='.length) ?? 'origin';
    if (dir !== undefined && !/[$`]/.test(dir)) noteCloneRemote(ex.res, posix.resolve(cwd, dir), origin);
  }
  if (sub !== 'push') return;
  const remote = read.positionals[1] ?? 'origin';
  // A URL or a path is a destination of its own (git.push.elsewhere), not a name.
  if (/[:/\\]/.test(remote) || remote.startsWith('.') || remote.startsWith('~')) return;
  if (pushRelies(ex.res, cwd, remote)) ex.flag('unresolved_config', inv.text);
}

/**
 * The file `git config` writes when it sets, unsets or edits anything outside the repository's own
 * configuration: `--global` (~/.gitconfig), `--system` (/etc/gitconfig), `--file F`. Which keys are
 * judged elsewhere (git.config.*); this is where they land — the person's home, the system.
 */
function configFileWritten(
  argv: readonly string[],
  subIndex: number,
  writes: readonly string[] | undefined,
): Array<{ text: string; unresolved: boolean }> {
  if (argv[subIndex] !== 'config' || writes === undefined || writes.length === 0) return [];
  const rest = argv.slice(subIndex + 1);
  const out: Array<{ text: string; unresolved: boolean }> = [];
  for (const [k, arg] of rest.entries()) {
    if (arg === '--global') out.push({ text: '~/.gitconfig', unresolved: false });
    else if (arg === '--system') out.push({ text: '/etc/gitconfig', unresolved: false });
    else if ((arg === '-f' || arg === '--file') && rest[k + 1] !== undefined)
      out.push({ text: rest[k + 1] as string, unresolved: /[$`]/.test(rest[k + 1] as string) });
    else if (arg.startsWith('--file=')) out.push({ text: arg.slice(7), unresolved: /[$`]/.test(arg) });
  }
  return out;
}

/** Subcommands that write files of the work tree (its checkout, its untracked files, its index's files). */
const WRITES_WORK_TREE = new Set(
  (
    'stash checkout switch reset restore merge pull rebase cherry-pick revert am apply clean read-tree ' +
    'checkout-index rm mv sparse-checkout worktree submodule bisect'
  ).split(' '),
);

/**
 * The work tree given by `--work-tree DIR` or GIT_WORK_TREE, written as a whole by a subcommand
 * that writes the work tree (`git --work-tree=../other stash -u` removes other's untracked files).
 */
function otherWorkTree(
  argv: readonly string[],
  assignments: readonly string[],
  subIndex: number,
): Array<{ text: string; unresolved: boolean }> {
  if (!WRITES_WORK_TREE.has(argv[subIndex] ?? '')) return [];
  const out: Array<{ text: string; unresolved: boolean }> = [];
  const add = (dir: string) => out.push({ text: dir, unresolved: /[$`]/.test(dir) });
  for (let k = 1; k < subIndex; k++) {
    const arg = argv[k] as string;
    if (arg === '--work-tree' && argv[k + 1] !== undefined) add(argv[k + 1] as string);
    else if (arg.startsWith('--work-tree=')) add(arg.slice('--work-tree='.length));
  }
  for (const a of assignments) if (a.startsWith('GIT_WORK_TREE=')) add(a.slice('GIT_WORK_TREE='.length));
  return out;
}

/**
 * A git command that changes what a later push without a destination reads of its configuration:
 * push.default or a push refspec (`push`), or a branch's upstream (`upstream`).
 */
function notePushConfig(
  ex: Extractor,
  sub: string | undefined,
  read: ParsedOptions | undefined,
  writes: readonly string[] | undefined,
): void {
  const changed = ex.res.pushConfigChanged;
  for (const w of writes ?? []) {
    // push.default=current|simple|nothing pushes the current branch to itself, or nothing.
    if (
      /^remote\.[^=]*\.push=/.test(w) ||
      (/^push\.default=/.test(w) && !/=(current|simple|nothing)$/.test(w))
    )
      changed.add('push');
    if (/^branch\.[^=]*\.(merge|remote|pushremote)=/.test(w) || /^remote\.pushdefault/.test(w))
      changed.add('upstream');
  }
  if (!read) return;
  const options = read.canonical;
  const upstreamSet =
    (sub === 'branch' && options.some((o) => /^--(set-upstream-to|track|set-upstream)(=|$)/.test(o))) ||
    (sub === 'push' && options.some((o) => /^--set-upstream$/.test(o))) ||
    // A branch created from a remote's branch tracks it (branch.autoSetupMerge).
    ((sub === 'checkout' || sub === 'switch') &&
      (options.some((o) => /^--track(=|$)/.test(o)) ||
        (options.some((o) => /^(-b|-B|--create|--force-create)=/.test(o)) && read.positionals.length > 1)));
  if (upstreamSet) changed.add('upstream');
}

/** The text on a command's stdin: static text, or a `< FILE` read; undefined when not known. */
/** Branch names that are a repository's default by convention (the rules match the same names). */
const DEFAULT_BRANCHES = new Set(['main', 'master']);

/**
 * The branch a push without a destination of its own updates (`git push`, `git push origin`,
 * `git push origin HEAD`): `current` (read from the repository before the push, resolve.ts), with
 * push.default=upstream the one it tracks, with push.default=matching a default branch the
 * repository has (every local branch the remote also has is pushed); undefined when the push names
 * its own refs.
 */
function pushedBranch(
  current: string,
  read: ParsedOptions,
  entries: readonly string[],
  hasBranch: (name: string) => boolean,
  changed: ReadonlySet<'push' | 'upstream'> = new Set(),
): string | undefined {
  if (read.positionals[0] !== 'push') return undefined;
  const main = () => [...DEFAULT_BRANCHES].find(hasBranch);
  // A push.default or push refspec the command changed (or gave through the environment) before the
  // push is not in the files read; one given with --config-env is not known either.
  if (changed.has('push') || entries.some((e) => /^remote\.[^=]*\.push=!\$/.test(e)))
    return main() ?? current;
  // Every local branch: main among them.
  if (read.canonical.some((o) => /^--(all|branches|mirror)$/.test(o))) return main();
  if (read.canonical.includes('--tags')) return undefined;
  const rest = read.positionals.slice(1);
  // A refspec or configured push refspec (remote.NAME.push, from the files or `-c`) names its own
  // destination: a default branch, or a pattern that takes every branch, is reported.
  const configured = rest.length <= 1 ? entries.filter((e) => /^remote\.[^=]*\.push=/i.test(e)) : [];
  const specs = [...rest.slice(1), ...configured.map((e) => e.slice(e.indexOf('=') + 1))];
  for (const spec of specs) {
    const dst = (spec.includes(':') ? spec.slice(spec.indexOf(':') + 1) : spec).replace(/^\+/, '');
    const named = /^(refs\/heads\/)?(main|master)$/.exec(dst);
    if (named) return named[2];
    if (dst.includes('*')) return main();
  }
  if (configured.length > 0) return undefined;
  if (rest.length > 2 || (rest.length === 2 && !/^\+?(HEAD|@)$/.test(rest[1] as string))) return undefined;
  if (rest.length === 2) return current;
  const setting = (key: string) =>
    entries.findLast((e) => e.toLowerCase().startsWith(`${key.toLowerCase()}=`))?.slice(key.length + 1);
  const mode = setting('push.default')?.toLowerCase();
  // An upstream the command set before the push is not in the files read either.
  if (mode === 'matching') return [...DEFAULT_BRANCHES].find(hasBranch) ?? current;
  if ((mode === 'upstream' || mode === 'tracking') && changed.has('upstream')) return main() ?? current;
  const merge = setting(`branch.${current}.merge`)?.replace(/^refs\/heads\//, '');
  return (mode === 'upstream' || mode === 'tracking') && merge ? merge : current;
}

/**
 * `git checkout WORD` without `--`: git switches to the revision WORD when there is one and
 * otherwise overwrites the path WORD with the index's copy, losing its uncommitted changes. With a
 * file view such a call is given its `--` (`git checkout -- WORD`), so the rules read it as the path
 * checkout it is; undefined when it is not one or that cannot be told (the command is left as is).
 */
function checkoutOfPath(
  ex: Extractor,
  inv: Invocation,
  argv: string[],
  subIndex: number,
  read: ReturnType<typeof readOptions>,
): string[] | undefined {
  const res = ex.res;
  const files = res.files;
  if (argv[subIndex] !== 'checkout' || !read || !files) return undefined;
  if (inv.unresolved.some(Boolean) || argv.slice(subIndex + 1).includes('--')) return undefined;
  if (read.canonical.some((o) => /^(-b|-B|--orphan|--detach)(=|$)/.test(o))) return undefined;
  const operands = read.positionals.slice(1);
  const word = operands[0];
  if (operands.length !== 1 || word === undefined) return undefined;
  const guess = !read.canonical.includes('--no-guess');
  const withPath = () => {
    const at = argv.lastIndexOf(word);
    return [...argv.slice(0, at), '--', ...argv.slice(at)];
  };
  // Where the shell is cannot be told (`cd "$(git rev-parse --show-toplevel)" && git checkout x`):
  // a word that is no revision of the repository the command starts in is taken as a path.
  if (!res.dirs) {
    const cwd = res.ctx?.cwd;
    return cwd !== undefined && namesRevision(files, cwd, word, guess) === true ? undefined : withPath();
  }
  // Where git runs: each directory the command may be in, moved by -C. With another repository or
  // work tree named, whether the word is a revision there is not read: a file of that name here is
  // taken as the path it may be.
  const globals = argv.slice(1, subIndex);
  const elsewhere = globals.some((g) => /^(--git-dir|--work-tree)(=|$)/.test(g));
  let dirs: readonly string[] = res.dirs;
  for (let k = 0; k < globals.length; k++) {
    if (globals[k] !== '-C') continue;
    const to = globals[k + 1];
    if (to === undefined) return undefined;
    dirs = dirs.map((d) => posix.resolve(d, to));
  }
  const isPath = (dir: string) =>
    files.realpath(posix.resolve(dir, word)) !== undefined &&
    // A word that surely names a revision switches; one that may not (an abbreviated hash, `x~`) is
    // taken as the path it also is.
    (elsewhere || namesRevision(files, dir, word, guess) !== true);
  if (!dirs.some(isPath)) return undefined;
  return withPath();
}

/**
 * Keys in the config files that turn a plain push into a forced or mirror push (for the remote the
 * push goes to), or make clean delete without -f; lower-cased.
 */
function steeringConfig(entries: readonly string[], positionals: readonly string[] | undefined): string[] {
  const remotes = new Set<string>();
  const named = positionals?.[0] === 'push' ? positionals[1] : undefined;
  if (named !== undefined) remotes.add(named);
  else {
    // No remote named: the one git would pick (remote.pushDefault, a branch's pushRemote or remote, origin).
    remotes.add('origin');
    for (const e of entries) {
      const m = /^(remote\.pushdefault|branch\..*\.(pushremote|remote))=(.*)$/i.exec(e);
      if (m) remotes.add(m[3] as string);
    }
  }
  return entries
    .filter((e) => {
      // A protection lifted, or objects and reflogs expired now by the next gc.
      if (/^(clean\.requireforce|gc\.(\S+\.)?(pruneexpire|reflogexpire|reflogexpireunreachable))=/i.test(e))
        return true;
      const m = /^remote\.(.*)\.(push|mirror)=/i.exec(e);
      return m !== null && remotes.has(m[1] as string);
    })
    .map((e) => e.toLowerCase());
}

/** The configuration files git would read for this invocation, when the context gives a file view. */
function gitFiles(ex: Extractor, inv: Invocation): GitFiles | undefined {
  const res = (ex as unknown as { res?: ResolverLike }).res;
  const files = res?.files;
  if (!res || !files) return undefined;
  const env = new Map<string, string>();
  for (const a of inv.assignments) {
    const eq = a.indexOf('=');
    if (eq > 0) env.set(a.slice(0, eq), a.slice(eq + 1));
  }
  let dirs = res.dirs;
  let gitDir: string | undefined;
  const { subIndex } = scanGlobals(inv.argv);
  for (let k = 1; k < subIndex; k++) {
    const arg = inv.argv[k] as string;
    if (arg === '-C' || arg === '--git-dir') {
      const value = inv.argv[k + 1];
      if (value === undefined || inv.unresolved[k + 1]) dirs = null;
      else if (arg === '-C') dirs = dirs?.map((d) => posix.resolve(d, value)) ?? null;
      else gitDir = value;
    } else if (arg.startsWith('--git-dir=')) gitDir = arg.slice(10);
  }
  if (!dirs || dirs.length === 0 || dirs.some((d) => !d.startsWith('/')))
    return { entries: [], unreadable: true };
  const entries: string[] = [];
  let unreadable = false;
  // One parse reads the same files once, however many git commands it holds (the file view is bounded).
  const cache = res.slot(CONFIG_CACHE, () => new Map<string, GitFileConfig>());
  for (const cwd of dirs) {
    const key = JSON.stringify([cwd, gitDir, res.ctx?.home, [...env].filter(([k]) => CONFIG_ENV.test(k))]);
    const config = cache.get(key) ?? readGitConfig({ files, cwd, home: res.ctx?.home, env, gitDir });
    cache.set(key, config);
    entries.push(...config.entries);
    unreadable ||= config.unreadable;
    // A config file the repository includes from the work tree: one the session wrote is refused
    // until read back, as a script is (`include.path = ../.gitconfig-shared` setting core.fsmonitor).
    for (const path of config.includes ?? []) noteScript(ex.res, path);
  }
  return { entries, unreadable, cwds: dirs, gitDir: gitDir ?? env.get('GIT_DIR'), home: res.ctx?.home };
}

/**
 * A repository named by --git-dir or GIT_DIR that is not the one git finds from the working directory
 * (`git --git-dir=/tmp/x diff`): its configuration is as good as given on the command line, so its
 * entries are the invocation's own and the rules judge them (diff.external, core.fsmonitor, …). One
 * that cannot be read (made by the same command) is unknown.
 */
function foreignConfig(ex: Extractor, inv: Invocation, files: GitFiles | undefined): string[] {
  const view = ex.res.files;
  const cwd = files?.cwds?.[0];
  const common = inv.assignments
    .find((a) => a.startsWith('GIT_COMMON_DIR='))
    ?.slice('GIT_COMMON_DIR='.length);
  if (!view || cwd === undefined || (!files?.gitDir && common === undefined)) return [];
  const own = findGitDir(view, cwd, { entries: [], unreadable: false });
  const real = (dir: string) => view.realpath(dir) ?? dir;
  // The directory named, and the common directory it shares (its `commondir` file, or GIT_COMMON_DIR).
  const dirs: string[] = [];
  if (files?.gitDir) {
    const named = posix.resolve(cwd, files.gitDir);
    const linked = view.readText(posix.join(named, 'commondir'), 4096)?.trim();
    dirs.push(named);
    if (linked) dirs.push(posix.resolve(named, linked));
  }
  if (common !== undefined) dirs.push(posix.resolve(cwd, common));
  const out: string[] = [];
  for (const dir of dirs) {
    if (own !== undefined && real(own) === real(dir)) continue;
    const text = view.readText(posix.join(dir, 'config'), 64 * 1024);
    if (text === undefined) {
      ex.flag('unresolved_config', inv.text);
      continue;
    }
    // Whether it is bare says nothing about what runs.
    for (const [key, value] of parseGitConfig(text)) if (key !== 'core.bare') out.push(`${key}=${value}`);
    const worktree = view.readText(posix.join(dir, 'config.worktree'), 64 * 1024);
    for (const [key, value] of parseGitConfig(worktree ?? '')) out.push(`${key}=${value}`);
  }
  return out;
}

/** The configuration git reads for an invocation, and where it runs (for its hooks). */
interface GitFiles extends FileConfig {
  cwds?: readonly string[];
  gitDir?: string | undefined;
  home?: string | undefined;
}

/**
 * The hook files (git-hooks.ts) the command may run are scripts it runs: core refuses it when the
 * session wrote one of them since it last read it.
 */
function noteHooks(ex: Extractor, sub: string | undefined, files: GitFiles | undefined): void {
  if (!mayRunHooks(sub)) return;
  noteRunsHooks(ex.res);
  const view = ex.res.files;
  // Where the directory cannot be told (`cd "$(git rev-parse --show-toplevel)"`), the repository the
  // command starts in: another one's hooks could only be the session's through a write outside.
  const ctx = ex.res.ctx;
  const cwds = files?.cwds ?? (ctx ? [ctx.cwd] : undefined);
  if (!view || !files || !cwds) return;
  const entries =
    files.cwds !== undefined || !ctx
      ? files.entries
      : readGitConfig({ files: view, cwd: ctx.cwd, home: ctx.home, env: new Map() }).entries;
  // From the files only: a `-c core.hooksPath=` of the command is gated by itself.
  let hooksPath: string | undefined;
  for (const e of entries)
    if (e.toLowerCase().startsWith('core.hookspath=')) hooksPath = e.slice('core.hookspath='.length);
  for (const cwd of cwds)
    for (const path of hookFiles(view, cwd, { hooksPath, gitDir: files.gitDir, home: files.home })) {
      noteScript(ex.res, path);
      judgeHookText(ex, view, path);
    }
}

/** Hooks read in this parse: a hook whose commands run git again is read once. */
const HOOKS_READ = {};
const HOOK_BYTES = 64 * 1024;

/**
 * What a shell hook runs is judged as a script's commands are, quietly: `npm test` there runs the
 * package's script (itself listed, so one the session wrote is refused), `rm -rf …` is gated. What
 * cannot be resolved in a hook (husky's `. "$(dirname "$0")/h"`) adds nothing, as a heredoc does.
 */
function judgeHookText(ex: Extractor, view: FileView, path: string): void {
  if (!HOOK_NAMES.has(posix.basename(path))) return;
  const read = ex.res.slot(HOOKS_READ, () => new Set<string>());
  if (read.has(path)) return;
  read.add(path);
  const text = view.readText(path, HOOK_BYTES);
  if (text === undefined) return;
  // As a script's `#!` is read: another language's hook is listed, not read (a `#!` that cannot be
  // told is read as shell, as a hook without one is).
  const interpreter = shebang(text);
  if (interpreter && !SHELLS.has(interpreter)) return;
  ex.parseString(text, [`${HOOK_VIA} ${posix.basename(path)}`], { ifs: ' \t\n' }, true);
}

/** Environment variables that change which config files git reads. */
const CONFIG_ENV = /^(HOME|XDG_CONFIG_HOME|GIT_DIR|GIT_CONFIG_GLOBAL|GIT_CONFIG_SYSTEM|GIT_CONFIG_NOSYSTEM)$/;
/** The key of a parse's git configuration files read so far (Resolver.slot). */
const CONFIG_CACHE = {};

/** The part of the resolver (resolve.ts) the git handler needs: the file view and the directories. */
interface ResolverLike {
  files?: FileView | undefined;
  ctx?: ResolveContext | undefined;
  dirs: string[] | null;
  slot<T>(key: object, make: () => T): T;
}
