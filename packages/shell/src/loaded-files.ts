// The project files a tool loads and runs when it starts (pytest's conftest.py, cargo's build.rs, a
// Taskfile, a Rakefile, vitest's config; a justfile is read by recipe-runners.ts): the project's own
// code, not judged here, but listed as files the command runs, so that one the session wrote and has
// not read since is refused (as a script is), and one the same command writes first is caught.
// `python -m pytest` is the segment `pytest` too (code.ts), so it lists them as well. The files of a
// local project a build front-end builds (pip, cmake, cargo's manifest, npm's local packages) are
// found in loaded-projects.ts, ninja's build files in ninja.ts; a PYTHONPATH's sitecustomize.py here.
import { posix } from 'node:path';
import type { Extractor, Invocation } from './extract.js';
import { findUpward } from './find-upward.js';
import { projectFiles } from './loaded-projects.js';
import { runNinja } from './ninja.js';
import type { Resolver } from './resolve.js';
import { noteProjectCode, noteScript } from './scripts.js';
import type { SessionCodeLanguage } from './session-code.js';

const JS = ['js', 'mjs', 'cjs', 'ts', 'mts', 'cts'];
const configs = (...stems: string[]): string[] => stems.flatMap((stem) => JS.map((ext) => `${stem}.${ext}`));
/** A tool's rc file in every spelling: bare (JSON or YAML), data and code. */
const rcFiles = (stem: string, ...exts: string[]): string[] => [stem, ...exts.map((ext) => `${stem}.${ext}`)];

const PYTEST = ['conftest.py', 'tests/conftest.py', 'test/conftest.py'];
// Babel's and PostCSS's configs are code the tools that transform with them load (jest's babel-jest,
// vite's CSS pipeline) as well as their own CLIs.
const BABEL = [
  ...configs('babel.config'),
  'babel.config.json',
  ...rcFiles('.babelrc', 'js', 'cjs', 'mjs', 'json'),
];
const POSTCSS = [...configs('postcss.config'), ...rcFiles('.postcssrc', 'json', 'yaml', 'yml', ...JS)];
const COMPOSE = [
  'compose.yaml',
  'compose.yml',
  'docker-compose.yml',
  'docker-compose.yaml',
  // Merged over the file above without being named.
  'compose.override.yaml',
  'compose.override.yml',
  'docker-compose.override.yml',
  'docker-compose.override.yaml',
];
// Maven's JVM options (`-javaagent:`), its command-line defaults and build extensions beside the POM.
const MAVEN = ['pom.xml', '.mvn/jvm.config', '.mvn/maven.config', '.mvn/extensions.xml'];
// buildSrc is compiled and run before the build; gradle.properties holds the daemon's JVM arguments.
const GRADLE = [
  'build.gradle',
  'build.gradle.kts',
  'settings.gradle',
  'settings.gradle.kts',
  'init.gradle',
  'init.gradle.kts',
  'gradle.properties',
  'buildSrc/build.gradle',
  'buildSrc/build.gradle.kts',
  'buildSrc/settings.gradle',
  'buildSrc/settings.gradle.kts',
];

const MISE = [
  'mise.toml',
  '.mise.toml',
  'mise.local.toml',
  '.mise.local.toml',
  'mise/config.toml',
  '.mise/config.toml',
  '.config/mise.toml',
  '.config/mise/config.toml',
  'mise-tasks/*',
  '.mise-tasks/*',
  'mise/tasks/*',
  '.mise/tasks/*',
  '.config/mise/tasks/*',
];

