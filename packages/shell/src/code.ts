// Handlers for programs given code rather than a command: interpreters (`python -c`, `node -e`,
// `perl -e`, `awk PROGRAM`, code on stdin) and database clients (`psql -c`, `mysql -e`, `sqlite3 DB SQL`,
// `redis-cli CMD`, heredocs and piped text). The code becomes the segment's `payload`; interpreter
// code that is not plainly read-only is unknown-dynamic; SQL is analysed into the segment's `sql` facts.
import { posix } from 'node:path';
import type { Env } from './expand.js';
import type { Extractor, Handler, Invocation } from './extract.js';
import { noteTestCode } from './loaded-files.js';
import { firstOperand } from './option-scan.js';
import { GLOBAL_VALUE_OPTIONS } from './options.js';
import { otherInterpreter } from './other-interpreters.js';
import { runPackageRunner } from './package-runners.js';
import { runPackageScripts } from './package-scripts.js';
import { isReadOnlyCode, isReadOnlyMongo } from './payload.js';
import { powershellRunsCode } from './powershell.js';
import {
  CODE_OPTIONS,
  DATA_OPTIONS,
  databaseClient,
  expandLong,
  interpreterLanguage,
  isOtherInterpreter,
  type Language,
  LOAD_OPTIONS,
  TS_RUNNERS,
} from './programs.js';
import { noteCodeWrites, runCodeFile, shadowedImport } from './scripts.js';
import { judgeShellCalls } from './shell-calls.js';
import { clientSql, isSqlClient } from './sql-clients.js';

/** Options of `deno run`, `bun run` and `tsx watch` that take the next word, before the program file. */
const RUN_VALUES: Record<string, ReadonlySet<string>> = {
  deno: new Set([
    '-c',
    '--config',
    '--import-map',
    '--cert',
    '--location',
    '--seed',
    '-L',
    '--log-level',
    '--ext',
    '--preload',
  ]),
  bun: new Set([
    '--cwd',
    '--env-file',
    '--preload',
    '-r',
    '--require',
    '--import',
    '-c',
    '--config',
    '--tsconfig-override',
    '-d',
    '--define',
    '-l',
    '--loader',
    '--main-fields',
    '--conditions',
  ]),
  watch: new Set(['--include', '--exclude', '--tsconfig', '--env-file']),
};

/**
 * `deno run [options] FILE`, `bun run [options] FILE` (a name without a dot or slash is a package.json
 * script), `tsx watch [options] FILE`: the index of the program file, or -1.
 */
function programFileIndex(program: string, argv: readonly string[]): number {
  const values =
    program === 'deno' && argv[1] === 'run'
      ? RUN_VALUES.deno
      : program === 'bun' && argv[1] === 'run'
        ? RUN_VALUES.bun
        : TS_RUNNERS.has(program) && argv[1] === 'watch'
          ? RUN_VALUES.watch
          : undefined;
  if (values === undefined) return -1;
  const at = firstOperand(argv, { values }, 2);
  if (at < 0 || at >= argv.length) return -1;
  return program === 'bun' && !/[./]/.test(argv[at] as string) ? -1 : at;
}

