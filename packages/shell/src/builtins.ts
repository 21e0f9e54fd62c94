// Builtins that change how the rest of the command runs: `cd`/`pushd`/`popd` (the directory later
// paths resolve against), assignments to the variables resolution trusts, `set --`/`shift`
// (positional parameters), glob options, and the ones that install code to run later (`alias`,
// `hash -p`, `enable`, `complete -C`, `bind -x`, `mapfile -C`, prompt and startup variables), each
// reported as its own dynamic construct so the command is gated.
import { posix } from 'node:path';
import type { Env } from './expand.js';
import type { Extractor, Invocation } from './extract.js';
import { notePythonPathAssignment } from './loaded-files.js';
import { firstOperand } from './option-scan.js';
import { commandText, variableKind } from './pager-editor.js';
import { CD_COMMAND } from './resolve.js';

/** What a builtin does to the resolution state; runs before the segment's normal handling. */
export type Effect = (ex: Extractor, inv: Invocation, env: Env) => void;

const set = (text: string): ReadonlySet<string> => new Set(text.split(' '));
const NAME = /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?\+?=/;

/** Shell options that change what a glob expands to. */
const GLOB_OPTIONS = set('dotglob nullglob failglob nocaseglob extglob globstar globasciiranges noglob');

/**
 * Assignments to variables the shell runs or sources later: flagged as dynamic. `text` is
 * `NAME=value` as expanded; `unresolved` when the value was not static.
 */
export function checkAssignment(
  ex: Extractor,
  text: string,
  unresolved: boolean,
  source: string,
  /** The program the assignment is given to (`NAME=v program`), undefined for a shell assignment. */
  program?: string,
): void {
  const m = NAME.exec(text);
  if (!m) return;
  const name = m[1] as string;
  const value = text.slice(m[0].length);
  checkName(ex, name + (m[2] ?? ''), source);
  // `x='a[$(…)]'`: the value runs wherever x is later evaluated as arithmetic.
  checkArithmeticWord(ex, value, source);
  ex.res.arithmetic.assign(name, value, unresolved, source);
  ex.res.assign(name, program !== undefined && !ex.res.assignsInShell(program));
  if (name === 'GLOBIGNORE') ex.res.globsUnknown = true;
  // A pager or editor variable, for one command or the shell: judged as the command it makes.
  const kind = variableKind(name);
  if (kind !== undefined && value !== '') {
    if (unresolved) ex.flag('unresolved_code', source);
    else ex.parseString(commandText(kind, value), [`${name}=`], { ifs: ' \t\n' });
  }
  if (name === 'PATH' && !searchesOnlyElsewhere(value, ex)) ex.flag('path_in_project', source);
  // A bare program name is looked up on it as well (scripts.ts runFoundProgram).
  if (name === 'PATH') ex.res.notePathValue(value);
  if (SEARCH_PATHS.has(name) && value !== '' && !searchesOnlyProject(name, value, ex))
    ex.flag('search_path_outside', source);
  // Given to one command it is read from that command's assignments (loaded-files.ts).
  if (name === 'PYTHONPATH' && program === undefined) notePythonPathAssignment(ex.res, value);
  if (/^PS[0124]$/.test(name) && (unresolved || /\$\(|`/.test(value))) ex.flag('prompt_substitution', source);
  // Given to one command, these are judged by the rules on that command (bash reads BASH_ENV, zsh does not).
  else if (program !== undefined) return;
  else if (name === 'PROMPT_COMMAND' && value !== '') ex.flag('prompt_command', source);
  else if ((name === 'BASH_ENV' || name === 'ENV') && value !== '') ex.flag('startup_variable', source);
}

const args = (inv: Invocation): string[] => inv.argv.slice(1);

/**
 * Whether a PATH value searches only the old PATH, absolute directories and the home's tool
 * directories: an entry that is relative (`./bin`, `bin`, an empty one: the current directory),
 * under the working directory (`$PWD/bin`) or otherwise unknown may put a file the session wrote
 * in the place of `ls` or `git`. node_modules/.bin and a virtualenv's bin (`.venv/bin`, as its activate
 * script puts it first) hold the installed packages' programs.
 */
function searchesOnlyElsewhere(value: string, ex: Extractor): boolean {
  const here = ex.res.dirs;
  const files = ex.res.files;
  return value.split(':').every((written) => {
    if (/^(\$PATH|\$\{PATH\})$/.test(written)) return true;
    const entry = toolHome(written, ex) ?? written;
    if (/(^|\/)(node_modules\/\.bin|\.?venv\/bin)\/?$/.test(entry)) return true;
    if (/^(\$HOME|\$\{HOME\}|~)\/[\w./-]+$/.test(entry))
      return here !== null && !under(ex, entry.replace(/^[^/]*/, ex.res.ctx?.home ?? '~'));
    if (!entry.startsWith('/') || /[$`]/.test(entry) || entry.startsWith('/proc/')) return false;
    // Expanded where files are read (`$PWD/bin` is the project's bin): not under the working
    // directory, nor a temp directory, where the session writes freely.
    const real = files?.realpath(entry) ?? posix.normalize(entry);
    if (here === null || under(ex, real)) return false;
    const home = ex.res.ctx?.home;
    if (home !== undefined && (real === home || real.startsWith(`${home}/`))) return true;
    const temp = ex.res.tempDir();
    return !(
      /^\/(tmp|var\/tmp|dev\/shm)(\/|$)/.test(real) ||
      (temp && (real === temp || real.startsWith(`${temp}/`)))
    );
  });
}

