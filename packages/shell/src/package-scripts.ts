// `npm run NAME`, `npm test|start`, `pnpm|yarn [run] NAME`, `bun run NAME`: the script line in the
// package.json found upward from the working directory (with npm's pre/post scripts) is parsed as
// shell, via `npm run NAME`, so every shell rule applies to it. A package.json that cannot be read
// or parsed, or a workspace selection that names another package, is unknown-dynamic.

import { posix } from 'node:path';
import type { Env } from './expand.js';
import type { Extractor, Invocation } from './extract.js';
import type { FileView } from './files.js';
import { findUpward } from './find-upward.js';
import { npmCommand } from './npm-commands.js';
import { own } from './own.js';
import { shellQuote, slice } from './prefixes.js';
import { canRead, judgeShellText, noteScript, noteUnread, readScript } from './scripts.js';
import { placement, workspaceDirs } from './workspaces.js';

/** npm subcommands that run a script, with the script they run (undefined: the next operand). */
const NPM_RUNS: Record<string, string | undefined> = {
  run: undefined,
  'run-script': undefined,
  rum: undefined,
  urn: undefined,
  test: 'test',
  t: 'test',
  tst: 'test',
  start: 'start',
  stop: 'stop',
  restart: 'restart',
};

/** The project's own lifecycle scripts a package manager's command runs (npm's docs: "Life Cycle Scripts"). */
const INSTALL = [
  'preinstall',
  'install',
  'postinstall',
  'prepublish',
  'preprepare',
  'prepare',
  'postprepare',
];
const LIFECYCLE: Record<string, readonly string[]> = {
  install: INSTALL,
  i: INSTALL,
  in: INSTALL,
  ins: INSTALL,
  inst: INSTALL,
  insta: INSTALL,
  instal: INSTALL,
  isnt: INSTALL,
  isnta: INSTALL,
  isntal: INSTALL,
  isntall: INSTALL,
  add: INSTALL,
  ci: INSTALL,
  'clean-install': INSTALL,
  ic: INSTALL,
  'install-clean': INSTALL,
  'isntall-clean': INSTALL,
  it: [...INSTALL, 'pretest', 'test', 'posttest'],
  'install-test': [...INSTALL, 'pretest', 'test', 'posttest'],
  'install-ci-test': [...INSTALL, 'pretest', 'test', 'posttest'],
  cit: [...INSTALL, 'pretest', 'test', 'posttest'],
  rebuild: ['preinstall', 'install', 'postinstall', 'prepare'],
  rb: ['preinstall', 'install', 'postinstall', 'prepare'],
  pack: ['prepack', 'prepare', 'postpack'],
  publish: ['prepublishOnly', 'prepack', 'prepare', 'postpack', 'publish', 'postpublish'],
  version: ['preversion', 'version', 'postversion'],
};

/** yarn/pnpm/bun commands of their own: `yarn NAME` runs a script only when NAME is none of these. */
const BUILTIN = new Set(
  (
    'add audit bin cache config create dedupe dlx exec explain info init install import link list login logout ' +
    'outdated pack patch publish rebuild remove root search set store tag unlink unplug up update upgrade version ' +
    'why workspace workspaces env node help prune licenses owner global generate-lock-entry check import ' +
    'fetch deploy doctor i ci ls rm un uninstall x pm test'
  ).split(' '),
);

/** bun's commands of its own (`bun NAME` otherwise runs the script NAME, or a file). */
const BUN_BUILTIN = new Set(
  'run test build install i add a remove rm x create c init upgrade pm link unlink patch outdated publish audit info repl exec update why'.split(
    ' ',
  ),
);

/** Options that pick another package or several: which package.json runs cannot be told here. */
const ELSEWHERE =
  /^(-w|--workspace(s|=.*)?|-ws|--filter(=.*)?|-F|-r|--recursive|-C|--dir(=.*)?|--cwd(=.*)?|--prefix(=.*)?|--if-present=.*|-W|--workspace-root|--top-level)$/;