/** Per program, the files it loads from the directory it runs in. */
const LOADED: Record<string, readonly string[]> = {
  pytest: PYTEST,
  'py.test': PYTEST,
  task: ['Taskfile.yml', 'Taskfile.yaml', 'taskfile.yml', 'taskfile.yaml'],
  rake: ['Rakefile', 'rakefile', 'Rakefile.rb'],
  tox: ['tox.ini'],
  nox: ['noxfile.py'],
  vitest: [...configs('vitest.config', 'vite.config', 'vitest.workspace'), ...POSTCSS],
  vite: [...configs('vite.config'), ...POSTCSS],
  jest: [...configs('jest.config'), ...BABEL],
  eslint: [...configs('eslint.config'), ...rcFiles('.eslintrc', 'js', 'cjs', 'json', 'yaml', 'yml')],
  prettier: [
    ...configs('prettier.config'),
    // The data forms name plugins, which may be a file of the project.
    ...rcFiles('.prettierrc', 'js', 'cjs', 'mjs', 'ts', 'json', 'yaml', 'yml', 'json5', 'toml'),
  ],
  webpack: configs('webpack.config'),
  next: [...configs('next.config'), ...POSTCSS],
  playwright: configs('playwright.config'),
  'lint-staged': [
    ...rcFiles('.lintstagedrc', 'json', 'yaml', 'yml', 'js', 'cjs', 'mjs'),
    ...configs('lint-staged.config'),
  ],
  gulp: configs('gulpfile'),
  grunt: ['Gruntfile.js', 'Gruntfile.coffee', 'gruntfile.js', 'gruntfile.coffee'],
  babel: BABEL,
  'babel-node': BABEL,
  rollup: configs('rollup.config'),
  mocha: rcFiles('.mocharc', 'js', 'cjs', 'mjs', 'yml', 'yaml', 'json', 'jsonc'),
  postcss: POSTCSS,
  stylelint: [
    ...configs('stylelint.config'),
    ...rcFiles('.stylelintrc', 'js', 'cjs', 'mjs', 'json', 'yaml', 'yml'),
  ],
  tailwindcss: configs('tailwind.config'),
  'docker-compose': COMPOSE,
  'podman-compose': COMPOSE,
  docker: COMPOSE,
  podman: COMPOSE,
  mvn: MAVEN,
  mvnw: MAVEN,
  gradle: GRADLE,
  gradlew: GRADLE,
  // meson.build runs commands at configure time (run_command), the options file is read with it.
  meson: ['meson.build', 'meson_options.txt', 'meson.options'],
  // A local hook's `entry` is a command line the config gives.
  'pre-commit': ['.pre-commit-config.yaml', '.pre-commit-config.yml'],
  vagrant: ['Vagrantfile'],
  // The Gemfile is Ruby bundler evaluates on every command; a Brewfile is Ruby too (brew bundle).
  bundle: ['Gemfile', 'gems.rb'],
  bundler: ['Gemfile', 'gems.rb'],
  brew: ['Brewfile'],
  // Task runners whose tasks are command lines or code in the project's own files.
  deno: ['deno.json', 'deno.jsonc'],
  composer: ['composer.json'],
  pdm: ['pyproject.toml', 'pdm.toml', '.pdm.toml'],
  poe: ['pyproject.toml', 'poe_tasks.toml', 'poe_tasks.yaml', 'poe_tasks.yml', 'poe_tasks.json'],
  hatch: ['pyproject.toml', 'hatch.toml'],
  invoke: ['tasks.py', 'invoke.yaml', 'invoke.yml'],
  inv: ['tasks.py', 'invoke.yaml', 'invoke.yml'],
  fab: ['fabfile.py', 'fabfile/__init__.py'],
  doit: ['dodo.py'],
  scons: ['SConstruct', 'Sconstruct', 'sconstruct', 'SConscript'],
  nx: ['nx.json', 'project.json'],
  earthly: ['Earthfile'],
  // Build descriptions that are code the build runs: Elixir, Zig, Swift, Scala, MSBuild, Starlark.
  mix: ['mix.exs', 'config/config.exs'],
  zig: ['build.zig', 'build.zig.zon'],
  swift: ['Package.swift'],
  sbt: ['build.sbt', 'project/*.sbt', 'project/*.scala'],
  dotnet: ['*.csproj', '*.fsproj', '*.vbproj', '*.sln', 'Directory.Build.props', 'Directory.Build.targets'],
  msbuild: ['*.csproj', '*.fsproj', '*.vbproj', '*.sln', 'Directory.Build.props', 'Directory.Build.targets'],
  // mise reads its config for every command (`[env] _.source` runs a script, `[tasks]` are command
  // lines), and runs the files of its task directories by name.
  mise: MISE,
  rtx: MISE,
  bazel: ['BUILD', 'BUILD.bazel', 'WORKSPACE', 'WORKSPACE.bazel', 'MODULE.bazel', '.bazelrc'],
  bazelisk: ['BUILD', 'BUILD.bazel', 'WORKSPACE', 'WORKSPACE.bazel', 'MODULE.bazel', '.bazelrc'],
};