export const interpreter: Handler = (ex, inv, env, program) => {
  // A syntax check compiles and runs nothing (`node --check app.js`, `ruby -c x.rb`, `php -l x.php`;
  // not perl -c, which runs BEGIN blocks).
  if (syntaxCheckOnly(program, inv.argv)) {
    ex.emit(inv);
    return;
  }
  // `deno run FILE`, `bun run FILE`, `tsx watch FILE`: the runtime runs a program file, read as
  // node's is. A module named by URL is fetched when it runs and cannot be read here.
  const file = programFileIndex(program, inv.argv);
  if (file > 0) {
    if (/^(https?|jsr|npm):/i.test(inv.argv[file] as string)) {
      ex.emit(inv);
      ex.flag('unresolved_script', inv.text);
      return;
    }
    const argv = [program, ...inv.argv.slice(file)];
    const unresolved = [false, ...inv.unresolved.slice(file)];
    interpreter(ex, { ...inv, argv, unresolved }, env, program);
    return;
  }
  // `bun run NAME` / `bun test` / `deno task`: the package manager's commands, not a program file.
  // bun's global options may come first (`bun --cwd api test`, `bun --bun vite build`).
  const subAt =
    program === 'bun' ? firstOperand(inv.argv, { values: RUN_VALUES.bun as ReadonlySet<string> }) : 1;
  if (
    (program === 'bun' || program === 'deno') &&
    /^[a-z][\w-]*$/.test(inv.argv[subAt] ?? '') &&
    inv.argv[subAt] !== 'eval'
  ) {
    ex.emit(inv);
    if (program === 'bun' && !runPackageRunner(ex, inv, env, program))
      runPackageScripts(ex, inv, env, program);
    return;
  }
  // Interpreters whose code is not read (other-interpreters.ts), gdb among them.
  if (isOtherInterpreter(program)) {
    otherInterpreter(ex, inv, env, program);
    return;
  }
  // PowerShell reads its own parameters (case-insensitive prefixes); whatever it runs is not analysed.
  if (program === 'pwsh' || program === 'powershell') {
    ex.emit(inv);
    if (powershellRunsCode(inv.argv, inv.stdin !== undefined)) ex.flag('interpreter_code', inv.text);
    return;
  }
  // `deno eval [options] CODE`: the code is the first operand after the subcommand's options.
  if (program === 'deno' && inv.argv[1] === 'eval') {
    const at = inv.argv.findIndex((a, k) => k > 1 && !a.startsWith('-'));
    const code = at > 0 ? inv.argv[at] : undefined;
    ex.emit(inv, code === undefined ? {} : { payload: code });
    if (code !== undefined && (inv.unresolved[at] || !isReadOnlyCode('node', code)))
      ex.flag('interpreter_code', inv.text);
    return;
  }
  const language = interpreterLanguage(program) ?? 'other';
  const { argv, unresolved } = inv;
  const codeOptions = CODE_OPTIONS[language];
  const loadOptions = LOAD_OPTIONS[language];
  const dataOptions = DATA_OPTIONS[language];
  let code: string | undefined;
  let codeAt = -1;
  let programFile = false;
  /** Source files the options load and run: awk `-f FILE`, node `-r ./x.js`. */
  const loaded: { value: string; unresolved: boolean }[] = [];
  /** `python -m MODULE ARGS`: an installed module's command line, as the program it installs reads it. */
  let moduleCli: { argv: string[]; unresolved: boolean[] } | undefined;
  /** `node --test PATHS`: node's test runner runs the project's tests, as vitest or pytest would. */
  let testRunner = false;
  /** perl's and ruby's -I directories, and the modules -M/-m/-d:/-r load from them. */
  const includes: string[] = [];
  const modules: string[] = [];
  let i = 1;
  for (; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--' && language !== 'awk') {
      i++;
      break;
    }
    if (
      unresolved[i] &&
      isItem(arg) &&
      (code !== undefined || arg.startsWith('-')) &&
      language !== 'python'
    ) {
      // An unresolved word where an option may stand could be `-e CODE` itself.
      ex.flag('unresolved_code', inv.text);
    }
    if (arg === '-' || !arg.startsWith('-')) break;
    const eq = arg.indexOf('=');
    // gawk reads long options with getopt_long: `--sour=CODE` is `--source=CODE`.
    const name = expandLong(language, arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg);
    const inline = arg.startsWith('--') && eq > 0 ? arg.slice(eq + 1) : undefined;
    if (codeOptions.includes(name) || clusterEndsWithCode(language, arg)) {
      codeAt = inline === undefined ? i + 1 : i;
      code = inline ?? argv[i + 1];
      if (inline === undefined) i++;
      if (language === 'python' || language === 'other') {
        i++;
        break;
      }
      continue;
    }
    if (language === 'python' && arg.startsWith('-c') && arg.length > 2) {
      codeAt = i;
      code = arg.slice(2);
      i++;
      break;
    }
    const load = loadOptions.find(
      (o) => name === o || (!o.startsWith('--') && arg.startsWith(o) && arg.length > o.length),
    );
    if (load !== undefined) {
      if (language === 'awk' && ['-f', '--file', '-E', '--exec'].includes(load)) programFile = true;
      // gawk -l loads a compiled extension: native code, not read here.
      if (language === 'awk' && (load === '-l' || load === '--load')) ex.flag('interpreter_code', inv.text);
      const attached = inline !== undefined || arg.length > load.length;
      const value = inline ?? (attached ? arg.slice(load.length) : argv[i + 1]);
      const at = attached ? i : i + 1;
      if (value !== undefined && (language === 'perl' || language === 'ruby')) {
        if (unresolved[at]) ex.flag('unresolved_code', inv.text);
        else if (load === '-I') includes.push(value);
        else modules.push(moduleFile(language, value));
      }
      if (value !== undefined && loadsSource(language, load, value))
        loaded.push({ value, unresolved: unresolved[at] ?? false });
      // Code given as a URL (`--import 'data:text/javascript,…'`, `https://…`) is not read here.
      if (value !== undefined && language === 'node' && /^(data|https?):/i.test(value))
        ex.flag('interpreter_code', inv.text);
      if (!attached) {
        if (unresolved[i + 1] && isItem(argv[i + 1] as string)) ex.flag('unresolved_code', inv.text);
        i++;
      } else if (unresolved[i] && isItem(arg)) ex.flag('unresolved_code', inv.text);
      if (language === 'python' && load === '-m') {
        i = argv.length;
        programFile = true;
        // A module of the current directory is a file of the project, read as one; an installed
        // one is a program, unless a file here stands in for it (or for runpy, which runs it).
        const local = value === undefined || unresolved[at] ? undefined : localModule(ex, value);
        if (local !== undefined) loaded.push({ value: local, unresolved: false });
        const dirs = ex.res.dirs;
        const here = dirs?.length === 1 ? (dirs[0] as string) : null;
        const stands = local === undefined ? `import ${value}, runpy` : 'import runpy';
        if (value !== undefined && shadowedImport(ex, 'python', stands, here))
          ex.flag('interpreter_code', inv.text);
        if (value !== undefined && local === undefined && !unresolved[at])
          moduleCli = {
            argv: [moduleProgram(value), ...argv.slice(at + 1)],
            unresolved: [false, ...unresolved.slice(at + 1)],
          };
      }
      continue;
    }
    if (language === 'node' && name === '--test') testRunner = true;
    // perl -d:Mod runs the debugger Devel::Mod.
    const devel = language === 'perl' ? /^-d:(\w+(?:::\w+)*)/.exec(arg) : null;
    if (devel) modules.push(moduleFile('perl', `Devel::${devel[1]}`));
    if (dataOptions.includes(name) && inline === undefined) i++;
  }
  // A module found in a -I directory is a file the command runs (`perl -I. -Mevil -e 1`).
  for (const dir of includes)
    for (const file of modules) {
      const path = posix.join(dir, file);
      if (ex.res.files && ex.res.paths(path).paths.some((p) => ex.res.files?.readHead?.(p, 1) !== undefined))
        loaded.push({ value: path, unresolved: false });
    }
  if (code === undefined && language === 'awk' && !programFile && i < argv.length) {
    code = argv[i];
    codeAt = i;
  }
  if (loaded.length > 0 && !programFile) judgeLoaded(ex, inv, language, program, loaded);
  if (code !== undefined) {
    ex.emit(inv, { payload: code });
    if (unresolved[codeAt]) {
      ex.flag('unresolved_code', inv.text);
      return;
    }
    judgeInline(ex, inv, language, program, code);
    return;
  }
  const script = argv[i];
  if (testRunner && !programFile) {
    ex.emit(inv);
    noteTestCode(ex, 'node', argv.slice(i));
    return;
  }
  if (loaded.length > 0 && programFile) {
    ex.emit(inv);
    judgeLoaded(ex, inv, language, program, loaded);
    return;
  }
  if (moduleCli && runsPython(ex, inv, env, program, moduleCli)) return;
  if (moduleCli) {
    // `python -m sqlite3 app.db 'DROP TABLE t'`, `python -m alembic downgrade base`: judged as
    // `sqlite3 …` and `alembic …` are; the interpreter segment stays for what reads it.
    ex.emit(inv);
    ex.resolve({ ...inv, ...moduleCli, via: [...inv.via, program] }, env);
    return;
  }
  if (programFile || (script !== undefined && script !== '-')) {
    ex.emit(inv);
    if (script !== undefined && unresolved[i] && !programFile && isItem(script))
      ex.flag('unresolved_script', inv.text);
    else if (script !== undefined && !programFile && language !== 'other' && language !== 'awk')
      runCodeFile(ex, inv, language, script, unresolved[i] ?? false);
    // Django's manage.py hands its words to django-admin: `python manage.py shell -c CODE` is that.
    if (script !== undefined && !programFile && language === 'python' && /(^|\/)manage\.py$/.test(script))
      ex.resolve(
        {
          ...inv,
          argv: ['manage.py', ...argv.slice(i + 1)],
          unresolved: [false, ...unresolved.slice(i + 1)],
          via: [...inv.via, program],
        },
        env,
      );
    // A heredoc is the script's input, as a heredoc is an unknown program's: it may run what it reads.
    ex.heredocAsCommands(inv, program);
    return;
  }
  // No code and no script: the interpreter reads its program from stdin.
  const stdin = inv.stdin;
  if (!stdin) {
    ex.emit(inv);
    return;
  }
  // `python3 < s.py`, `node - < x.js`: the program is that file, judged as `python3 s.py` is.
  if (stdin.file !== undefined && stdin.text === undefined && language !== 'other' && language !== 'awk') {
    ex.emit(inv);
    runCodeFile(ex, inv, language, stdin.file, /[$`]/.test(stdin.file));
    return;
  }
  if (stdin.text === undefined) {
    ex.emit(inv);
    ex.flag('interpreter_stdin', inv.text);
    return;
  }
  ex.emit(inv, { payload: stdin.text });
  judgeInline(ex, inv, language, program, stdin.text);
};

/**
 * Interpreter code given inline or on stdin: plainly read-only; or read-only apart from calls that
 * hand a literal command line to the shell, whose commands are then parsed as commands of the call
 * (`awk 'BEGIN { system("ls") }'`); or unknown-dynamic.
 */
/** Options before the program file that only check its syntax, per interpreter. */
const SYNTAX_CHECK: Readonly<Record<string, RegExp>> = {
  node: /^(-c|--check)$/,
  ruby: /^-[adlnpsvwy]*c[a-zA-Z]*$/,
  php: /^(-l|--syntax-check)$/,
};

function syntaxCheckOnly(program: string, argv: readonly string[]): boolean {
  const base = program.replace(/[\d.]+$/, '');
  const check = Object.hasOwn(SYNTAX_CHECK, base) ? SYNTAX_CHECK[base] : undefined;
  if (check === undefined) return false;
  for (let k = 1; k < argv.length; k++) {
    const arg = argv[k] as string;
    if (arg === '--' || !arg.startsWith('-')) return false;
    if (check.test(arg)) return true;
  }
  return false;
}

function judgeInline(
  ex: Extractor,
  inv: Invocation,
  language: Language,
  program: string,
  code: string,
): void {
  const judged =
    isReadOnlyCode(language, code, noteCodeWrites(ex, inv, language, code, program)) ||
    judgeShellCalls(ex, inv, language, code, `${program} shell call`);
  const dirs = ex.res.dirs;
  if (!judged || shadowedImport(ex, language, code, dirs?.length === 1 ? (dirs[0] as string) : null))
    ex.flag('interpreter_code', inv.text);
}

/** `python -m NAME`: the file of NAME in the current directory (`NAME.py`, `NAME/__main__.py`), if any. */
function localModule(ex: Extractor, name: string): string | undefined {
  const files = ex.res.files;
  const dirs = ex.res.dirs;
  if (!files || dirs?.length !== 1 || !/^[A-Za-z_][\w.]*$/.test(name)) return undefined;
  const base = name.replace(/\./g, '/');
  for (const candidate of [`${base}.py`, `${base}/__main__.py`]) {
    if (files.realpath(posix.join(dirs[0] as string, candidate)) !== undefined) return candidate;
  }
  return undefined;
}

/** Whether a load option's value names source the interpreter runs: a file, not an installed package. */
function loadsSource(language: Language, option: string, value: string): boolean {
  if (language === 'awk') return ['-f', '--file', '-E', '--exec', '-i', '--include'].includes(option);
  if (
    language === 'node' &&
    ['-r', '--require', '--import', '--loader', '--experimental-loader'].includes(option)
  )
    return /^(\.{1,2}\/|\/|file:)|\.[cm]?[jt]s$/.test(value);
  return false;
}

/**
 * Source files loaded by options are judged as the program file would be (read, or unknown when the
 * session wrote them); `-f -` and `-f /dev/stdin` take the program from stdin.
 */
function judgeLoaded(
  ex: Extractor,
  inv: Invocation,
  language: Language,
  program: string,
  loaded: readonly { value: string; unresolved: boolean }[],
): void {
  for (const { value, unresolved } of loaded) {
    if (!unresolved && (value === '-' || /^\/dev\/(stdin|fd\/0)$/.test(value))) {
      // No stdin of its own: the agent's, which holds nothing.
      const stdin = inv.stdin;
      if (stdin?.text !== undefined) judgeInline(ex, inv, language, program, stdin.text);
      else if (stdin?.file !== undefined) runCodeFile(ex, inv, language, stdin.file, /[$`]/.test(stdin.file));
      else if (stdin) ex.flag('interpreter_stdin', inv.text);
    } else if (unresolved && isItem(value)) ex.flag('unresolved_code', inv.text);
    else runCodeFile(ex, inv, language, value.replace(/^file:(\/\/)?/, ''), unresolved);
  }
}