/** The scripts a package-manager command runs; [] when it runs none. */
export function packageScriptNames(program: string, argv: readonly string[]): string[] | 'elsewhere' {
  const words = argv.slice(1);
  // Words after `--` are the script's (`npm run dev -- --filter=web` is turbo's filter), and for
  // pnpm, yarn and bun so is every word after the script's name.
  const dashes = words.indexOf('--');
  const named = program === 'npm' ? -1 : scriptNameIndex(program, argv);
  const before = named > 0 ? words.slice(0, named) : dashes < 0 ? words : words.slice(0, dashes);
  if (before.some((w) => ELSEWHERE.test(w))) {
    const first = words.find((w) => !w.startsWith('-'));
    return first !== undefined && (first in NPM_RUNS || !BUILTIN.has(first) || first === 'test')
      ? 'elsewhere'
      : [];
  }
  const operands = words.filter((w) => !w.startsWith('-'));
  const [given, name] = operands;
  if (given === undefined) return [];
  // npm reads its command through aliases and prefixes (`npm tes` runs test).
  const sub = program === 'npm' ? npmCommand(given) : given;
  if (program === 'npm') {
    if (!Object.hasOwn(NPM_RUNS, sub)) return [];
    const script = own(NPM_RUNS, sub) ?? name;
    if (script === undefined) return [];
    // `npm restart` without a restart script runs stop, then start (each with its pre and post).
    if (script === 'restart') return ['restart', 'stop', 'start'].flatMap(around);
    return around(script);
  }
  // `bun run NAME`, or `bun NAME` where NAME is none of bun's own commands.
  if (program === 'bun') {
    if (sub === 'run') return name !== undefined ? around(name) : [];
    return BUN_BUILTIN.has(sub) ? [] : around(sub);
  }
  // Yarn 1 (and pnpm with enable-pre-post-scripts) runs preNAME and postNAME too.
  if (sub === 'run') return name === undefined ? [] : around(name);
  if (sub === 'test' || sub === 'start') return around(sub);
  return BUILTIN.has(sub) ? [] : around(sub);
}

/** npm runs preNAME and postNAME around NAME. */
const around = (script: string): string[] => [`pre${script}`, script, `post${script}`];

/**
 * Where the word that names the run's script stands in argv (`npm run NAME`, `npm test` / `npm t`,
 * `pnpm NAME`, `yarn run NAME`), or -1 when the command runs none. Read as packageScriptNames reads it.
 */
function scriptNameIndex(program: string, argv: readonly string[]): number {
  const operands: number[] = [];
  for (let k = 1; k < argv.length && operands.length < 2; k++) {
    const word = argv[k] as string;
    if (word === '--') break;
    if (!word.startsWith('-')) operands.push(k);
  }
  const [sub, name] = operands;
  if (sub === undefined) return -1;
  const word = program === 'npm' ? npmCommand(argv[sub] as string) : (argv[sub] as string);
  if (program === 'npm') {
    if (!Object.hasOwn(NPM_RUNS, word)) return -1;
    return own(NPM_RUNS, word) !== undefined ? sub : (name ?? -1);
  }
  if (word === 'run') return name ?? -1;
  // yarn's and pnpm's commands over workspaces name their script further on: read as a whole.
  if (/^(workspace|workspaces|recursive|m|multi)$/.test(word)) return -1;
  return sub;
}

/** Options a package manager's command takes with a separate value, before or after its subcommand. */
const VALUED = new Set([
  '--registry',
  '--loglevel',
  '--cache',
  '--userconfig',
  '--network-timeout',
  '--reporter',
  '--tag',
  '--otp',
  '--access',
]);

/**
 * Whether the command runs the project's own lifecycle scripts (npm's "Life Cycle Scripts":
 * preinstall … prepare on an install of the project itself, prepack … on pack and publish,
 * preversion … on version, prepare on link). Not with `--ignore-scripts`, globally, with a package
 * named (npm then runs only that package's), or for `--version`/`--help`.
 */
export function runsLifecycle(program: string, argv: readonly string[]): boolean {
  const words = argv.slice(1);
  if (
    words.some((w) =>
      /^(--ignore-scripts(=true)?|-g|--global|--location=global|-v|--version|-h|--help)$/.test(w),
    )
  )
    return false;
  const operands: string[] = [];
  for (let k = 0; k < words.length; k++) {
    const w = words[k] as string;
    if (VALUED.has(w)) k++;
    else if (!w.startsWith('-')) operands.push(w);
  }
  const [sub, ...rest] = operands;
  // `yarn` alone (or with options only) installs.
  if (sub === undefined) return program === 'yarn';
  if (program === 'bun' && !/^(install|i|add|a)$/.test(sub)) return false;
  const lifecycle = own(LIFECYCLE, sub) ?? (/^(link|ln)$/.test(sub) ? ['prepare'] : undefined);
  if (lifecycle === undefined) return false;
  // An install that names packages runs theirs, not the project's.
  return !(lifecycle === INSTALL && rest.length > 0);
}