/**
 * Test runners: they load the project's tests and every module those import, code the gate does not
 * read. Listed per language so core can judge what of it the session wrote (session-code.ts).
 */
const TEST_RUNNERS: Record<string, SessionCodeLanguage> = {
  pytest: 'python',
  'py.test': 'python',
  // `python -m unittest` is the segment `unittest` (code.ts).
  unittest: 'python',
  nose2: 'python',
  // tox and nox run the commands their files give (tox.ini, noxfile.py: the suite, as a rule).
  tox: 'python',
  nox: 'python',
  vitest: 'node',
  jest: 'node',
  mocha: 'node',
  ava: 'node',
  jasmine: 'node',
  tap: 'node',
  rspec: 'ruby',
  rake: 'ruby',
};
/**
 * Runners that are subcommands of a wider tool: `playwright test`, `bun test`, `go test`/`run`/
 * `generate`, and cargo's every command that builds (build scripts and proc macros run then).
 */
const TEST_SUBCOMMANDS: Record<string, { language: SessionCodeLanguage; subcommands: readonly string[] }> = {
  playwright: { language: 'node', subcommands: ['test'] },
  bun: { language: 'node', subcommands: ['test'] },
  deno: { language: 'node', subcommands: ['test'] },
  go: { language: 'go', subcommands: ['test', 'run', 'generate'] },
  cargo: {
    language: 'rust',
    subcommands: ['test', 'run', 'bench', 'build', 'check', 'clippy', 'doc', 'nextest'],
  },
  rails: { language: 'ruby', subcommands: ['test'] },
  hatch: { language: 'python', subcommands: ['run', 'test'] },
  pdm: { language: 'python', subcommands: ['test'] },
};

/** Asked only what it is, a runner loads nothing. */
const ONLY_ASKS = /^(?:-h|--help|-V|--version)$/;

function noteTestRunner(ex: Extractor, program: string, args: readonly string[]): void {
  const language =
    (Object.hasOwn(TEST_RUNNERS, program) ? TEST_RUNNERS[program] : undefined) ??
    (Object.hasOwn(TEST_SUBCOMMANDS, program) &&
    TEST_SUBCOMMANDS[program]?.subcommands.includes(args.find((a) => !/^[-+]/.test(a)) ?? '')
      ? TEST_SUBCOMMANDS[program]?.language
      : undefined);
  if (language !== undefined && !args.some((a) => ONLY_ASKS.test(a))) noteTestCode(ex, language, args);
}

/** Words of a runner read as paths it may load tests from (`pytest /tmp/t.py`, `node --test ../x`). */
const MAX_RUNNER_PATHS = 16;

/**
 * A test runner's command (`pytest`, `node --test`): the project's code in that language is noted as
 * run (noteProjectCode), from the top of the repository the command runs in (tests import the
 * project from its root), or from the directory itself outside one; from everywhere when where it
 * runs is not known. A path among its words that lies elsewhere (`pytest /tmp/t.py`) is noted too.
 */
