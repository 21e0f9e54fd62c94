// The local projects a build front-end builds, and the files of each it loads and runs: a Python
// project's setup.py (pip, uv, poetry, pipx, `python -m build`), a CMakeLists.txt (cmake's configure
// step) or a `cmake -P` script, a crate's build.rs and manifest and those of its path dependencies and
// workspace members, a local npm package's package.json (its lifecycle scripts) and binding.gyp.
// Returned as words (relative to where the command stands) for loaded-files.ts to list.
import { posix } from 'node:path';
import type { Extractor, Invocation } from './extract.js';
import { noteReadInput } from './scripts.js';

/** Files of a Python project a build backend loads: setup.py runs, the others name the backend and its hooks. */
const PYTHON_PROJECT = ['setup.py', 'setup.cfg', 'pyproject.toml'];
/** Most projects (crates, packages, requirement files) followed from one command. */
const MAX_PROJECTS = 32;
const MAX_MANIFEST = 256 * 1024;

/** The text of a file named by a word, if there is exactly one such file and it is small. */
function readWord(ex: Extractor, word: string): { path: string; text: string } | undefined {
  const { paths, unresolved } = ex.res.paths(word);
  const path = paths[0];
  if (unresolved || paths.length !== 1 || path === undefined) return undefined;
  const text = ex.res.files?.readText(path, MAX_MANIFEST);
  return text === undefined ? undefined : { path, text };
}

const inDir = (dir: string, names: readonly string[]): string[] => names.map((name) => posix.join(dir, name));
/** Each Python project directory's build files. */
const projectsFiles = (dirs: readonly string[]): string[] =>
  dirs.flatMap((dir) => inDir(dir, PYTHON_PROJECT));

/** Files a build front-end given these words loads, as words; none for another program. */
export function projectFiles(
  ex: Extractor,
  inv: Invocation,
  program: string,
  args: readonly string[],
): string[] {
  if (/^pip(\d+(\.\d+)?)?$/.test(program)) return pipFiles(ex, args);
  if (program === 'build' && /^(python|pypy)/.test(posix.basename(inv.via.at(-1) ?? '')))
    return inDir(buildSource(args), PYTHON_PROJECT);
  if (program === 'uv') return projectsFiles(uvProjects(ex, args));
  if (program === 'poetry') return poetryFiles(args);
  if (program === 'pipx') return pipxFiles(args);
  if (program === 'cmake') return cmakeFiles(ex, args);
  if (program === 'cargo') return cargoFiles(ex, args);
  if (program === 'npm' || program === 'pnpm' || program === 'yarn' || program === 'bun')
    return npmLocalPackages(ex, program, args);
  return [];
}

// --- Python ---------------------------------------------------------------------------------------

/** pip's options that take the next word (besides -e and -r, read for what they name). */
const PIP_VALUED = new Set(
  (
    '-c --constraint -t --target -i --index-url --extra-index-url -f --find-links --prefix --root --src ' +
    '--upgrade-strategy --python-version --platform --only-binary --no-binary -C --config-settings ' +
    '--global-option -w --wheel-dir -d --dest --progress-bar --log --cache-dir --proxy --timeout --retries ' +
    '--exists-action --trusted-host --cert --client-cert --abi --implementation --report --python ' +
    '--use-feature --use-deprecated --keyring-provider --root-user-action --group -p'
  ).split(' '),
);
const PIP_BUILDS = new Set(['install', 'wheel', 'download', 'sync']);

/**
 * A requirement that names a local project: a path (`.`, `./dep`, `../x`, `/abs`, `dir/sub`), a
 * `file:` URL, or `name @ file:…`; extras (`.[test]`) and `#egg=` fragments dropped. Undefined for a
 * package name or a remote URL.
 */