/**
 * An unresolved word filled in from input items (xargs, parallel, find) rather than a variable of
 * the agent's own environment: data flowing into a code position is treated as code.
 */
function isItem(word: string): boolean {
  return !word.includes('$') && !word.includes('`');
}

/** perl -we / ruby -ne style clusters whose last letter is the code option. */
function clusterEndsWithCode(language: string, arg: string): boolean {
  if (language !== 'perl' && language !== 'ruby' && language !== 'node') return false;
  if (!/^-[a-zA-Z]{2,}$/.test(arg)) return false;
  const last = arg[arg.length - 1];
  return language === 'node' ? arg === '-pe' : last === 'e' || last === 'E';
}

/**
 * Database clients: SQL clients are read by their own option models and their statements analysed
 * (sql-clients.ts); the NoSQL shells (mongosh, redis-cli) give their code as the payload.
 */
export const database: Handler = (ex, inv, _env, program) => {
  if (isSqlClient(program)) {
    const sql = clientSql(ex, inv, program);
    ex.emit(inv, sql?.payload !== undefined ? { payload: sql.payload } : {});
    const segment = ex.segments[ex.segments.length - 1];
    if (sql && segment) segment.sql = sql.facts;
    return;
  }
  const client = databaseClient(program);
  const { argv } = inv;
  const statements: string[] = [];
  const values =
    GLOBAL_VALUE_OPTIONS[client === 'redis-cli' ? 'redis-cli' : (client ?? '')] ?? new Set<string>();
  const codeOptions: Record<string, string[]> = {
    mongosh: ['--eval'],
    'redis-cli': [],
  };
  const options = codeOptions[client ?? ''] ?? [];
  const positionals: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i] as string;
    // `redis-cli "$CMD"`: the command itself is not known; a key or value may be.
    if (
      client === 'redis-cli' &&
      inv.unresolved[i] &&
      positionals.length === 0 &&
      !values.has(argv[i - 1] as string)
    )
      ex.flag('unresolved_code', inv.text);
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    if (options.includes(name)) {
      const value = eq > 0 && arg.startsWith('--') ? arg.slice(eq + 1) : argv[++i];
      if (value !== undefined) statements.push(value);
    } else if (arg.startsWith('-') && arg !== '-') {
      if (values.has(arg)) i++;
    } else positionals.push(arg);
  }
  if (client === 'redis-cli' && positionals.length > 0) statements.push(positionals.join(' '));
  if (inv.stdin?.text !== undefined) statements.push(inv.stdin.text);
  ex.emit(inv, statements.length > 0 ? { payload: statements.join('\n') } : {});
  // mongosh runs JavaScript with node's modules at hand: only plainly read-only queries pass.
  if (client === 'mongosh' && statements.some((code) => !isReadOnlyMongo(code)))
    ex.flag('interpreter_code', inv.text);
};