/** `$JAVA_HOME/bin` as the path the environment gives it (TOOL_HOMES), or undefined. */
function toolHome(entry: string, ex: Extractor): string | undefined {
  const m = /^\$(?:\{(\w+)\}|(\w+))(\/[\w.+-]+)*\/?$/.exec(entry);
  const name = m?.[1] ?? m?.[2];
  const value = name === undefined ? null : ex.res.toolHome(name);
  if (value === null || !value.startsWith('/') || /[$`]/.test(value)) return undefined;
  return posix.normalize(`${value}/${entry.slice(entry.indexOf('/') + 1 || entry.length)}`);
}

/** Where an interpreter or the loader looks for code first: entries outside the project load code from elsewhere. */
const SEARCH_PATHS = new Set(['PYTHONPATH', 'LD_LIBRARY_PATH', 'PERL5LIB', 'PERLLIB', 'RUBYLIB']);

/**
 * Whether a search path's entries all lie in the project: relative ones without `..`, the inherited
 * value (`$PYTHONPATH`), and absolute ones (as expanded: `$PWD/src`) under the working directory.
 */
function searchesOnlyProject(name: string, value: string, ex: Extractor): boolean {
  return value.split(':').every((entry) => {
    if (entry === '' || entry === `$${name}` || entry === `\${${name}}`) return true;
    if (/(^|\/)\.\.(\/|$)/.test(entry)) return false;
    // `$PWD/src` as written (no file view): the project's, unless the command moves or assigns PWD.
    if (/^(\$PWD|\$\{PWD\})(\/[\w.+-]+)*\/?$/.test(entry))
      return !ex.res.assigns('PWD') && !ex.res.texts.some((t) => CD_COMMAND.test(t));
    if (/[$`~]/.test(entry)) return false;
    if (!entry.startsWith('/')) return true;
    return under(ex, ex.res.files?.realpath(entry) ?? posix.normalize(entry));
  });
}

/**
 * Whether a path lies in (or is) the directory the command starts in (the project, or a part of it):
 * not where a `cd` may have taken it since. Without a context nothing is known to lie there.
 */
function under(ex: Extractor, path: string): boolean {
  const start = ex.res.ctx?.cwd;
  if (start === undefined || !start.startsWith('/')) return false;
  const real = ex.res.files?.realpath(start) ?? start;
  return [start, real].some((dir) => path === dir || path.startsWith(`${dir}/`));
}

/** Bash's tables of what a program name runs: an entry is an alias or a `hash -p`. */
const LOOKUP_TABLES: Readonly<Record<string, string>> = {
  BASH_CMDS: 'hash_path',
  BASH_ALIASES: 'alias_definition',
  // zsh's tables, assigned as arrays: `functions[ls]='npm publish'` defines ls.
  commands: 'hash_path',
  functions: 'alias_definition',
  aliases: 'alias_definition',
  galiases: 'alias_definition',
  saliases: 'alias_definition',
  builtins: 'enable_builtin',
  nameddirs: 'hash_path',
};

/**
 * A variable name a builtin assigns or tests (`NAME`, `NAME[SUBSCRIPT]`): one of bash's lookup tables
 * is an alias or hash entry, and a subscript is arithmetic, evaluated when the builtin runs: its
 * `$(…)` runs (`read 'a[$(rm -rf ~)]'`), and so does one in a value it reads (`printf -v 'a[$x]'`
 * with x read from a file), whatever quotes kept `$x` from expanding first.
 */
