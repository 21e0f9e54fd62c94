// Handlers for programs that run other commands: shells (`-c`, a script, stdin), `ssh`, `eval`,
// `source`, `trap`, `su -c`, `watch`, `flock`, `kubectl exec`, `docker exec`, and git's aliases.
import type { Extractor, Handler, Invocation } from './extract.js';
import { resolveGit } from './git.js';
import { firstOperand } from './option-scan.js';
import { GLOBAL_VALUE_OPTIONS } from './options.js';
import { slice } from './prefixes.js';

const DEFAULT_IFS = ' \t\n';

function inner(inv: Invocation, from: number, label: string, to?: number): Invocation {
  return { ...inv, ...slice(inv, from, to), via: [...inv.via, label] };
}

/** `bash [options] -c STRING [$0 [$1 …]]`, `bash SCRIPT`, or `bash` reading commands on stdin. */
export const shell: Handler = (ex, inv, _env, program) => {
  const { argv, unresolved } = inv;
  let command = false;
  let noexec = false;
  let fromStdin = false;
  let interactive = false;
  let startup = false;
  let i = 1;
  for (; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--' || arg === '-') {
      i++;
      break;
    }
    if (unresolved[i] && arg.startsWith('-')) ex.flag('unresolved_option', inv.text);
    if (arg.startsWith('--')) {
      if (arg === '--rcfile' || arg === '--init-file') {
        startup = true;
        i++;
      } else if (arg.startsWith('--rcfile=') || arg.startsWith('--init-file=')) startup = true;
      continue;
    }
    if ((arg[0] === '-' || arg[0] === '+') && arg.length > 1) {
      const letters = arg.slice(1);
      if (letters[0] === 'o' || letters[0] === 'O') {
        if (letters.length === 1) i++;
        continue;
      }
      if (arg[0] === '-') {
        if (letters.includes('c')) command = true;
        if (letters.includes('n')) noexec = true;
        if (letters.includes('s')) fromStdin = true;
        if (letters.includes('i')) interactive = true;
      }
      continue;
    }
    break;
  }
  if (command) {
    const code = argv[i];
    ex.emit(inv, code === undefined ? {} : { payload: code });
    if (noexec || code === undefined) return;
    if (unresolved[i]) {
      ex.flag('unresolved_code', inv.text);
      return;
    }
    const params = argv.slice(i + 1).map((v, k) => (unresolved[i + 1 + k] ? null : v));
    ex.parseString(code, [...inv.via, `${program} -c`], { params, ifs: DEFAULT_IFS });
    return;
  }
  ex.emit(inv);
  if (noexec) return;
  if (interactive && startup) ex.flag('startup_file', inv.text);
  const script = fromStdin ? undefined : argv[i];
  if (script !== undefined) {
    if (unresolved[i]) ex.flag('unresolved_script', inv.text);
    return;
  }
  readStdinAsScript(ex, inv, program);
};

function readStdinAsScript(ex: Extractor, inv: Invocation, program: string): void {
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
  const i = firstOperand(argv, { values: SSH_VALUES, loneDashIsOperand: false });
  ex.emit(inv);
  const rest = argv.slice(i + 1);
  if (rest.length === 0) {
    readStdinAsScript(ex, inv, 'ssh');
    return;
  }
  if (unresolved.slice(i + 1).some(Boolean)) {
    ex.flag('unresolved_code', inv.text);
    return;
  }
  ex.parseString(rest.join(' '), [...inv.via, 'ssh'], { ifs: DEFAULT_IFS });
};

/** `eval ARGS`: static arguments are parsed as a script; anything else is unknown-dynamic. */
export const evalHandler: Handler = (ex, inv) => {
  ex.emit(inv);
  const args = inv.argv.slice(1);
  if (inv.unresolved.slice(1).some(Boolean)) {
    ex.flag('eval', inv.text);
    return;
  }
  ex.parseString(args.join(' '), [...inv.via, 'eval'], { ifs: DEFAULT_IFS });
};

/** `source FILE` / `. FILE`: runs a file we cannot see. */
export const source: Handler = (ex, inv) => {
  ex.emit(inv);
  ex.flag('source', inv.text);
};