export function noteTestCode(
  ex: Extractor,
  language: SessionCodeLanguage,
  args: readonly string[] = [],
): void {
  const files = ex.res.files;
  if (!files) return;
  const git = findUpward(ex, ['.git']);
  const dirs = ex.res.dirs;
  const tops =
    git !== undefined && git !== 'unknown'
      ? [posix.dirname(git)]
      : dirs && dirs.length > 0 && dirs.every((d) => d.startsWith('/'))
        ? dirs
        : ['/'];
  for (const top of tops) noteProjectCode(ex.res, language, top);
  const inside = (path: string) =>
    tops.some((top) => top === '/' || path === top || path.startsWith(`${top}/`));
  let asked = 0;
  for (const word of args) {
    if (word === '' || word.startsWith('-') || asked++ >= MAX_RUNNER_PATHS) continue;
    const { paths, unresolved } = ex.res.paths(word);
    if (unresolved) continue;
    for (const path of paths) {
      if (!path.startsWith('/') || inside(path)) continue;
      if (files.readdir(path) !== undefined) noteProjectCode(ex.res, language, path);
      else if (files.realpath(path) !== undefined) noteProjectCode(ex.res, language, posix.dirname(path));
    }
  }
}

/**
 * Options that name a file the tool loads as its config or a plugin (`--config FILE`, `--config=FILE`):
 * long names, and the short ones that mean the same to that tool (prettier's `-c` is --check,
 * mocha's --colors: not listed for them).
 */
const CONFIG_OPTIONS: Record<string, readonly string[]> = {
  eslint: ['-c', '--config', '--plugin'],
  prettier: ['--config', '--plugin'],
  rollup: ['-c', '--config', '-p', '--plugin'],
  webpack: ['-c', '--config'],
  mocha: ['--config', '-r', '--require'],
  jest: ['-c', '--config'],
  vitest: ['-c', '--config'],
  vite: ['-c', '--config'],
  playwright: ['-c', '--config'],
  stylelint: ['-c', '--config'],
  'lint-staged': ['-c', '--config'],
  babel: ['--config-file'],
  'babel-node': ['--config-file'],
  gulp: ['-f', '--gulpfile'],
  grunt: ['--gruntfile'],
  tailwindcss: ['-c', '--config'],
  tox: ['-c', '--conf'],
  nox: ['-f', '--noxfile'],
  task: ['-t', '--taskfile'],
  rake: ['-f', '--rakefile', '-r', '--require'],
  ctest: ['-S', '-SP', '--script'],
  'docker-compose': ['-f', '--file'],
  'podman-compose': ['-f', '--file'],
  docker: ['-f', '--file'],
  podman: ['-f', '--file'],
  mvn: ['-f', '--file'],
  mvnw: ['-f', '--file'],
  gradle: ['-b', '--build-file', '-c', '--settings-file', '-I', '--init-script'],
  gradlew: ['-b', '--build-file', '-c', '--settings-file', '-I', '--init-script'],
  'pre-commit': ['-c', '--config'],
  bundle: ['--gemfile'],
  bundler: ['--gemfile'],
  brew: ['--file'],
};

/** Compose subcommands that read the compose file to make or build containers (`start` and `exec` reuse them). */
const COMPOSE_MAKES = new Set(['up', 'run', 'create', 'build', 'watch']);
/** Options of `docker compose` (and of docker itself) before the subcommand that take the next word. */
const COMPOSE_VALUED = new Set([
  '-f',
  '--file',
  '-p',
  '--project-name',
  '--project-directory',
  '--env-file',
  '--profile',
  '--ansi',
  '--progress',
  '--parallel',
  '-c',
  '--context',
  '-H',
  '--host',
  '--config',
  '-l',
  '--log-level',
]);

/** The first word after `from` that is no option nor an option's value, and its index; -1 when none. */
function subcommand(args: readonly string[], valued: ReadonlySet<string>, from = 0): number {
  for (let k = from; k < args.length; k++) {
    const word = args[k] as string;
    if (valued.has(word)) k++;
    else if (!word.startsWith('-') && !word.startsWith('+')) return k;
  }
  return -1;
}

