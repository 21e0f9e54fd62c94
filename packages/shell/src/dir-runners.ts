// Programs that run every file in a directory: `run-parts DIR` runs each executable there in turn.
// What runs is whatever the directory holds at decision time, so each file in it is judged as
// `./FILE` would be (read through the file view); a directory that cannot be listed, or no file view,
// is unknown. `--test` and `--list` only print the names.
import { posix } from 'node:path';
import type { Handler, Invocation } from './extract.js';
import { canRead, noteRunDir, runPathProgram } from './scripts.js';

/** run-parts's long options (getopt_long takes any unambiguous prefix). */
const RUN_PARTS_LONG = [
  'test',
  'list',
  'report',
  'reverse',
  'verbose',
  'lsbsysinit',
  'regex',
  'umask',
  'arg',
  'exit-on-error',
  'new-session',
  'stdin',
  'help',
  'version',
];
/** Long options that take a value (`--arg=X` or `--arg X`). */
const RUN_PARTS_VALUES = new Set(['regex', 'umask', 'arg']);
/** Options after which nothing runs. */
const RUN_PARTS_PRINTS = new Set(['test', 'list', 'help', 'version']);

/** The long option an abbreviation names, or undefined when it names none or several. */
function longName(written: string): string | undefined {
  if (RUN_PARTS_LONG.includes(written)) return written;
  const matches = RUN_PARTS_LONG.filter((name) => name.startsWith(written));
  return matches.length === 1 ? matches[0] : undefined;
}

interface RunPartsWords {
  /** Index of the directory word, or -1. */
  dir: number;
  /** The arguments (`--arg X`, `-a X`) each file is run with; null for one that cannot be told. */
  args: Array<string | null>;
  /** Only prints what would run. */
  printsOnly: boolean;
  /** An option that cannot be read (unresolved, unknown): what runs cannot be told. */
  unknown: boolean;
}

/** Read run-parts's words: its options, then one directory. */
function runPartsWords(inv: Invocation): RunPartsWords {
  const { argv, unresolved } = inv;
  const out: RunPartsWords = { dir: -1, args: [], printsOnly: false, unknown: false };
  let i = 1;
  for (; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      i++;
      break;
    }
    if (!arg.startsWith('-') || arg === '-') break;
    if (unresolved[i]) out.unknown = true;
    let name: string | undefined;
    let value: string | undefined;
    let valueAt = -1;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      name = longName(eq < 0 ? arg.slice(2) : arg.slice(2, eq));
      if (name === undefined) {
        out.unknown = true;
        continue;
      }
      if (eq >= 0) {
        value = arg.slice(eq + 1);
        valueAt = i;
      } else if (RUN_PARTS_VALUES.has(name)) valueAt = ++i;
    } else if (arg[1] === 'a' || arg[1] === 'u') {
      name = arg[1] === 'a' ? 'arg' : 'umask';
      if (arg.length > 2) {
        value = arg.slice(2);
        valueAt = i;
      } else valueAt = ++i;
    } else if (!/^-[vVh]+$/.test(arg)) out.unknown = true;
    if (name !== undefined && RUN_PARTS_PRINTS.has(name)) out.printsOnly = true;
    if (name === 'arg') out.args.push(unresolved[valueAt] ? null : (value ?? argv[valueAt] ?? ''));
  }
  if (i < argv.length) out.dir = i;
  return out;
}

/** `run-parts [options] DIR`: each file in DIR is run, as `DIR/FILE ARGS…`. */
export const runParts: Handler = (ex, inv) => {
  ex.emit(inv);
  const words = runPartsWords(inv);
  if (words.unknown) ex.flag('unresolved_option', inv.text);
  if (words.printsOnly || words.dir < 0) return;
  const word = inv.argv[words.dir] as string;
  if (inv.unresolved[words.dir] || !canRead(ex, inv)) {
    ex.flag('unresolved_script', `${inv.text}: the files in ${word} cannot be read`);
    return;
  }
  const { paths, unresolved } = ex.res.paths(word);
  if (unresolved) {
    ex.flag('unresolved_script', inv.text);
    return;
  }
  for (const dir of paths) runEachFile(ex, inv, dir, words.args);
};

function runEachFile(
  ex: Parameters<Handler>[0],
  inv: Invocation,
  dir: string,
  args: ReadonlyArray<string | null>,
): void {
  const files = ex.res.files;
  const names = files?.readdir(dir);
  if (names === undefined) {
    ex.flag('unresolved_script', `${inv.text}: ${dir} cannot be listed`);
    return;
  }
  // A file the same command puts there before run-parts runs is not listed now.
  noteRunDir(ex.res, dir);
  for (const name of [...names].sort()) {
    const path = posix.join(dir, name);
    // run-parts skips directories (and, here unknown, files that are not executable).
    if (files?.readdir(path) !== undefined) continue;
    runPathProgram(
      ex,
      {
        ...inv,
        argv: [path, ...args.map((a) => a ?? '')],
        unresolved: [false, ...args.map((a) => a === null)],
        via: [...inv.via, 'run-parts'],
      },
      path,
    );
  }
}