/** `trap 'COMMANDS' SIGNAL…`: the commands run later, in this shell. */
export const trap: Handler = (ex, inv) => {
  ex.emit(inv);
  const action = inv.argv[1];
  if (action === undefined || action === '-' || action.startsWith('-')) return;
  if (inv.unresolved[1]) {
    ex.flag('unresolved_code', inv.text);
    return;
  }
  ex.parseString(action, [...inv.via, 'trap'], { ifs: DEFAULT_IFS });
};

/** `su [user] -c COMMAND`, `runuser … -c COMMAND`, `sg group -c COMMAND`. */
export const commandOption: Handler = (ex, inv, _env, program) => {
  ex.emit(inv);
  const { argv, unresolved } = inv;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i] as string;
    let code: string | undefined;
    let at = i;
    if (arg === '-c' || arg === '--command') {
      code = argv[i + 1];
      at = i + 1;
    } else if (arg.startsWith('--command=')) code = arg.slice(10);
    if (code === undefined) continue;
    if (unresolved[at]) {
      ex.flag('unresolved_code', inv.text);
      return;
    }
    ex.parseString(code, [...inv.via, `${program} -c`], { ifs: DEFAULT_IFS });
    return;
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

/** `flock [options] FILE COMMAND…` or `flock [options] FILE -c STRING`. */
export const flock: Handler = (ex, inv, env) => {
  const { argv, unresolved } = inv;
  let i = 1;
  while (i < argv.length) {
    const arg = argv[i] as string;
    if (arg === '-c' || arg === '--command') {
      if (unresolved[i + 1]) {
        ex.flag('unresolved_code', inv.text);
        return;
      }
      ex.parseString(argv[i + 1] ?? '', [...inv.via, 'flock -c'], { ifs: DEFAULT_IFS });
      return;
    }
    if (!arg.startsWith('-')) break;
    i += ['-w', '--timeout', '-E', '--conflict-exit-code'].includes(arg) ? 2 : 1;
  }
  const rest = argv.slice(i + 1);
  if (rest[0] === '-c' || rest[0] === '--command') {
    if (unresolved[i + 2]) {
      ex.flag('unresolved_code', inv.text);
      return;
    }
    ex.parseString(rest[1] ?? '', [...inv.via, 'flock -c'], { ifs: DEFAULT_IFS });
    return;
  }
  if (rest.length === 0) {
    ex.emit(inv);
    return;
  }
  ex.resolve(inner(inv, i + 1, 'flock'), env);
};

const DOCKER_EXEC_VALUES = new Set([
  '-e',
  '--env',
  '-u',
  '--user',
  '-w',
  '--workdir',
  '--env-file',
  '--detach-keys',
]);

/** `docker exec … CONTAINER COMMAND…` and `kubectl exec … -- COMMAND…` run a command elsewhere. */
export const containerExec: Handler = (ex, inv, env, program) => {
  ex.emit(inv);
  const { argv } = inv;
  if (program === 'kubectl' || program === 'oc') {
    const dashes = argv.indexOf('--');
    if (argv.includes('exec') && dashes > 0 && dashes < argv.length - 1) {
      ex.resolve(inner(inv, dashes + 1, `${program} exec`), env);
    }
    return;
  }
  const at = argv.indexOf('exec');
  if (at !== 1 && !(argv[1] === 'container' && at === 2)) return;
  let i = at + 1;
  while (i < argv.length && (argv[i] as string).startsWith('-'))
    i += DOCKER_EXEC_VALUES.has(argv[i] as string) ? 2 : 1;
  if (i + 1 < argv.length) ex.resolve(inner(inv, i + 1, `${program} exec`), env);
};

/** git: configuration and aliases from the command line are resolved before matching. */
export const git: Handler = (ex, inv, env) => {
  const at = inv.argv.findIndex((_arg, k) => k > 0 && inv.argv[k - 1] === '-c');
  if (at > 0 && inv.unresolved[at]) ex.flag('unresolved_config', inv.text);
  const resolved = resolveGit(inv.argv, inv.assignments);
  if (resolved.shellAlias !== undefined) {
    ex.flag('shell_alias', inv.text);
    ex.parseString(resolved.shellAlias, [...inv.via, 'git alias'], env);
  }
  ex.emit(inv, { argv: resolved.argv, config: resolved.config });
};