/**
 * Whether the tool, given these words, starts up loading its files: compose only when it makes containers, docker and podman only as compose, maven and gradle
 * unless only asked their version or help, brew for `bundle`.
 */
function loads(program: string, args: readonly string[]): boolean {
  if (program === 'docker' || program === 'podman') {
    const k = subcommand(args, COMPOSE_VALUED);
    return args[k] === 'compose' && COMPOSE_MAKES.has(args[subcommand(args, COMPOSE_VALUED, k + 1)] ?? '');
  }
  if (program.endsWith('-compose')) return COMPOSE_MAKES.has(args[subcommand(args, COMPOSE_VALUED)] ?? '');
  // brew reads a Brewfile for `brew bundle` only.
  if (program === 'brew') return args.includes('bundle');
  if (/^(mvnw?|gradlew?)$/.test(program))
    return !args.every((a) => /^(-v|--version|-h|--help|-q|--quiet)$/.test(a)) || args.length === 0;
  return true;
}

/** Values of the tool's config options among its words (`-c FILE`, `--config FILE`, `--config=FILE`). */
function configValues(program: string, args: readonly string[]): string[] {
  const names = Object.hasOwn(CONFIG_OPTIONS, program) ? (CONFIG_OPTIONS[program] as readonly string[]) : [];
  const values: string[] = [];
  for (let k = 0; k < args.length; k++) {
    const word = args[k] as string;
    if (word === '--') break;
    if (names.includes(word) && k + 1 < args.length) values.push(args[++k] as string);
    const long = names.find((name) => name.startsWith('--') && word.startsWith(`${name}=`));
    if (long !== undefined) values.push(word.slice(long.length + 1));
  }
  // A plugin or config named as a package (`--plugin prettier-plugin-x`) is no file here: only ones there are listed.
  return values;
}

/** Lists a file the command loads when it is there (wherever the command may stand). */
export function noteLoaded(ex: Extractor, word: string): void {
  const files = ex.res.files;
  if (!files || word === '') return;
  // `*.csproj`, `project/*.scala`: every file of that ending where the command runs (`tasks/*`: every file).
  const star = /^((?:[^*/]+\/)*)\*([^*/]*)$/.exec(word);
  if (star) {
    const [, dir = '', ending = ''] = star;
    for (const base of ex.res.dirs ?? []) {
      if (!base.startsWith('/')) continue;
      for (const name of files.readdir(posix.join(base, dir)) ?? [])
        if (name.endsWith(ending) && name !== ending) noteLoaded(ex, `${dir}${name}`);
    }
    return;
  }
  const { paths, unresolved } = ex.res.paths(word);
  if (unresolved) return;
  // A directory named where a file was meant (`-c conf/`) runs nothing of itself.
  for (const path of paths)
    if (files.realpath(path) !== undefined && files.readdir(path) === undefined) noteScript(ex.res, path);
}

export function noteLoadedFiles(ex: Extractor, inv: Invocation, program: string): void {
  if (!ex.res.files) return;
  const args = inv.argv.slice(1);
  notePythonPath(ex, inv);
  noteVenvStartup(ex, inv);
  // Asked for its usage, a tool loads no project (`uv sync --help`).
  if (args.includes('--help')) return;
  noteTestRunner(ex, program, args);
  for (const word of projectFiles(ex, inv, program, args)) noteLoaded(ex, word);
  if (program === 'ninja' || program === 'samu') runNinja(ex, inv, args);
  const names = Object.hasOwn(LOADED, program) ? LOADED[program] : undefined;
  if (names === undefined || !loads(program, args)) return;
  for (const name of names) noteLoaded(ex, name);
  for (const value of configValues(program, args)) noteLoaded(ex, value);
}

/** At most this many `.pth` files of one environment are listed (pip's own come to a handful). */
const MAX_PTH = 64;

/**
 * A program of a virtual environment (its python, or a console script whose `#!` is that python)
 * starts python's site, which runs the `import` lines of every `.pth` file in the environment's
 * site-packages: those files are code the command loads (`zz.pth` written into .venv ran at
 * `.venv/bin/python -c 'print(1)'`). Found where PATH or the program's path puts its bin/.
 */
