// Prefix commands that run the rest of their argv as a command: `sudo`, `doas`, `env`, `nice`,
// `nohup`, `timeout`, `time`, `command`, `builtin`, `exec`, `stdbuf`, `busybox`, `watch -x`, `sshpass`, ...
// Each knows which of its own options take a value, so the wrapped command is found exactly.
import { clusterValueIndex, firstOperand, longOption, takesValue } from './option-scan.js';
import { own } from './own.js';

export interface Argv {
  argv: string[];
  unresolved: boolean[];
}

export interface Unwrapped extends Argv {
  /** Assignments the prefix adds to the command's environment (`env A=1 cmd`). */
  assignments: string[];
  /**
   * The directory the command starts in when the prefix sets it (`env -C DIR`, `sudo -D DIR`),
   * relative to where the prefix runs; null when it cannot be told (a root changed, a dynamic word).
   */
  cwd?: string | null;
}

const set = (text: string): ReadonlySet<string> => new Set(text.split(' '));

interface PrefixSpec {
  /** Options taking a separate value. */
  values: ReadonlySet<string>;
  /** Positional arguments of the prefix itself before the command (`timeout DURATION`). */
  positionals?: number;
  /** Options after which there is no command to run (`command -v git` only looks git up). */
  stops?: ReadonlySet<string>;
  /** `NAME=value` words before the command set its environment (`sudo A=1 cmd`), as `env`'s do. */
  assigns?: boolean;
}

const SPECS: Record<string, PrefixSpec> = {
  sudo: {
    values: set(
      '-u -g -C -D -h -p -r -t -T -U -R --user --group --chdir --prompt --role --type --close-from --host --other-user --command-timeout --chroot',
    ),
    stops: set('-l -v -k -K -V --list --validate --version --help -e --edit'),
    assigns: true,
  },
  doas: { values: set('-u -C') },
  run0: {
    values: set('-u --user -g --group -D --chdir --setenv --description --slice --unit -p --property'),
  },
  pkexec: { values: set('--user -u') },
  nice: { values: set('-n --adjustment') },
  nohup: { values: set('') },
  // The password comes from -p, -f FILE, -d FD or the environment (-e); the rest is the command.
  sshpass: { values: set('-p -f -d -P'), stops: set('-h -V') },
  time: { values: set('-f --format -o --output') },
  timeout: { values: set('-s --signal -k --kill-after'), positionals: 1 },
  command: { values: set(''), stops: set('-v -V -pv -pV -vp -Vp') },
  builtin: { values: set('') },
  exec: { values: set('-a') },
  stdbuf: { values: set('-i -o -e --input --output --error') },
  ionice: { values: set('-c -n -p -P -u --class --classdata --pid --pgid --uid') },
  chrt: { values: set(''), positionals: 1 },
  taskset: { values: set(''), positionals: 1 },
  setsid: { values: set('') },
  unbuffer: { values: set('') },
  caffeinate: { values: set('-t -w') },
  'dbus-run-session': { values: set('--config-file') },
  chronic: { values: set('') },
  proxychains: { values: set('-f') },
  proxychains4: { values: set('-f') },
  torsocks: { values: set('-u -p -a -P') },
  firejail: { values: set('') },
  'xvfb-run': {
    values: set(
      '-n --server-num -e --error-file -f --auth-file -p --xauth-protocol -s --server-args -w --wait',
    ),
  },
  watch: { values: set('-n --interval -q --equexit -s --shell') },
  chroot: { values: set(''), positionals: 1 },
  // Namespace runners: -m/-u/-r… take a value only attached (`-m/proc/1/ns/mnt`), these take the next word.
  nsenter: { values: set('-t --target -S --setuid -G --setgid -W --wdns') },
  unshare: {
    values: set('-S --setuid -G --setgid -R --root -w --wd --propagation --setgroups --map-user --map-group'),
  },
  runuser: { values: set('-u --user -g --group -G --supp-group -s --shell -w --whitelist-environment') },
  catchsegv: { values: set('') },
  'systemd-run': { values: set('-u --unit -p --property --description --slice -E --setenv -M --machine') },
};

/** Multi-call binaries that run the applet named by their first word (`busybox rm`, `toybox dd`). */
const MULTICALL = new Set(['busybox', 'toybox', 'toolbox', 'coreutils']);

/**
 * GLib's `gio VERB`: the file operations it shares with coreutils, read as those (`gio move a b.o`
 * is `mv a b.o`, `gio trash x` removes x from where it was); `rename FILE NAME` is a move within
 * FILE's directory. Other verbs (info, list, cat, mount…) run none of these.
 */