/**
 * A command that runs the project's lifecycle scripts lists the package.json they are in among the
 * scripts it runs: one the session wrote (a `postinstall` added) is refused until read back, and
 * one the same command writes is a script written then run. Their lines are the project's own,
 * not judged here (husky's `node -e "…"` prepare is ordinary).
 */
function noteLifecycle(ex: Extractor, inv: Invocation): void {
  if (!canRead(ex, inv)) {
    noteUnread(ex, inv, 'package.json');
    return;
  }
  const found = findPackageJson(ex);
  if (found !== undefined && found !== 'unknown') noteScript(ex.res, found);
}

/** Judge the scripts an npm/pnpm/yarn/bun command runs. True when it handled the command as a script run. */
export function runPackageScripts(ex: Extractor, inv: Invocation, env: Env, program: string): boolean {
  if (runsLifecycle(program, inv.argv)) {
    noteLifecycle(ex, inv);
    return true;
  }
  // `yarn node x.js`, `pnpm node x.js`: node run with the package manager's environment.
  const first = inv.argv.findIndex((w, k) => k > 0 && !w.startsWith('-'));
  if (program !== 'npm' && first > 0 && inv.argv[first] === 'node') {
    ex.resolve({ ...inv, ...slice(inv, first), via: [...inv.via, `${program} node`] }, env);
    return true;
  }
  // `--prefix DIR`, `-w NAME`, `pnpm -r`: the scripts of another directory, or of the workspace packages.
  // pnpm, yarn and bun hand every word after the script's name to the script (`pnpm g -C dir …` is
  // the script's -C): only the words before it place the run. npm reads its options anywhere.
  const cut = program === 'npm' ? -1 : scriptNameIndex(program, inv.argv);
  const placing = cut > 0 ? inv.argv.slice(0, cut + 1) : inv.argv;
  const place = placement(program, placing, inv.unresolved, inv.assignments);
  if (cut > 0) place.argv = [...place.argv, ...inv.argv.slice(cut + 1)];
  const names = packageScriptNames(program, place.argv);
  if (names === 'elsewhere' || place.unknown) {
    ex.flag('unresolved_script', inv.text);
    return true;
  }
  if (names.length === 0) return false;
  const elsewhere = place.directory !== undefined || place.workspaces;
  if (!canRead(ex, inv)) {
    // Nothing is read without a file view; a package.json the same command writes is still told.
    if (elsewhere) ex.flag('unresolved_script', inv.text);
    else noteUnread(ex, inv, 'package.json');
    return true;
  }
  // An unresolved word may name another script; not one after the script's name, which pnpm, yarn
  // and bun hand to the script (`git ls-files | xargs pnpm eslint`).
  const named = cut > 0 ? cut : inv.argv.length;
  const at = inv.argv.findIndex((w, k) => k > 0 && k <= named && !w.startsWith('-') && inv.unresolved[k]);
  if (at > 0) {
    ex.flag('unresolved_script', inv.text);
    return true;
  }
  const judgePlace = () => {
    // The root asked for and not found: where the scripts come from cannot be told.
    const found = place.root
      ? (findPackageJson(ex, workspaceRoot(program)) ?? 'unknown')
      : findPackageJson(ex);
    if (found === 'unknown') {
      ex.flag('unresolved_script', inv.text);
      return;
    }
    if (found === undefined) return; // no package.json: the command fails, nothing runs
    // A fan-out (`--workspaces`, `-r`, `--filter`) leaves the root out unless asked to include it.
    const extra = scriptArguments(program, place.argv);
    if (!place.workspaces || place.includeRoot) {
      const ran = judgeScripts(ex, inv, program, found, names, extra);
      // `pnpm tsx x.ts`, `yarn eslint`, `bun x.ts`: a word that is no script of theirs is a program
      // (a dependency's bin, a file) run as `exec` would run it.
      const at = scriptNameIndex(program, inv.argv);
      const word = inv.argv[at];
      if (ran === false && program !== 'npm' && at > 0 && word !== undefined && word !== 'run')
        ex.resolve({ ...inv, ...slice(inv, at), via: [...inv.via, `${program} ${word}`] }, env);
    }
    if (!place.workspaces) return;
    const dirs = ex.res.files ? workspaceDirs(ex.res.files, posix.dirname(found), program) : undefined;
    if (dirs === undefined) ex.flag('unresolved_script', inv.text);
    else
      for (const dir of dirs) judgeScripts(ex, inv, program, posix.join(dir, 'package.json'), names, extra);
  };
  if (place.directory !== undefined) ex.res.inDirectory(place.directory, judgePlace);
  else judgePlace();
  return true;
}

