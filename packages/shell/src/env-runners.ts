// Environment and task runners: `bundle exec`, `poetry run`, `conda run -n ENV`, `doppler run --`,
// `aws-vault exec PROFILE --`, `nix develop -c`, `mise exec TOOL -- …`, `dotenv -e FILE -- …`. Each
// sets up an environment (gems, a virtualenv, secrets, a toolchain) and then runs a command of its
// own, so that command is judged as if typed, found past the runner's options (their values
// skipped, `--` honoured). Kept apart from the package runners: those name a package's binary (the
// hooks treat `npx tollgate` as the CLI itself); these run whatever command follows.
import type { Env } from './expand.js';
import type { Extractor, Invocation } from './extract.js';
import { runValue } from './option-commands.js';
import { firstOperand, longOption, takesValue } from './option-scan.js';
import { slice } from './prefixes.js';
import { CABAL_GLOBAL, STACK_GLOBAL } from './toolchain-runners.js';

const set = (text: string): ReadonlySet<string> => new Set(text.split(' '));

interface EnvRunnerSpec {
  /** The runner's options that take a separate value. */
  values: ReadonlySet<string>;
  /** The runner's own operands before the command (aws-vault's PROFILE, direnv's DIR). */
  positionals?: number;
  /** The command follows only `--`; words before it are the runner's (mise's TOOL@VERSION). */
  afterDashDash?: boolean;
  /** The command follows this option; nothing else is one (`nix develop -c CMD`). */
  commandFlag?: ReadonlySet<string>;
  /** A long option whose value is a shell string (`doppler run --command '…'`), and its short form. */
  call?: { long: string; short?: string };
  /** Options after which no command runs (`pdm run --list`). */
  stops?: ReadonlySet<string>;
  /** A `--` after the command's name is the runner's, not the command's (`stack exec rm -- -rf x`). */
  dropDashDash?: boolean;
}

const NONE = set('');
const CONDA: EnvRunnerSpec = { values: set('-n --name -p --prefix --cwd -r --root-prefix') };
const EXEC: EnvRunnerSpec = { values: NONE };
const NIX: EnvRunnerSpec = { values: NONE, commandFlag: set('-c --command') };
const MISE: EnvRunnerSpec = {
  values: set('-j --jobs -C --cd -E --env'),
  afterDashDash: true,
  call: { long: 'command', short: '-c' },
};
const STACK_EXEC: EnvRunnerSpec = { values: set('--cwd --package --rts-options'), dropDashDash: true };
const FNM_VALUES = set('--using --log-level --fnm-dir --node-dist-mirror --arch --version-file-strategy');

/** Programs whose subcommand runs a command, with the options before that subcommand. */
const FAMILIES: Record<string, { global: ReadonlySet<string>; subs: Record<string, EnvRunnerSpec> }> = {
  bundle: { global: set('--gemfile'), subs: { exec: { values: set('--gemfile') } } },
  poetry: { global: set('-C --directory -P --project'), subs: { run: EXEC } },
  pipenv: { global: set('--python'), subs: { run: EXEC } },
  pdm: { global: NONE, subs: { run: { values: set('-p --project --venv'), stops: set('-l --list') } } },
  hatch: { global: set('-e --env -p --project --data-dir --cache-dir --config'), subs: { run: EXEC } },
  rye: { global: NONE, subs: { run: { values: set('--pyproject'), stops: set('-l --list') } } },
  conda: { global: NONE, subs: { run: CONDA } },
  mamba: { global: NONE, subs: { run: CONDA } },
  micromamba: { global: NONE, subs: { run: CONDA } },
  doppler: {
    global: set('--config-dir'),
    subs: {
      run: {
        values: set(
          '-p --project -c --config --token --scope --api-host --fallback --mount --mount-format --mount-template --name-transformer',
        ),
        call: { long: 'command' },
      },
    },
  },
  op: {
    global: set('--account --session --config'),
    subs: { run: { values: set('--env-file --environment') } },
  },
  'aws-vault': {
    global: set('--backend --keychain --pass-dir --pass-cmd --pass-prefix --file-dir --prompt'),
    subs: { exec: { values: set('-d --duration -t --mfa-token --region'), positionals: 1 } },
  },
  direnv: { global: NONE, subs: { exec: { values: NONE, positionals: 1 } } },
  nix: { global: set('--option --extra-experimental-features'), subs: { develop: NIX, shell: NIX } },
  devbox: { global: NONE, subs: { run: { values: set('-c --config -e --env --env-file') } } },
  rbenv: { global: NONE, subs: { exec: EXEC } },
  pyenv: { global: NONE, subs: { exec: EXEC } },
  asdf: { global: NONE, subs: { exec: EXEC } },
  mise: { global: set('-C --cd -E --env -j --jobs'), subs: { exec: MISE, x: MISE } },
  volta: { global: NONE, subs: { run: { values: set('--node --npm --yarn --pnpm --env') } } },
  fnm: { global: FNM_VALUES, subs: { exec: { values: FNM_VALUES } } },
  // `stack exec CMD -- ARGS`: the `--` only ends stack's own options, so ARGS are the command's.
  stack: { global: STACK_GLOBAL, subs: { exec: STACK_EXEC } },
  cabal: { global: CABAL_GLOBAL, subs: { exec: EXEC } },
};