const GIO_VERBS: Readonly<Record<string, string>> = {
  move: 'mv',
  rename: 'mv',
  copy: 'cp',
  remove: 'rm',
  trash: 'rm',
  mkdir: 'mkdir',
  save: 'tee',
};

export function isPrefix(program: string): boolean {
  return Object.hasOwn(SPECS, program) || program === 'env' || MULTICALL.has(program) || program === 'gio';
}

function unwrapGio(input: Argv): Unwrapped | null {
  const verb = input.argv[1] ?? '';
  const program = own(GIO_VERBS, verb);
  if (program === undefined) return null;
  const rest = slice(input, 2);
  // `gio trash DIR` takes a directory with all it holds, as `rm -r` does.
  if (verb === 'trash') {
    rest.argv.unshift('-r');
    rest.unresolved.unshift(false);
  }
  const argv = [program, ...rest.argv];
  if (verb === 'rename') {
    // The new name is a name in FILE's directory (gio refuses one holding a slash).
    const operands = rest.argv.map((w, k) => ({ w, k })).filter(({ w }) => !w.startsWith('-'));
    const [file, name] = operands;
    if (file && name && !name.w.includes('/')) {
      const cut = file.w.replace(/\/+$/, '').lastIndexOf('/');
      argv[name.k + 1] = cut < 0 ? name.w : `${file.w.slice(0, cut + 1)}${name.w}`;
    }
  }
  return { argv, unresolved: [input.unresolved[1] ?? false, ...rest.unresolved], assignments: [] };
}

/**
 * The command a prefix runs, or null when it runs none (`sudo -l`, `command -v git`, bare `env`).
 */
export function unwrapPrefix(program: string, input: Argv): Unwrapped | null {
  if (program === 'env') return unwrapEnv(input);
  if (program === 'gio') return unwrapGio(input);
  if (MULTICALL.has(program)) {
    const applet = input.argv[1];
    // GNU's single binary also takes the applet as `--coreutils-prog=NAME`.
    const named = applet?.startsWith('--coreutils-prog=')
      ? applet.slice('--coreutils-prog='.length)
      : undefined;
    if (named !== undefined) {
      const rest = slice(input, 2);
      return {
        argv: [named, ...rest.argv],
        unresolved: [input.unresolved[1] ?? false, ...rest.unresolved],
        assignments: [],
      };
    }
    if (applet === undefined || applet.startsWith('-')) return null;
    return { ...slice(input, 1), assignments: [] };
  }
  const spec = own(SPECS, program);
  if (!spec) return null;
  const { argv } = input;
  let i = firstOperand(argv, {
    values: spec.values,
    visit: (arg) => {
      if (spec.stops?.has(arg)) return 'stop';
      return program === 'nice' && /^-\d+$/.test(arg) ? 1 : undefined;
    },
  });
  if (i < 0) return null;
  i += spec.positionals ?? 0;
  const assignments: string[] = [];
  while (spec.assigns && i < argv.length && /^[A-Za-z_]\w*=/.test(argv[i] as string)) {
    assignments.push(argv[i] as string);
    i++;
  }
  if (i >= argv.length) return null;
  return withStartDir(program, input, i, spec.values, { ...slice(input, i), assignments });
}

/**
 * Options of a prefix that set the directory its command starts in, or its root directory.
 * `attachedOnly`: the option's value is optional and only ever attached (nsenter's `--wd=DIR`); alone
 * it names the target process's directory, which cannot be told here.
 */
const START_DIR: Record<string, { dir: readonly string[]; root: readonly string[]; attachedOnly?: boolean }> =
  {
    env: { dir: ['-C', '--chdir'], root: [] },
    sudo: { dir: ['-D', '--chdir'], root: ['-R', '--chroot'] },
    run0: { dir: ['-D', '--chdir'], root: [] },
    unshare: { dir: ['-w', '--wd'], root: ['-R', '--root'] },
    nsenter: { dir: ['-w', '--wd'], root: ['-r', '--root'], attachedOnly: true },
    chroot: { dir: [], root: [] },
  };

/**
 * `found` with the directory the prefix's options (argv before `end`, `values` the options that take
 * one) start its command in: a relative or absolute path, or null when it cannot be told.
 */
