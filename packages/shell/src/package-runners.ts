// Package runners: npx, pnpx, bunx, uvx, `npm exec|x`, `pnpm dlx|exec`, `yarn dlx|exec`, `bun x`,
// `uv run|tool run`, `pipx run`. Each runs a package's binary with the words after its own options,
// so that command is judged as if typed (`npx wrangler r2 bucket delete b` is `wrangler r2 bucket
// delete b`), and a shell string handed to one (`npm exec -c '…'`, `pnpm dlx -c …`) is parsed as
// shell. The runner's own segment is emitted as well (by the caller), as for `docker exec`.
import type { Env } from './expand.js';
import type { Extractor, Invocation } from './extract.js';
import { findUpward } from './find-upward.js';
import { runValue } from './option-commands.js';
import { firstOperand, longOption } from './option-scan.js';
import { slice } from './prefixes.js';

const set = (text: string): ReadonlySet<string> => new Set(text.split(' '));

interface RunnerSpec {
  /** The runner's options that take a value. */
  values: ReadonlySet<string>;
  /** Options whose value is a shell string (npm's --call). */
  call?: string;
  /** Options after which the command words are one shell string (pnpm's --shell-mode). */
  shellMode?: ReadonlySet<string>;
}

const NPM: RunnerSpec = {
  values: set('-p --package --cache --userconfig --prefix -C --registry --loglevel -w --workspace -c --call'),
  call: 'call',
};
const PNPM: RunnerSpec = {
  values: set('--package --allow-build --reporter -C --dir -F --filter'),
  shellMode: set('-c --shell-mode'),
};
const YARN: RunnerSpec = { values: set('-p --package') };
const BUN: RunnerSpec = { values: set('-p --package') };
const UV: RunnerSpec = {
  values: set(
    '--from --with --with-editable --with-requirements -w -p --python --index --default-index --index-url ' +
      '--extra-index-url -f --find-links --constraints --overrides --config-file --directory --project ' +
      '--env-file --package --extra --group --only-group --no-group --cache-dir --python-preference',
  ),
};
const PIPX: RunnerSpec = { values: set('--spec --python --pip-args --index-url') };

/** Runners that are programs of their own: the command follows their options. */
const RUNNER_PROGRAMS: Record<string, RunnerSpec> = { npx: NPM, pnpx: PNPM, bunx: BUN, uvx: UV };

/** Subcommands of a program that run a package binary, with the options before them. */
const RUNNER_SUBCOMMANDS: Record<string, { global: ReadonlySet<string>; subs: Record<string, RunnerSpec> }> =
  {
    npm: {
      global: set('-w --workspace --prefix --registry --userconfig --cache -C'),
      subs: { exec: NPM, x: NPM },
    },
    pnpm: { global: set('-C --dir -F --filter --reporter'), subs: { dlx: PNPM, exec: PNPM } },
    yarn: { global: set('--cwd'), subs: { dlx: YARN, exec: YARN } },
    bun: { global: set('--cwd'), subs: { x: BUN } },
    uv: { global: set('--directory --project --cache-dir --config-file'), subs: { run: UV, tool: UV } },
    pipx: { global: set(''), subs: { run: PIPX } },
  };

/**
 * Judge the command a package runner runs. True when `program` ran as one (the caller then emits its
 * segment); false when this invocation runs no package binary (`npm install`, `pnpm test`).
 */