export function localRequirement(spec: string): string | undefined {
  let word = spec.trim();
  const at = /^[\w.-]+(\[[^\]]*\])?\s*@\s*(.+)$/.exec(word);
  if (at) word = at[2] as string;
  word = word.replace(/#.*$/, '');
  if (/^file:/.test(word)) word = word.replace(/^file:(\/\/(localhost)?)?/, '');
  else if (/^[a-z][\w+.-]*:/i.test(word)) return undefined;
  word = word.replace(/\[[^\]]*\]$/, '');
  if (word === '') return undefined;
  if (/^(\.{1,2}(\/|$)|\/)/.test(word) || (word.includes('/') && !/[<>=!~;]/.test(word))) return word;
  return undefined;
}

/** The local projects `pip install|wheel|download` (from `from`, past the subcommand) builds: operands, `-e`, and `-r` files' lines. */
function pipTargets(ex: Extractor, args: readonly string[], from: number): string[] {
  const targets: string[] = [];
  const requirements: string[] = [];
  for (let k = from; k < args.length; k++) {
    const word = args[k] as string;
    if (word === '-e' || word === '--editable') targets.push(args[++k] ?? '');
    else if (word.startsWith('--editable=')) targets.push(word.slice(11));
    else if (word === '-r' || word === '--requirement') requirements.push(args[++k] ?? '');
    else if (word.startsWith('--requirement=')) requirements.push(word.slice(14));
    else if (PIP_VALUED.has(word)) k++;
    else if (!word.startsWith('-')) targets.push(word);
  }
  // `uv pip sync req.txt` names its requirement files as operands.
  for (const word of targets) if (/\.(txt|in)$/.test(word)) requirements.push(word);
  return [...targets, ...requirementProjects(ex, requirements)];
}

/**
 * The local projects requirement files name (`-e ./dep`, `./dep`, `dep @ file:…`), following nested
 * `-r` files; each file read is one the command's decision rests on (a write of it first is caught).
 */