/** `DIR/node_modules/.bin` for the package's directory and each one above it, as npm puts on PATH. */
function binDirs(dir: string): string[] {
  const out: string[] = [];
  for (let at = dir; out.length < 16; at = posix.dirname(at)) {
    out.push(posix.join(at, 'node_modules/.bin'));
    if (posix.dirname(at) === at) break;
  }
  return out;
}

/**
 * Judge the named scripts of one package.json (a file that is not there runs nothing). False when
 * package.json was read and holds none of the names; undefined when it was not read.
 */
function judgeScripts(
  ex: Extractor,
  inv: Invocation,
  program: string,
  found: string,
  names: readonly string[],
  extra: readonly string[] = [],
): boolean | undefined {
  if (ex.res.files?.realpath(found) === undefined) return undefined;
  const text = readScript(ex, inv, found);
  if (text === undefined) return undefined;
  let scripts: unknown;
  try {
    scripts = (JSON.parse(text) as { scripts?: unknown }).scripts;
  } catch {
    ex.flag('unreadable_script', `${found}: not JSON`);
    return undefined;
  }
  let any = false;
  for (const name of names) {
    const line =
      scripts && typeof scripts === 'object' && Object.hasOwn(scripts, name)
        ? (scripts as Record<string, unknown>)[name]
        : undefined;
    if (line === undefined) continue;
    any = true;
    if (typeof line !== 'string') {
      ex.flag('unreadable_script', `${found}: scripts.${name.slice(0, 60)}`);
      continue;
    }
    // A script that runs itself again (a root `build` of `npm run build --workspaces`, through a
    // package the fan-out reaches) is already being judged: its text adds nothing the second time.
    const key = `${found}\0${name}`;
    const open = ex.res.slot(JUDGING, () => new Set<string>());
    if (open.has(key)) continue;
    open.add(key);
    // The package manager adds the run's own arguments to the script's line, quoted.
    const full = extra.length === 0 ? line : `${line} ${extra.map(shellQuote).join(' ')}`;
    // It runs the line with the package's node_modules/.bin (and each one above it) first on PATH:
    // a bare name there is the file it finds, judged as that path would be (scripts.ts).
    ex.res.notePathValue(`${binDirs(posix.dirname(found)).join(':')}:$PATH`);
    judgeShellText(ex, inv, full, `${program} run ${name}`);
    open.delete(key);
  }
  return any;
}

/**
 * The words a run hands its script (added to the script's line): everything after `--`, and the
 * words after the script's name — for npm its operands only (its options are npm's own), for yarn,
 * pnpm and bun all of them.
 */
function scriptArguments(program: string, argv: readonly string[]): string[] {
  // The name as typed, or npm's `test` / `t` / `start` standing for it (pre- and post- scripts get the same words).
  const at = scriptNameIndex(program, argv);
  if (at < 0) return [];
  const rest = argv.slice(at + 1);
  const dashes = rest.indexOf('--');
  const before = dashes < 0 ? rest : rest.slice(0, dashes);
  const after = dashes < 0 ? [] : rest.slice(dashes + 1);
  return [...(program === 'npm' ? before.filter((w) => !w.startsWith('-')) : before), ...after];
}

/** The key of the (package.json, script) pairs being judged in a parse (Resolver.slot). */
const JUDGING = {};