function noteVenvStartup(ex: Extractor, inv: Invocation): void {
  const files = ex.res.files;
  const word = inv.argv[0];
  if (!files || word === undefined || word === '' || inv.unresolved[0]) return;
  // Per program word and per bin directory, once a parse: a script names the same few programs.
  const known = ex.res.slot(VENV_PTH, () => ({
    words: new Map<string, string | null>(),
    bins: new Map<string, string[]>(),
  }));
  let at = known.words.get(word);
  if (at === undefined) {
    // The path as named, links not followed: a venv's python is a link to the system's.
    const dirs = ex.res.dirs;
    const found = word.includes('/')
      ? dirs?.length === 1 && !/[~$`*?[]/.test(word)
        ? { paths: [posix.resolve(dirs[0] as string, word)], unresolved: false }
        : { paths: [], unresolved: true }
      : { ...ex.res.onPath(word, () => false), unresolved: false };
    at = found.unresolved || found.paths.length !== 1 ? null : (found.paths[0] as string);
    known.words.set(word, at);
  }
  if (at === null) return;
  const bin = posix.dirname(at);
  let pth = known.bins.get(bin);
  if (pth === undefined) {
    pth = venvStartupFiles(files, posix.dirname(bin));
    known.bins.set(bin, pth);
  }
  for (const file of pth) noteLoaded(ex, file);
}

/** The `.pth` files of the environment at `venv` (none when it holds no pyvenv.cfg). */
function venvStartupFiles(files: NonNullable<Extractor['res']['files']>, venv: string): string[] {
  if (files.realpath(posix.join(venv, 'pyvenv.cfg')) === undefined) return [];
  const out: string[] = [];
  for (const lib of ['lib', 'lib64'])
    for (const version of files.readdir(posix.join(venv, lib)) ?? []) {
      if (!/^python\d/.test(version)) continue;
      const site = posix.join(venv, lib, version, 'site-packages');
      for (const name of files.readdir(site) ?? [])
        if (name.endsWith('.pth') && out.length < MAX_PTH) out.push(posix.join(site, name));
    }
  return out;
}

/** The slot of each bin directory's environment start-up files. */
const VENV_PTH = {};

/** The slot of the PYTHONPATH values the shell assigns. */
const PYTHON_PATHS = {};

/**
 * `PYTHONPATH=…` assigned or exported in the shell itself (not for one command): every program
 * after it may be python, which then loads that path's sitecustomize.py.
 */
export function notePythonPathAssignment(res: Resolver, value: string): void {
  res.slot(PYTHON_PATHS, () => [] as string[]).push(value);
}

/**
 * A PYTHONPATH (given to this command, assigned in the shell, or the session's own) puts its
 * entries on sys.path before python's site runs, which imports `sitecustomize` and `usercustomize`
 * from the first entry that has them: those are code the command loads. An empty entry is the
 * working directory. (Without PYTHONPATH the working directory is put on the path only after site
 * has run, so a sitecustomize.py there is not loaded.)
 */
function notePythonPath(ex: Extractor, inv: Invocation): void {
  const own = inv.assignments.filter((a) => a.startsWith('PYTHONPATH=')).map((a) => a.slice(11));
  const values = own.length > 0 ? own.slice(-1) : [...ex.res.slot(PYTHON_PATHS, () => [] as string[])];
  const inherited = ex.res.ctx?.env?.PYTHONPATH;
  if (own.length === 0 && inherited !== undefined) values.push(inherited);
  for (const value of values) {
    for (const entry of value.split(':')) {
      if (/[$`]/.test(entry)) continue;
      const dir = entry === '' ? '.' : entry;
      noteLoaded(ex, posix.join(dir, 'sitecustomize.py'));
      noteLoaded(ex, posix.join(dir, 'usercustomize.py'));
    }
  }
}