function requirementProjects(ex: Extractor, files: readonly string[]): string[] {
  const found: string[] = [];
  const queue = [...files];
  for (let n = 0; n < queue.length && n < MAX_PROJECTS; n++) {
    const file = readWord(ex, queue[n] as string);
    if (file === undefined) continue;
    noteReadInput(ex.res, file.path);
    const base = posix.dirname(file.path);
    for (const raw of file.text.split('\n')) {
      const line = raw.replace(/(^|\s)#.*$/, '').trim();
      const m = /^(-e|--editable|-r|--requirement|-c|--constraint)(?:\s+|=)(\S+)/.exec(line);
      if (m && /^(-r|--requirement)$/.test(m[1] as string)) queue.push(posix.resolve(base, m[2] as string));
      if (m && /^(-c|--constraint)$/.test(m[1] as string)) continue;
      const local = localRequirement(m ? (m[2] as string) : line);
      if (local === undefined || (m && /^(-r|--requirement)$/.test(m[1] as string))) continue;
      // pip reads a relative path against the working directory; newer releases against the file.
      found.push(local, posix.resolve(base, local));
    }
  }
  return found;
}

/** The local projects among requirements (paths, `file:` URLs), bounded. */
const localProjects = (specs: readonly string[]): string[] =>
  specs
    .map(localRequirement)
    .filter((t): t is string => t !== undefined)
    .slice(0, MAX_PROJECTS);

/** Each local project's build files, for a pip subcommand that builds one. */
function pipFiles(ex: Extractor, args: readonly string[]): string[] {
  const k = subcommand(args, PIP_VALUED);
  if (!PIP_BUILDS.has(args[k] ?? '')) return [];
  return projectsFiles(localProjects(pipTargets(ex, args, k + 1)));
}

/** `python -m build [SRCDIR]`: the source directory, `.` unless named. */
function buildSource(args: readonly string[]): string {
  const valued = new Set(['-o', '--outdir', '-C', '--config-setting', '--installer']);
  for (let k = 0; k < args.length; k++) {
    const word = args[k] as string;
    if (valued.has(word)) k++;
    else if (!word.startsWith('-')) return word;
  }
  return '.';
}

/** uv's options that take the next word. */
const UV_VALUED = new Set(
  (
    '--directory --project -p --python --with --with-editable --with-requirements --extra --group --package ' +
    '--index --default-index -i --index-url --extra-index-url -f --find-links --cache-dir --config-file ' +
    '--color --env-file -C --config-setting --prerelease --resolution --exclude-newer --link-mode --target --prefix'
  ).split(' '),
);
/** uv commands that install the project itself (into .venv) or build it. */
const UV_SYNCS = new Set(['sync', 'run', 'add', 'build', 'remove']);

/** The projects a uv command builds: `uv pip install …` as pip; `uv sync|run|add|build` the project (`--directory`/`--project`). */
function uvProjects(ex: Extractor, args: readonly string[]): string[] {
  const k = subcommand(args, UV_VALUED);
  const sub = args[k];
  if (sub === 'pip') {
    const j = subcommand(args, UV_VALUED, k + 1);
    if (!PIP_BUILDS.has(args[j] ?? '')) return [];
    return localProjects(pipTargets(ex, args, j + 1));
  }
  if (sub === 'tool' && args[subcommand(args, UV_VALUED, k + 1)] === 'install')
    return operands(args, UV_VALUED, k + 2).filter((w) => localRequirement(w) !== undefined);
  if (sub === undefined || !UV_SYNCS.has(sub) || args.some((a) => a === '--no-sync' || a === '--no-project'))
    return [];
  return [projectOption(args, ['--directory', '--project']) ?? '.'];
}

/** The value of the first of these options (`--opt DIR`, `--opt=DIR`), if given. */
function projectOption(args: readonly string[], names: readonly string[]): string | undefined {
  for (let k = 0; k < args.length; k++) {
    const word = args[k] as string;
    if (names.includes(word)) return args[k + 1];
    const long = names.find((name) => word.startsWith(`${name}=`));
    if (long !== undefined) return word.slice(long.length + 1);
  }
  return undefined;
}

/** Words from `from` that are no option nor an option's value. */
function operands(args: readonly string[], valued: ReadonlySet<string>, from = 0): string[] {
  const found: string[] = [];
  for (let k = from; k < args.length; k++) {
    const word = args[k] as string;
    if (valued.has(word)) k++;
    else if (!word.startsWith('-')) found.push(word);
  }
  return found;
}

/** The first operand's index from `from`, -1 when none. */
function subcommand(args: readonly string[], valued: ReadonlySet<string>, from = 0): number {
  for (let k = from; k < args.length; k++) {
    const word = args[k] as string;
    if (valued.has(word)) k++;
    else if (!word.startsWith('-')) return k;
  }
  return -1;
}

const POETRY_VALUED = new Set([
  '-C',
  '--directory',
  '-P',
  '--project',
  '-E',
  '--extras',
  '--with',
  '--without',
  '--only',
  '-G',
  '--group',
]);
/**
 * `poetry install|sync|build` builds the project (poetry-core runs a `build.py` the pyproject names);
 * `poetry add ./dep` builds that one.
 */
function poetryFiles(args: readonly string[]): string[] {
  const k = subcommand(args, POETRY_VALUED);
  const sub = args[k];
  const dir = projectOption(args, ['-C', '--directory', '-P', '--project']) ?? '.';
  if (sub === 'install' || sub === 'sync' || sub === 'build')
    return inDir(dir, [...PYTHON_PROJECT, 'build.py']);
  if (sub === 'add')
    return projectsFiles(
      operands(args, POETRY_VALUED, k + 1).filter((w) => localRequirement(w) !== undefined),
    );
  return [];
}

const PIPX_VALUED = new Set([
  '--python',
  '--suffix',
  '--pip-args',
  '--index-url',
  '--preinstall',
  '--backend',
  '--spec',
]);
/** `pipx install|inject|run` a local project (`pipx install .`, `--spec ./x`). */
function pipxFiles(args: readonly string[]): string[] {
  const k = subcommand(args, PIPX_VALUED);
  if (!['install', 'inject', 'run', 'upgrade'].includes(args[k] ?? '')) return [];
  const spec = projectOption(args, ['--spec']);
  const words = [...operands(args, PIPX_VALUED, k + 1), ...(spec === undefined ? [] : [spec])];
  return projectsFiles(localProjects(words));
}

// --- CMake ----------------------------------------------------------------------------------------

/** cmake's options that take the next word when not written together with it. */
const CMAKE_VALUED = new Set([
  '-S',
  '-B',
  '-C',
  '-D',
  '-U',
  '-G',
  '-T',
  '-A',
  '-P',
  '--toolchain',
  '--install-prefix',
]);
/** cmake modes that run what configure generated or a tool of cmake's own, not the project's CMakeLists.txt. */
const CMAKE_OTHER = /^(--build|--install|-E|--open|--help.*|-h|--version|--find-package|--workflow)$/;

/**
 * Files cmake runs: `-P FILE` (a script; with `-C FILE`, a cache script run first), and for a
 * configure, the source directory's CMakeLists.txt (`-S DIR`, the directory operand, or the source
 * an existing build directory's cache names), the `-C` cache scripts and the toolchain file.
 */
function cmakeFiles(ex: Extractor, args: readonly string[]): string[] {
  const given = cmakeWords(args);
  if (given.script !== undefined) return [given.script, ...given.scripts];
  if (args.some((a) => CMAKE_OTHER.test(a))) return [];
  const source = given.source ?? (given.path === undefined ? '.' : cmakeSource(ex, given.path));
  return [posix.join(source, 'CMakeLists.txt'), ...given.scripts];
}

/** cmake's words as it reads them: the source, the directory operand, `-P`, and `-C`/toolchain scripts. */
function cmakeWords(args: readonly string[]): {
  source?: string;
  path?: string;
  script?: string;
  scripts: string[];
} {
  const found: { source?: string; path?: string; script?: string; scripts: string[] } = { scripts: [] };
  for (let k = 0; k < args.length; k++) {
    const word = args[k] as string;
    const flag = /^-[A-Z]$/.test(word.slice(0, 2)) ? word.slice(0, 2) : word;
    const value = CMAKE_VALUED.has(word) ? args[++k] : flag !== word ? word.slice(2) : undefined;
    if (flag === '-S' && value !== undefined) found.source = value;
    else if (flag === '-P' && value !== undefined) found.script = value;
    else if (flag === '-C' && value !== undefined) found.scripts.push(value);
    else if (word === '--toolchain' && value !== undefined) found.scripts.push(value);
    else if (flag === '-D' && value !== undefined) {
      const m = /^CMAKE_TOOLCHAIN_FILE(:\w+)?=(.+)$/.exec(value);
      if (m) found.scripts.push(m[2] as string);
    } else if (word.startsWith('--toolchain=')) found.scripts.push(word.slice(12));
    else if (!word.startsWith('-') && value === undefined) found.path = word;
  }
  return found;
}

/** The source a `cmake DIR` configures: DIR itself, or the source an existing build directory's cache names. */
function cmakeSource(ex: Extractor, dir: string): string {
  const cache = readWord(ex, posix.join(dir, 'CMakeCache.txt'));
  const home = cache && /^CMAKE_HOME_DIRECTORY:INTERNAL=(.+)$/m.exec(cache.text)?.[1];
  return home?.startsWith('/') ? home : dir;
}

// --- Cargo ----------------------------------------------------------------------------------------

/**
 * A crate's manifest and what it names that cargo runs: the build script (`build = "x.rs"`, build.rs
 * unless `build = false`), and the crates it builds alongside: path dependencies (in any dependency
 * or patch table) and workspace members (globs expanded). Read as a TOML subset: table headers,
 * `key = "string"`, inline tables and string arrays.
 */
export function readManifest(text: string): { build?: string | false; paths: string[]; members: string[] } {
  const found: { build?: string | false; paths: string[]; members: string[] } = { paths: [], members: [] };
  let table = '';
  // A multi-line array's text is joined with the line that opens it.
  const lines = text.replace(/\[[^\]\n]*\n[^\]]*\]/g, (m) => m.replace(/\n/g, ' ')).split('\n');
  for (const raw of lines) {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    const header = /^\[\[?\s*([^\]]+?)\s*\]\]?$/.exec(line);
    if (header) {
      table = header[1] as string;
      continue;
    }
    if (table === 'package') {
      const build = /^build\s*=\s*(?:"([^"]*)"|'([^']*)'|(false))/.exec(line);
      if (build) found.build = build[3] ? false : ((build[1] ?? build[2]) as string);
    }
    if (/(^|\.)(dependencies|dev-dependencies|build-dependencies)(\.|$)|^patch\.|^replace$/.test(table))
      for (const m of line.matchAll(/\bpath\s*=\s*(?:"([^"]*)"|'([^']*)')/g))
        found.paths.push((m[1] ?? m[2]) as string);
    if (table === 'workspace') {
      const members = /^members\s*=\s*\[(.*)\]/.exec(line);
      if (members)
        for (const m of (members[1] as string).matchAll(/"([^"]*)"|'([^']*)'/g))
          found.members.push((m[1] ?? m[2]) as string);
    }
  }
  return found;
}