function checkName(ex: Extractor, name: string, source: string): void {
  const bracket = name.indexOf('[');
  const base = bracket < 0 ? name : name.slice(0, bracket);
  if (Object.hasOwn(LOOKUP_TABLES, base)) ex.flag(LOOKUP_TABLES[base] as string, source);
  if (bracket >= 0) ex.checkArithmetic(subscriptOf(name, bracket), source);
}

/** The text between a name's first `[` and its last `]` (to the end when unclosed). */
function subscriptOf(name: string, bracket: number): string {
  const close = name.lastIndexOf(']');
  return name.slice(bracket + 1, close > bracket ? close : name.length);
}

/** Text bash evaluates as arithmetic that holds a substitution: it runs when evaluated. */
const ARITHMETIC_SUBSTITUTION = /\$\(|`/;
/** A subscripted name whose subscript holds a substitution, anywhere in a word bash may evaluate later. */
const SUBSCRIPT_SUBSTITUTION = /[A-Za-z_]\w*\[[^\]]*(\$\(|`)/;

/**
 * A word the command passes that bash may evaluate as arithmetic later (`x='a[$(…)]'; (( x ))`,
 * `declare -i`, `test -v`, `[[ … -eq … ]]`, `let`): a subscript holding a substitution is code.
 */
export function checkArithmeticWord(ex: Extractor, word: string, source: string): void {
  if (SUBSCRIPT_SUBSTITUTION.test(word)) ex.flag('arithmetic_substitution', source);
}

/** Operands that name a variable to assign, as given (`read -r NAME`, `printf -v NAME`). */
function checkNameOperand(ex: Extractor, inv: Invocation, k: number): void {
  const word = inv.argv[k];
  if (word === undefined) return;
  // A name the shell works out (`printf -v "$x"`, `read "$x"`) may be any variable: CDPATH, PATH, HOME.
  if (inv.unresolved[k]) ex.flag('dynamic_name', inv.text);
  checkUnshown(ex, word, inv.text);
}