/** The nearest package.json from the working directory up (that `accepts`, where given). */
const findPackageJson = (
  ex: Extractor,
  accepts?: (dir: string, candidate: string, files: FileView) => boolean,
): string | undefined | 'unknown' => findUpward(ex, ['package.json'], accepts);

/**
 * The workspace root (`pnpm -w`, `npm -W`): for pnpm the directory holding pnpm-workspace.yaml, for
 * the others a package.json with `workspaces`.
 */
const workspaceRoot =
  (program: string) =>
  (dir: string, candidate: string, files: FileView): boolean =>
    program === 'pnpm'
      ? files.realpath(posix.join(dir, 'pnpm-workspace.yaml')) !== undefined
      : /"workspaces"\s*:/.test(files.readText(candidate, 1024 * 1024) ?? '');

/** Task runners that run a package.json script in every workspace package (`turbo run build`). */
export const TASK_RUNNERS: ReadonlySet<string> = new Set(['turbo', 'nx', 'lerna']);

/** Options of the task runners that take the next word. */
const TASK_VALUES = new Set(
  '--filter -F --concurrency --cache-dir --graph --log-order --output-logs --env-mode --cwd --token --team --profile --summarize --log-prefix --ui --scope --ignore --projects -p --exclude --parallel --configuration -c --base --head'.split(
    ' ',
  ),
);

/**
 * `turbo run build` (or `turbo build`), `nx run-many -t build`, `nx run app:build`, `nx affected -t
 * test`, `lerna run build`: the task is a script of each workspace package, judged as a package
 * manager's run of it would be. Without a file view nothing is read.
 */
export function runTaskRunner(ex: Extractor, inv: Invocation, program: string): void {
  const words = inv.argv.slice(1);
  const tasks: string[] = [];
  const operands: string[] = [];
  for (let k = 0; k < words.length; k++) {
    const w = words[k] as string;
    if (w === '--') break;
    const eq = w.indexOf('=');
    const name = w.startsWith('--') && eq > 0 ? w.slice(0, eq) : w;
    if (/^(-t|--target|--targets)$/.test(name)) {
      const value = eq > 0 ? w.slice(eq + 1) : words[++k];
      if (value !== undefined) tasks.push(...value.split(','));
      continue;
    }
    if (w.startsWith('-')) {
      if (eq < 0 && TASK_VALUES.has(w)) k++;
      continue;
    }
    operands.push(w);
  }
  const [first, ...rest] = operands;
  if (program === 'nx') {
    // `nx run project:target`, `nx target project`.
    if (first === 'run' && rest[0]?.includes(':')) tasks.push(rest[0].split(':')[1] as string);
    else if (
      first !== undefined &&
      !/^(run-many|affected|run|graph|show|reset|daemon|list|report|init|migrate|generate|g|format|format:write|format:check|release|add|connect|view-logs|watch|exec)$/.test(
        first,
      )
    )
      tasks.push(first);
  } else if (program === 'lerna') {
    if (first === 'run' && rest[0] !== undefined) tasks.push(`pre${rest[0]}`, rest[0], `post${rest[0]}`);
  } else if (first === 'run') tasks.push(...rest);
  else if (
    first !== undefined &&
    !/^(login|logout|link|unlink|prune|gen|generate|daemon|ls|info|query|scan|telemetry|bin|boundaries|docs)$/.test(
      first,
    )
  )
    tasks.push(first, ...rest);
  if (tasks.length === 0 || !canRead(ex, inv)) return;
  const found = findPackageJson(ex);
  if (found === 'unknown' || inv.unresolved.some(Boolean)) {
    ex.flag('unresolved_script', inv.text);
    return;
  }
  if (found === undefined || !ex.res.files) return;
  const root = posix.dirname(found);
  const pnpm = ex.res.files.realpath(posix.join(root, 'pnpm-workspace.yaml')) !== undefined;
  const dirs = workspaceDirs(ex.res.files, root, pnpm ? 'pnpm' : 'npm');
  if (dirs === undefined) {
    ex.flag('unresolved_script', inv.text);
    return;
  }
  // A repository with no workspaces is one package: the task is the root's own script.
  for (const dir of dirs.length === 0 ? [root] : dirs)
    judgeScripts(ex, inv, program, posix.join(dir, 'package.json'), tasks);
}