export function runPackageRunner(ex: Extractor, inv: Invocation, env: Env, program: string): boolean {
  const { argv } = inv;
  // Own properties only: a program named `constructor` is not Object's.
  let spec = Object.hasOwn(RUNNER_PROGRAMS, program) ? RUNNER_PROGRAMS[program] : undefined;
  let from = 1;
  let label = program;
  if (!spec) {
    const family = Object.hasOwn(RUNNER_SUBCOMMANDS, program) ? RUNNER_SUBCOMMANDS[program] : undefined;
    if (!family) return false;
    const at = firstOperand(argv, { values: family.global });
    const sub = at > 0 ? argv[at] : undefined;
    if (sub === undefined || !Object.hasOwn(family.subs, sub)) return false;
    spec = family.subs[sub] as RunnerSpec;
    from = at + 1;
    label = `${program} ${sub}`;
    // `uv tool run CMD`: the runner is the pair.
    if (program === 'uv' && sub === 'tool') {
      if (argv[from] !== 'run') return false;
      from++;
      label = 'uv tool run';
    }
  }
  const unresolved = inv.unresolved.some(Boolean);
  let shellMode = false;
  const i = firstOperand(
    argv,
    {
      values: spec.values,
      visit: (arg, next) => {
        if (spec.shellMode?.has(arg)) shellMode = true;
        const call = spec.call === undefined ? undefined : callValue(arg, next, spec.call);
        if (call === undefined) return undefined;
        runValue(ex, inv, `${label} --call`, call, unresolved);
        return arg.includes('=') || /^-c./.test(arg) ? 1 : 2;
      },
    },
    from,
  );
  if (i >= argv.length) return true;
  if (shellMode) {
    runValue(ex, inv, `${label} --shell-mode`, argv.slice(i).join(' '), unresolved);
    return true;
  }
  const command = slice(inv, i);
  // npm's option parser takes the first `--` anywhere as the end of its options and drops it:
  // `npm exec tollgate -- observe …` runs `tollgate observe …`.
  const dash = command.argv.indexOf('--');
  if (NPM_SUBCOMMAND.has(label) && argv[i - 1] !== '--' && dash > 0) {
    command.argv = command.argv.filter((_, k) => k !== dash);
    command.unresolved = command.unresolved.filter((_, k) => k !== dash);
  }
  // A name the project installed runs from node_modules/.bin, as that path run directly would:
  // a link into its package, relied on, or a file of .bin's own, judged (scripts.ts).
  const word = command.argv[0];
  if (LOCAL_BINS.has(label) && word !== undefined && !word.includes('/') && !command.unresolved[0]) {
    const bin = findUpward(ex, [`node_modules/.bin/${word}`]);
    if (bin !== undefined && bin !== 'unknown') command.argv = [bin, ...command.argv.slice(1)];
  }
  ex.resolve({ ...inv, ...command, via: [...inv.via, label] }, env);
  return true;
}

/** npm's own subcommands (npx keeps the words after the package as they are). */
const NPM_SUBCOMMAND: ReadonlySet<string> = new Set(['npm exec', 'npm x']);

/** Runners that run a binary the project installed before fetching one. */
const LOCAL_BINS: ReadonlySet<string> = new Set([
  'npx',
  'bunx',
  'pnpx',
  'npm exec',
  'npm x',
  'pnpm exec',
  'yarn exec',
  'bun x',
]);

/** The shell string of npm's `-c STRING` / `--call STRING` / `--call=STRING` (or an abbreviation). */
function callValue(arg: string, next: string | undefined, name: string): string | undefined {
  if (arg === '-c') return next ?? '';
  if (/^-c./.test(arg)) return arg.slice(2);
  const long = longOption(arg, name);
  if (long === undefined) return undefined;
  return long ?? next ?? '';
}

/** Whether a segment's last hop was a package runner: its command is also read from the runner's own segment. */
export function viaPackageRunner(via: readonly string[]): boolean {
  const last = via[via.length - 1];
  if (last === undefined) return false;
  if (Object.hasOwn(RUNNER_PROGRAMS, last) || last === 'uv tool run') return true;
  const words = last.split(' ');
  if (words.length !== 2) return false;
  const [program, sub] = words as [string, string];
  const family = Object.hasOwn(RUNNER_SUBCOMMANDS, program) ? RUNNER_SUBCOMMANDS[program] : undefined;
  return family !== undefined && Object.hasOwn(family.subs, sub);
}