/**
 * What a compiling cargo command loads: the config files (`runner`, `rustc-wrapper`, aliases) in the
 * directory and every one above it, and for the manifest (`--manifest-path`, else the nearest
 * Cargo.toml above) and each crate it reaches, its Cargo.toml and build script.
 */
function cargoFiles(ex: Extractor, args: readonly string[]): string[] {
  const here = ex.res.paths('.');
  const start = here.paths[0];
  if (here.unresolved || here.paths.length !== 1 || start === undefined || !start.startsWith('/')) return [];
  const words: string[] = [];
  for (let dir = start; ; dir = posix.dirname(dir)) {
    words.push(...inDir(dir, ['.cargo/config.toml', '.cargo/config']));
    if (dir === '/') break;
  }
  if (!compiles(args)) return words;
  const manifest = projectOption(args, ['--manifest-path']);
  // With no manifest above, the directory's own build.rs is still listed (one written with the manifest).
  const root =
    manifest === undefined
      ? (nearestCrate(ex, start) ?? start)
      : posix.resolve(start, posix.dirname(manifest));
  return [...words, ...crateFiles(ex, root)];
}

/** cargo's subcommands that compile (see loaded-files.ts); the subcommand past global options. */
function compiles(args: readonly string[]): boolean {
  const valued = new Set(['--manifest-path', '--config', '-Z', '--color', '-C', '--target-dir']);
  const k = subcommand(
    args.filter((a) => !a.startsWith('+')),
    valued,
  );
  return /^(build|b|test|t|run|r|check|c|clippy|bench|doc|install|fix|rustc|rustdoc|package|publish|nextest|llvm-cov|tarpaulin|miri)$/.test(
    args.filter((a) => !a.startsWith('+'))[k] ?? '',
  );
}

