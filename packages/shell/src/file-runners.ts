// Programs that run files the project holds, dispatched from the extractor's fallback: a path
// (`./build.sh`, `bin/tool`), package managers' scripts (`npm test`, `yarn lint`) and `make`; and
// package runners (`npx TOOL`, `pnpm dlx TOOL`), which run a package's binary, and environment runners
// (`bundle exec CMD`, `doppler run -- CMD`), which run a command of their own; toolchains whose
// subcommand runs code (`mix run -e`, `go run main.go`); and PowerShell cmdlets
// (`Remove-Item -Recurse`), judged as the POSIX command that does the same.

import { runEnvRunner } from './env-runners.js';
import type { Env } from './expand.js';
import type { Extractor, Invocation } from './extract.js';
import { runMake } from './makefile.js';
import { runPackageRunner } from './package-runners.js';
import { runPackageScripts, runTaskRunner, TASK_RUNNERS } from './package-scripts.js';
import { runCmdlet } from './powershell-cmdlets.js';
import { runJust } from './recipe-runners.js';
import { runToolchain } from './toolchain-runners.js';

const PACKAGE_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);

/** Judge what the program runs; true when it ran a package binary (its command was judged already). */
export function runsFiles(ex: Extractor, inv: Invocation, env: Env, program: string): boolean {
  if (runPackageRunner(ex, inv, env, program)) return true;
  if (runEnvRunner(ex, inv, env, program)) return true;
  if (runCmdlet(ex, inv, env, program)) return true;
  if (runToolchain(ex, inv, env, program)) return true;
  // A program named by a path was read as the file it is already (extract.ts).
  if (PACKAGE_MANAGERS.has(program)) runPackageScripts(ex, inv, env, program);
  else if (TASK_RUNNERS.has(program)) runTaskRunner(ex, inv, program);
  else if (program === 'make') runMake(ex, inv);
  else if (program === 'just') runJust(ex, inv);
  return false;
}
