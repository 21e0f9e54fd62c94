// Language toolchains whose subcommand runs code the gate does not read: `mix run -e CODE`,
// `stack eval CODE`, `crystal eval`, `go run main.go`, `dotnet script x.csx`. The subcommand's words
// are judged as an interpreter's (other-interpreters.ts): inline code is unknown and a file it runs
// is listed among the command's scripts, so one the session wrote is refused. Subcommands that start
// an interpreter or another program (`stack ghci`, `stack exec CMD`) are judged as that program.
import type { Env } from './expand.js';
import type { Extractor, Invocation } from './extract.js';
import { firstOperand } from './option-scan.js';
import { judgeInterpreterWords } from './other-interpreters.js';
import { slice } from './prefixes.js';

const set = (text: string): ReadonlySet<string> => new Set(text.split(' '));

interface Toolchain {
  /** Global options before the subcommand that take the next word. */
  global: ReadonlySet<string>;
  /** Subcommand → the interpreter spec its words are judged by (other-interpreters.ts). */
  runs: Readonly<Record<string, string>>;
  /** Subcommand → the program it starts with the words that follow (`stack ghci` is ghci). */
  starts?: Readonly<Record<string, string>>;
  /** Subcommands whose words are a command it runs (`mix cmd rm -rf x`). */
  commands?: ReadonlySet<string>;
  /** Subcommands that run other subcommands, separated by `,` or `+` words (`mix do compile, run -e X`). */
  sequences?: ReadonlySet<string>;
  /** An option that is code wherever it stands (`nim --eval:CODE`). */
  code?: RegExp;
}

/** Haskell toolchains' options before the subcommand (env-runners.ts reads `stack exec` past them too). */
export const STACK_GLOBAL = set(
  '--stack-yaml --stack-root --work-dir --resolver --snapshot --compiler --arch --verbosity --color --colour ' +
    '--docker-image --docker-repo --nix-packages --nix-shell-file --setup-info-yaml --ghc-variant --ghc-build ' +
    '-j --jobs --local-bin-path --ghc-options --flag --terminal-width --stack-colors --stack-colours',
);
export const CABAL_GLOBAL = set('--project-file --store-dir --builddir');

const TOOLCHAINS: Readonly<Record<string, Toolchain>> = {
  mix: { global: set(''), runs: { run: 'mix run' }, commands: set('cmd'), sequences: set('do') },
  stack: {
    global: STACK_GLOBAL,
    runs: { eval: 'stack eval' },
    starts: {
      runghc: 'runghc',
      runhaskell: 'runghc',
      script: 'runghc',
      ghc: 'ghc',
      ghci: 'ghci',
      repl: 'ghci',
    },
  },
  cabal: { global: CABAL_GLOBAL, runs: { run: 'cabal run' }, starts: { repl: 'ghci' } },
  crystal: { global: set(''), runs: { eval: 'crystal eval', run: 'crystal run', i: 'crystal i' } },
  nim: { global: set(''), runs: { e: 'nim run', r: 'nim run' }, code: /^--eval[:=]/ },
  go: { global: set('-C'), runs: { run: 'go run' } },
  zig: { global: set(''), runs: { run: 'zig run' } },
  dotnet: { global: set(''), runs: { script: 'dotnet script', fsi: 'dotnet script' } },
  // Web frameworks' consoles run the application's code with its database: `rails runner CODE`,
  // `rails console` fed on stdin, `django-admin shell -c CODE`, `flask shell` fed on stdin.
  rails: {
    global: set('-e --environment'),
    runs: { runner: 'rails runner', r: 'rails runner', console: 'rails console', c: 'rails console' },
  },
  'django-admin': { global: set('--settings --pythonpath'), runs: { shell: 'django-admin shell' } },
  'manage.py': { global: set('--settings --pythonpath'), runs: { shell: 'django-admin shell' } },
  flask: { global: set('--app -A -e --env-file'), runs: { shell: 'flask shell' } },
};

/**
 * Judge a toolchain subcommand that runs code. True when `program SUB` is one (its words were
 * judged, or the program it starts was resolved); false for every other subcommand (`go build`).
 */
export function runToolchain(ex: Extractor, inv: Invocation, env: Env, program: string): boolean {
  const toolchain = Object.hasOwn(TOOLCHAINS, program) ? TOOLCHAINS[program] : undefined;
  if (toolchain === undefined) return false;
  if (toolchain.code && inv.argv.some((a) => toolchain.code?.test(a))) {
    ex.flag('interpreter_code', inv.text);
    return true;
  }
  const at = firstOperand(inv.argv, { values: toolchain.global });
  const sub = at > 0 ? inv.argv[at] : undefined;
  if (sub === undefined) return false;
  if (toolchain.commands?.has(sub) || toolchain.sequences?.has(sub)) {
    const rest = slice(inv, at + 1);
    const via = [...inv.via, `${program} ${sub}`];
    if (toolchain.commands?.has(sub)) {
      if (rest.argv.length > 0) ex.resolve({ ...inv, ...rest, via }, env);
      return true;
    }
    // Each task of the sequence, as `PROGRAM TASK ARGS`.
    let from = 0;
    for (let k = 0; k <= rest.argv.length; k++) {
      const word = rest.argv[k];
      if (word !== undefined && word !== ',' && word !== '+' && !word.endsWith(',')) continue;
      const joined = word !== undefined && word !== ',' && word !== '+';
      const task = slice(rest, from, joined ? k + 1 : k);
      if (joined) task.argv[task.argv.length - 1] = (word as string).slice(0, -1);
      if (task.argv.length > 0 && task.argv[0] !== '')
        ex.resolve(
          { ...inv, argv: [program, ...task.argv], unresolved: [false, ...task.unresolved], via },
          env,
        );
      from = k + 1;
    }
    return true;
  }
  if (Object.hasOwn(toolchain.runs, sub)) {
    judgeInterpreterWords(ex, { ...inv, ...slice(inv, at) }, toolchain.runs[sub] as string);
    return true;
  }
  const starts = toolchain.starts && Object.hasOwn(toolchain.starts, sub) ? toolchain.starts[sub] : undefined;
  if (starts === undefined) return false;
  // `stack ghc -- -e CODE`: the `--` ends stack's options; what follows is the program's.
  const rest = slice(inv, inv.argv[at + 1] === '--' ? at + 2 : at + 1);
  ex.resolve(
    {
      ...inv,
      argv: [starts, ...rest.argv],
      unresolved: [false, ...rest.unresolved],
      via: [...inv.via, `${program} ${sub}`],
    },
    env,
  );
  return true;
}