/** The file a module name loads: perl's `Foo::Bar=args` is Foo/Bar.pm, ruby's `foo/bar` is foo/bar.rb. */
function moduleFile(language: 'perl' | 'ruby', name: string): string {
  if (language === 'perl') return `${name.replace(/^-/, '').split('=')[0]?.replace(/::/g, '/')}.pm`;
  return name.endsWith('.rb') ? name : `${name}.rb`;
}

/**
 * Standard-library modules whose command line runs Python: a script or `-m MODULE` (the profilers,
 * trace, pdb), statements (timeit), or the examples of a text file (doctest). Their options that take
 * a value; pdb's `-c` gives debugger commands, which run Python (`!stmt`).
 */
const PYTHON_RUNNERS: Record<
  string,
  { values: ReadonlySet<string>; runs: 'script' | 'statements' | 'examples' }
> = {
  cProfile: { values: new Set(['-o', '--outfile', '-s', '--sort']), runs: 'script' },
  profile: { values: new Set(['-o', '--outfile', '-s', '--sort']), runs: 'script' },
  trace: {
    values: new Set(['-f', '--file', '-C', '--coverdir', '--ignore-module', '--ignore-dir']),
    runs: 'script',
  },
  pdb: { values: new Set(['-c', '--command']), runs: 'script' },
  timeit: {
    values: new Set(['-n', '--number', '-r', '--repeat', '-s', '--setup', '-u', '--unit']),
    runs: 'statements',
  },
  doctest: { values: new Set(['-o', '--option']), runs: 'examples' },
};