/** dotenv-cli (`dotenv -e .env.local -- CMD`) and python-dotenv (`dotenv -f .env run CMD`). */
const DOTENV: EnvRunnerSpec = { values: set('-e -v -c -f --file'), stops: set('-p') };

/**
 * Judge the command an environment or task runner runs. True when `program` ran as one (the caller
 * then emits the runner's own segment); false when this invocation runs none (`poetry install`).
 */
export function runEnvRunner(ex: Extractor, inv: Invocation, env: Env, program: string): boolean {
  const { argv } = inv;
  let spec: EnvRunnerSpec;
  let from = 1;
  let label = program;
  if (program === 'dotenv') spec = DOTENV;
  else {
    // Own properties only: a program named `constructor` is not Object's.
    const family = Object.hasOwn(FAMILIES, program) ? FAMILIES[program] : undefined;
    if (!family) return false;
    const at = firstOperand(argv, { values: family.global });
    const sub = at > 0 ? argv[at] : undefined;
    if (sub === undefined || !Object.hasOwn(family.subs, sub)) return false;
    spec = family.subs[sub] as EnvRunnerSpec;
    from = at + 1;
    label = `${program} ${sub}`;
  }
  const unresolved = inv.unresolved.some(Boolean);
  let i = from;
  let dashDash = false;
  for (; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      i++;
      dashDash = true;
      break;
    }
    if (spec.commandFlag) {
      if (spec.commandFlag.has(arg)) {
        i++;
        break;
      }
      continue;
    }
    if (!arg.startsWith('-') || arg === '-') {
      // Before `--`, mise takes tools and options in any order.
      if (spec.afterDashDash) continue;
      break;
    }
    if (spec.stops?.has(arg)) return true;
    const call = spec.call && callValue(arg, argv[i + 1], spec.call);
    if (call !== undefined) {
      runValue(ex, inv, `${label} --${spec.call?.long}`, call, unresolved);
      // The value is the next word unless given inline (`--command=…`).
      if (!arg.includes('=')) i++;
      continue;
    }
    if (takesValue(spec.values, arg)) i++;
  }
  // `nix develop` without -c starts an interactive shell: the scan ran off the end, no command.
  if (spec.afterDashDash && !dashDash) return true;
  if (!dashDash) {
    i += spec.positionals ?? 0;
    // python-dotenv: `dotenv [-f FILE] run [--override] CMD`.
    if (program === 'dotenv' && argv[i] === 'run') {
      i++;
      while (argv[i] === '--override' || argv[i] === '--no-override') i++;
    }
    if (argv[i] === '--') i++;
  }
  if (i >= argv.length) return true;
  let command = slice(inv, i);
  const dash = spec.dropDashDash ? command.argv.indexOf('--', 1) : -1;
  if (dash > 0) {
    command = {
      argv: command.argv.filter((_, k) => k !== dash),
      unresolved: command.unresolved.filter((_, k) => k !== dash),
    };
  }
  ex.resolve({ ...inv, ...command, via: [...inv.via, label] }, env);
  return true;
}

/** The shell string of a runner's `--command STRING` / `--command=STRING` / short form, or undefined. */
function callValue(arg: string, next: string | undefined, call: { long: string; short?: string }) {
  if (call.short !== undefined && arg === call.short) return next ?? '';
  const long = longOption(arg, call.long);
  if (long === undefined) return undefined;
  return long ?? next ?? '';
}