/** A name without its subscript (`BASH_CMDS[ls]` is BASH_CMDS). */
const baseName = (name: string): string => name.replace(/\[.*$/, '');

/**
 * A variable the command assigns with a value it does not show (`read NAME`, `printf -v NAME`): its
 * name checked as any assigned name is, and one that steers what runs or where (`read PATH`) is dynamic.
 */
function checkUnshown(ex: Extractor, name: string, source: string): void {
  checkName(ex, name, source);
  if (steeringName(baseName(name))) ex.flag('dynamic_name', source);
}

/**
 * A variable whose value decides what runs or where, or that a program reads as code or options:
 * one the command sets only with a value it shows (not a `for` loop's variable, a nameref's target,
 * `read`). PATH, HOME, IFS, the prompts, GIT_*, LD_*, the interpreters' option and path variables.
 */
export function steeringName(name: string): boolean {
  return STEERING.has(name) || STEERING_PATTERN.test(name);
}
const STEERING_PATTERN =
  /^(PS[0-4]|BASH_\w+|GIT_\w+|LD_\w+|DYLD_\w+|PYTHON\w+|PERL5?\w*|RUBY\w+|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|NODE_\w+|npm_config_\w+|EDITOR|VISUAL|PAGER|\w+_PAGER|\w+_EDITOR|XDG_CONFIG_HOME|ZDOTDIR|SSH_ASKPASS|SUDO_ASKPASS|MAKEFLAGS|GOFLAGS|TAR_OPTIONS)$/;

/** Variables whose value decides what runs or where, beside the families STEERING_PATTERN names. */
const STEERING = new Set('PATH HOME CDPATH TMPDIR ENV PROMPT_COMMAND GLOBIGNORE IFS'.split(' '));

/** `declare`/`export`/`local`/...: every `NAME=value` operand is an assignment. */
const declaration: Effect = (ex, inv, env) => {
  // `declare -n ref=NAME`: assigning ref later assigns NAME.
  const nameref = args(inv).some((a) => /^-[a-zA-Z]*n/.test(a));
  // `declare -i n`: every value assigned to n, now or later, is evaluated as arithmetic.
  const integer = args(inv).some((a) => /^-[a-zA-Z]*i/.test(a));
  for (const [k, arg] of args(inv).entries()) {
    if (arg.startsWith('-') || arg.startsWith('+')) continue;
    // `declare "$x=…"`, `export "$n"`: a name the shell works out may be any variable.
    if (inv.unresolved[k + 1] && !/^[A-Za-z_]\w*(\[[^\]]*\])?\+?=/.test(arg)) {
      ex.flag('dynamic_name', inv.text);
      continue;
    }
    if (integer) ex.res.arithmetic.use(baseName(arg.replace(/\+?=.*$/s, '')), inv.text);
    if (NAME.test(arg)) {
      // `export IFS=/`: how later expansions split is no longer told (see Env.ifs).
      if (/^IFS\+?=/.test(arg)) env.ifs = null;
      // `declare -n p=PATH`: assigning p later assigns PATH, with a value this reading never sees.
      if (nameref) {
        const target = arg.slice(arg.indexOf('=') + 1);
        if (inv.unresolved[k + 1] || steeringName(baseName(target))) ex.flag('dynamic_name', inv.text);
        // `declare -n r='a[$x]'`: each use of r evaluates the subscript.
        checkName(ex, target, inv.text);
      }
      // `declare 'a=($(…))'`: declare parses a quoted array value again, and its `$(…)` runs.
      if (/^[^=]*=\(/.test(arg) && ARITHMETIC_SUBSTITUTION.test(arg)) ex.flag('declare_reparse', inv.text);
      checkAssignment(ex, arg, inv.unresolved[k + 1] ?? false, inv.text);
      if (nameref) ex.res.assign(arg.slice(arg.indexOf('=') + 1));
    } else if (/^[A-Za-z_]\w*$/.test(arg)) ex.res.assign(arg);
    // `declare -a 'a[$x]'`, `local 'a[$x]'`: the subscript is evaluated with no value given.
    else if (/^[A-Za-z_]\w*\[/.test(arg)) checkName(ex, arg, inv.text);
  }
};

/** `read`, `unset`, `getopts`, `mapfile`: every plain name operand is (re)assigned. */
const assignsNames: Effect = (ex, inv) => {
  // What `read` and `mapfile` store comes from their input: a value the command does not show.
  const reads = READS_INPUT.has(inv.argv[0] ?? '');
  const unknown = (name: string) => {
    if (reads) ex.res.arithmetic.unknown(baseName(name), inv.text);
  };
  unknown(inv.argv[0] === 'read' ? 'REPLY' : 'MAPFILE');
  for (const [k, arg] of args(inv).entries()) {
    // `read -a NAME` / `-aNAME`: the array it fills.
    if (inv.argv[0] === 'read' && /^-[a-zA-Z]*a./.test(arg)) {
      const name = arg.slice(arg.indexOf('a') + 1);
      if (steeringName(name)) ex.flag('dynamic_name', inv.text);
      ex.res.assign(name);
      unknown(name);
      continue;
    }
    if (arg.startsWith('-')) continue;
    checkNameOperand(ex, inv, k + 1);
    unknown(arg);
    if (/^[A-Za-z_]\w*$/.test(arg)) ex.res.assign(arg);
  }
};

/** Builtins that assign names what they read from input. */
const READS_INPUT = set('read mapfile readarray');

const CD_VALUES = set('');

const cd: Effect = (ex, inv) => {
  const i = firstOperand(inv.argv, { values: CD_VALUES });
  const target = inv.argv[i];
  if (target === undefined) ex.res.cd(inv.argv[0] === 'cd' ? '' : null);
  else if (inv.unresolved[i] || ex.res.isUnresolvedGlob(target) || /^[+-]\d*$/.test(target)) ex.res.cd(null);
  else ex.res.cd(target, physicalCd(inv.argv.slice(1, i)));
};

/** `cd -P` (the last of -L/-P wins): the kernel resolves `..` after following links. */
function physicalCd(options: readonly string[]): boolean {
  const letters = options.filter((o) => /^-[LPe@]+$/.test(o)).join('');
  return letters.lastIndexOf('P') > letters.lastIndexOf('L');
}

const flagWhen =
  (kind: string, test: (arg: string, next: string | undefined) => boolean): Effect =>
  (ex, inv) => {
    const words = args(inv);
    if (words.some((arg, k) => test(arg, words[k + 1]) || (inv.unresolved[k + 1] ?? false)))
      ex.flag(kind, inv.text);
  };

const option = (letters: string) => (arg: string) =>
  arg.startsWith('-') && !arg.startsWith('--') && [...letters].some((l) => arg.slice(1).includes(l));

export const EFFECTS: Record<string, Effect> = {
  cd,
  pushd: cd,
  popd: (ex) => ex.res.cd(null),
  export: declaration,
  declare: declaration,
  typeset: declaration,
  local: declaration,
  readonly: declaration,
  read: assignsNames,
  wait: assignsNames,
  let: (ex, inv, env) => {
    for (const arg of args(inv)) {
      if (ARITHMETIC_SUBSTITUTION.test(arg)) ex.flag('arithmetic_substitution', inv.text);
      ex.checkArithmetic(arg, inv.text);
    }
    ex.res.scanText(args(inv).join(' '));
    // `let IFS=1`: how later expansions split is no longer told (see Env.ifs).
    if (args(inv).some((a) => /\bIFS\b/.test(a))) env.ifs = null;
  },
  // `fc` re-runs history entries the command may have put there (`history -s`); `fc -l` only lists.
  fc: (ex, inv) => {
    if (!args(inv).some((w) => /^-[a-zA-Z]*l/.test(w))) ex.flag('history_rerun', inv.text);
  },
  history: (ex, inv) => {
    const words = args(inv);
    // -r/-n read a file into the history, -s adds an entry: what a later `fc` or `!!` runs.
    if (words.some((w) => /^-[a-z]*[rns]/.test(w))) ex.flag('history_rerun', inv.text);
  },
  unset: assignsNames,
  getopts: assignsNames,
  printf: (ex, inv) => {
    const at = inv.argv.indexOf('-v');
    // What it stores is its format filled with its arguments: not shown when one of them is not.
    const unshown = inv.unresolved.some(Boolean);
    if (at > 0 && inv.argv[at + 1] !== undefined) {
      checkNameOperand(ex, inv, at + 1);
      ex.res.assign(inv.argv[at + 1] as string);
      if (unshown) ex.res.arithmetic.unknown(baseName(inv.argv[at + 1] as string), inv.text);
    }
    // `printf -vNAME …`: the name attached.
    const attached = inv.argv.find((a, k) => k > 0 && /^-v./.test(a));
    if (attached !== undefined) {
      checkUnshown(ex, attached.slice(2), inv.text);
      ex.res.assign(baseName(attached.slice(2)));
      if (unshown) ex.res.arithmetic.unknown(baseName(attached.slice(2)), inv.text);
    }
  },
  // Positional parameters and glob semantics set by the command itself are not the static ones.
  set: (ex, inv, env) => {
    const words = args(inv);
    for (let k = 0; k < words.length; k++) {
      const w = words[k] as string;
      if (w === '--' || !/^[-+]/.test(w)) {
        delete env.params;
        break;
      }
      if (/^[-+][a-zA-Z]*f/.test(w)) ex.res.globsUnknown = true;
      // `set -k`: every later `NAME=value` argument is an environment variable of its command.
      if (/^-[a-zA-Z]*k/.test(w)) ex.flag('keyword_assignments', inv.text);
      if (/^[-+]o$/.test(w)) {
        const option = words[++k];
        if (option === 'noglob') ex.res.globsUnknown = true;
        if (option === 'keyword' && w === '-o') ex.flag('keyword_assignments', inv.text);
      }
    }
  },
  shift: (_ex, _inv, env) => {
    delete env.params;
  },
  shopt: (ex, inv) => {
    if (args(inv).some((w) => GLOB_OPTIONS.has(w))) ex.res.globsUnknown = true;
  },
  alias: flagWhen('alias_definition', (arg) => arg.includes('=')),
  // bash's `hash -p PATH NAME`, zsh's `hash NAME=PATH`.
  hash: flagWhen('hash_path', (arg) => option('p')(arg) || /^[^-=][^=]*=/.test(arg)),
  enable: flagWhen('enable_builtin', (arg) => !/^-[aps]+$/.test(arg)),
  complete: flagWhen(
    'completion_command',
    (arg, next) => option('CF')(arg) || (arg === '-W' && /[$`]/.test(next ?? '')),
  ),
  compgen: flagWhen(
    'completion_command',
    (arg, next) => option('CF')(arg) || (arg === '-W' && /[$`]/.test(next ?? '')),
  ),
  bind: flagWhen('bind_command', option('x')),
  mapfile: (ex, inv, env) => {
    flagWhen('mapfile_callback', option('C'))(ex, inv, env);
    assignsNames(ex, inv, env);
  },
  readarray: (ex, inv, env) => {
    flagWhen('mapfile_callback', option('C'))(ex, inv, env);
    assignsNames(ex, inv, env);
  },
};