/** `python -m cProfile FILE`, `-m timeit STMT`, …: judged as the Python they run. False for other modules. */
function runsPython(
  ex: Extractor,
  inv: Invocation,
  env: Env,
  program: string,
  cli: { argv: string[]; unresolved: boolean[] },
): boolean {
  const module = cli.argv[0] as string;
  const spec = Object.hasOwn(PYTHON_RUNNERS, module) ? PYTHON_RUNNERS[module] : undefined;
  if (!spec) return false;
  ex.emit(inv);
  const statements: string[] = [];
  for (let i = 1; i < cli.argv.length; i++) {
    const arg = cli.argv[i] as string;
    if (cli.unresolved[i]) {
      ex.flag('unresolved_code', inv.text);
      return true;
    }
    const name = arg.startsWith('--') && arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    if ((module === 'pdb' && (name === '-c' || name === '--command')) || spec.runs === 'examples') {
      ex.flag('interpreter_code', inv.text);
      return true;
    }
    if (spec.runs === 'script' && (arg === '-m' || (arg !== '-' && !arg.startsWith('-')))) {
      // The script (or -m MODULE) and its arguments, as python itself would be given them.
      ex.resolve(
        { ...inv, argv: [program, ...cli.argv.slice(i)], unresolved: [false, ...cli.unresolved.slice(i)] },
        env,
      );
      return true;
    }
    if (spec.runs === 'statements' && (name === '-s' || name === '--setup' || !arg.startsWith('-'))) {
      const value = !arg.startsWith('-') ? arg : name !== arg ? arg.slice(name.length + 1) : cli.argv[++i];
      if (value !== undefined) statements.push(value);
      continue;
    }
    if (spec.values.has(name) && name === arg) i++;
  }
  if (statements.length > 0) judgeInline(ex, inv, 'python', program, statements.join('\n'));
  return true;
}

/** The program a module's `__main__` is (`python -m awscli` is aws); most install one of their own name. */
const MODULE_PROGRAMS: Record<string, string> = { awscli: 'aws', django: 'django-admin' };

function moduleProgram(module: string): string {
  return Object.hasOwn(MODULE_PROGRAMS, module) ? (MODULE_PROGRAMS[module] as string) : module;
}