/** The nearest directory at or above `dir` holding a Cargo.toml (as cargo looks for it). */
function nearestCrate(ex: Extractor, dir: string): string | undefined {
  for (let at = dir; ; at = posix.dirname(at)) {
    if (ex.res.files?.realpath(posix.join(at, 'Cargo.toml')) !== undefined) return at;
    if (at === '/') return undefined;
  }
}

/** The manifests and build scripts of a crate and the crates it reaches, breadth first, bounded. */
function crateFiles(ex: Extractor, root: string): string[] {
  const words: string[] = [];
  const queue = [root];
  const seen = new Set<string>();
  for (let n = 0; n < queue.length && seen.size < MAX_PROJECTS; n++) {
    const dir = posix.normalize(queue[n] as string);
    if (seen.has(dir)) continue;
    seen.add(dir);
    const manifest = readWord(ex, posix.join(dir, 'Cargo.toml'));
    words.push(posix.join(dir, 'Cargo.toml'));
    const read = manifest === undefined ? { paths: [], members: [] } : readManifest(manifest.text);
    if (read.build !== false) words.push(posix.join(dir, read.build ?? 'build.rs'));
    if (read.build !== undefined && read.build !== 'build.rs') words.push(posix.join(dir, 'build.rs'));
    for (const path of read.paths) queue.push(posix.resolve(dir, path));
    for (const member of read.members)
      queue.push(
        ...(/[*?[]/.test(member)
          ? (ex.res.glob(posix.resolve(dir, member)) ?? [])
          : [posix.resolve(dir, member)]),
      );
  }
  return words;
}

// --- npm, pnpm, yarn, bun -------------------------------------------------------------------------

/** Install commands, which run the lifecycle scripts of local packages they install and link. */
const NPM_INSTALLS = new Set(
  'install i in ins inst insta instal isnt isnta isntal isntall add a ci clean-install ic install-clean isntall-clean rebuild rb update up upgrade udpate link ln'.split(
    ' ',
  ),
);
const NPM_VALUED = new Set([
  '-w',
  '--workspace',
  '--filter',
  '-F',
  '-C',
  '--dir',
  '--prefix',
  '--cwd',
  '--cache',
  '--registry',
  '--tag',
]);
const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'];

/**
 * The package.json (lifecycle scripts) and binding.gyp (node-gyp's commands) of the local packages an
 * install runs: path operands (`npm install ./dep`, `pnpm add file:../x`), the root package.json's
 * `file:`/`link:` dependencies and its workspaces (globs one level deep), and pnpm-workspace.yaml's.
 * The root's own scripts are judged by package-scripts.ts; its binding.gyp is listed here.
 */
function npmLocalPackages(ex: Extractor, program: string, args: readonly string[]): string[] {
  const k = subcommand(args, NPM_VALUED);
  const sub = args[k];
  if (!(sub === undefined ? program === 'yarn' : NPM_INSTALLS.has(sub))) return [];
  const dirs: string[] = [];
  if (k >= 0) for (const word of operands(args, NPM_VALUED, k + 1)) dirs.push(...npmLocalSpec(word));
  dirs.push(...rootLocalPackages(ex));
  const words = ['binding.gyp'];
  for (const dir of dirs.slice(0, MAX_PROJECTS)) words.push(...inDir(dir, ['package.json', 'binding.gyp']));
  return words;
}

/** A local package an install operand names (`./dep`, `../x`, `file:dep`, `link:dep`, `name@file:dep`). */
function npmLocalSpec(spec: string): string[] {
  const value = spec.replace(/^(@[^/@]+\/)?[^@/:]+@(?=(file|link):)/, '');
  const m = /^(?:file|link):(.*)$/.exec(value);
  if (m) return [m[1] as string];
  return /^(\.{1,2}(\/|$)|\/)/.test(value) && !/\.(tgz|tar\.gz)$/.test(value) ? [value] : [];
}

/** Local packages the root package.json (and pnpm-workspace.yaml) names: file:/link: specs and workspace globs. */
function rootLocalPackages(ex: Extractor): string[] {
  const dirs: string[] = [];
  const root = readWord(ex, 'package.json');
  let json: Record<string, unknown> | undefined;
  try {
    json = root === undefined ? undefined : (JSON.parse(root.text) as Record<string, unknown>);
  } catch {
    json = undefined;
  }
  for (const field of DEPENDENCY_FIELDS) {
    const deps = json?.[field];
    if (deps && typeof deps === 'object')
      for (const spec of Object.values(deps)) if (typeof spec === 'string') dirs.push(...npmLocalSpec(spec));
  }
  const spaces = json?.workspaces;
  const globs = Array.isArray(spaces)
    ? spaces
    : Array.isArray((spaces as { packages?: unknown })?.packages)
      ? (spaces as { packages: unknown[] }).packages
      : [];
  const pnpm = readWord(ex, 'pnpm-workspace.yaml');
  if (pnpm) for (const m of pnpm.text.matchAll(/^\s*-\s*['"]?([^'"\n#]+?)['"]?\s*$/gm)) globs.push(m[1]);
  for (const glob of globs.slice(0, MAX_PROJECTS)) {
    if (typeof glob !== 'string' || glob.startsWith('!')) continue;
    dirs.push(...(/[*?[]/.test(glob) ? (ex.res.glob(glob.replace(/\/\*\*$/, '/*')) ?? []) : [glob]));
  }
  return dirs;
}