function withStartDir(
  program: string,
  input: Argv,
  end: number,
  values: ReadonlySet<string>,
  found: Unwrapped,
): Unwrapped {
  const spec = own(START_DIR, program);
  if (!spec) return found;
  const names = [...spec.dir, ...spec.root];
  // The directory options count among the value-taking ones when a cluster is read.
  const letters = new Set([...values, ...names.filter((n) => !n.startsWith('--'))]);
  // chroot NEWROOT: every path the command names is under a root read elsewhere.
  let cwd: string | null | undefined = program === 'chroot' ? null : undefined;
  for (let k = 1; k < end; k++) {
    const arg = input.argv[k] as string;
    if (arg === '--') break;
    const at = clusterValueIndex(letters, arg);
    for (const name of names) {
      // The value attached (a string), in the next word (null), or this word is not the option.
      const given = name.startsWith('--')
        ? longOption(arg, name.slice(2))
        : at > 0 && arg[at] === name[1]
          ? arg.slice(at + 1) || null
          : undefined;
      if (given === undefined) continue;
      const word = given ?? (spec.attachedOnly ? undefined : input.argv[k + 1]);
      const dynamic = input.unresolved[given === null ? k + 1 : k];
      const dir = word === undefined || word === '' || dynamic ? null : word;
      cwd = spec.root.includes(name) || dir === null || cwd === null ? null : dir;
    }
  }
  return cwd === undefined ? found : { ...found, cwd };
}

const ENV_VALUES = set('-u --unset -C --chdir -P -a --argv0');
/** env takes any word with `=` before its command as NAME=VALUE (`BASH_FUNC_ls%%=() {…}` included). */
const ASSIGNMENT = /^[^=-][^=]*=/;

/** `env [-i] [-u NAME] [-C DIR] [-S STRING] [NAME=VALUE]... [COMMAND [ARG]...]` */
function unwrapEnv(input: Argv): Unwrapped | null {
  let argv = input.argv;
  let unresolved = input.unresolved;
  const assignments: string[] = [];
  let i = 1;
  while (i < argv.length) {
    const arg = argv[i] as string;
    if (arg === '--') {
      i++;
      break;
    }
    if (ASSIGNMENT.test(arg)) {
      assignments.push(arg);
      i++;
      continue;
    }
    if (!arg.startsWith('-')) break;
    let split: string | undefined;
    let width = 1;
    // `--s`, `--spl=…`: getopt_long takes any unambiguous prefix of --split-string.
    const long = arg.startsWith('--') ? (arg.slice(2).split('=')[0] as string) : '';
    const isSplit = long !== '' && 'split-string'.startsWith(long);
    if (arg === '-S' || (isSplit && !arg.includes('='))) {
      split = argv[i + 1] ?? '';
      width = 2;
    } else if (isSplit) split = arg.slice(arg.indexOf('=') + 1);
    else if (/^-[iv0]*S./.test(arg)) split = arg.slice(arg.indexOf('S') + 1);
    if (split !== undefined) {
      // -S splits its string into words (with quotes) that take its place.
      const words = splitWords(split);
      const flag = unresolved[i] ?? false;
      argv = [...argv.slice(0, i), ...words, ...argv.slice(i + width)];
      unresolved = [...unresolved.slice(0, i), ...words.map(() => flag), ...unresolved.slice(i + width)];
      continue;
    }
    i += takesValue(ENV_VALUES, arg) ? 2 : 1;
  }
  if (i >= argv.length) return null;
  return withStartDir('env', { argv, unresolved }, i, ENV_VALUES, {
    argv: argv.slice(i),
    unresolved: unresolved.slice(i),
    assignments,
  });
}

/** Split a string into words the way `env -S` and `xargs` do: blanks separate, quotes group. */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  let current = '';
  let has = false;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < text.length) current += text[++i];
      else current += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      has = true;
    } else if (c === '\\' && i + 1 < text.length) {
      current += text[++i];
      has = true;
    } else if (c === ' ' || c === '\t' || c === '\n') {
      if (has) words.push(current);
      current = '';
      has = false;
    } else {
      current += c;
      has = true;
    }
  }
  if (has) words.push(current);
  return words;
}

export function slice(input: Argv, from: number, to?: number): Argv {
  return { argv: input.argv.slice(from, to), unresolved: input.unresolved.slice(from, to) };
}

/** A word quoted for the shell, so that parsing it gives the word back (`it's` → `'it'\\''s'`). */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

/** Words run as a command (not a shell string): quoted so that a parse gives them back one by one. */
export function commandOf(words: readonly string[]): string {
  return words.length === 1 ? (words[0] as string) : words.map(shellQuote).join(' ');
}
