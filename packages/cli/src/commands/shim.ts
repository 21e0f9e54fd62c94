// tollgate shim install|uninstall|doctor|exec: thin wrappers in a PATH directory that put the gate in
// front of programs called by name from any shell, no agent host needed. install/uninstall are for a
// person (person.ts), as init is; doctor reads; exec is what a wrapper runs.
import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { shellWord } from '@tollgate/hooks';
import { flag, option, type ParsedArgs } from '../args.js';
import type { CommandIO } from '../command.js';
import { UsageError } from '../errors.js';
import { gatePins, selfCommand } from '../gate-pins.js';
import { needPerson } from '../person-check.js';
import { isShimFile, PROGRAM_NAME, realProgram } from '../real-program.js';
import { findConfig } from '../runtime.js';
import { installedShims, shimDir } from '../shim-dir.js';
import { registerShimDir } from '../shim-registry.js';
import { shimScript } from '../shim-script.js';
import { defineCommand, writeJson } from '../support.js';
import { shimDoctor } from './shim-doctor.js';
import { shimExec } from './shim-exec.js';

export const command = defineCommand(
  {
    name: 'shim',
    summary: 'a person: gate programs called by name in any shell (install, uninstall, doctor)',
    options: { dir: 'string', all: 'boolean', real: 'string' },
    subcommands: ['install', 'uninstall', 'doctor', 'exec'],
    usage: `
Usage: tollgate shim install PROGRAM... [--dir D] [--json]
       tollgate shim uninstall (PROGRAM... | --all) [--dir D] [--json]
       tollgate shim doctor [PROGRAM...] [--dir D] [--json]

install    writes a wrapper named PROGRAM into the shim directory for each program (git, kubectl,
           terraform, psql, ...). Put the directory first on PATH. A wrapper runs the real program
           (found on PATH without shims at install time, pinned by absolute path, looked up again
           if that file is gone) only when the gate passes the call, as tollgate run does:
           consuming the prediction, recording the outcome and probing the post-state. Exit codes
           as run: the program's own, 2 rejected (rails on stderr, nothing ran), 3 declined.
           The wrapper pins this project's config, store and store id (as init claude-code does).
uninstall  removes wrappers (only files that carry the tollgate shim marker).
doctor     for each wrapper: the real program it pins, whether that still exists, whether the
           wrapper is current (written by this tollgate), and whether PATH puts the shim ahead of
           the real program. Exit 0 when every wrapper is effective, 1 otherwise.

  --dir D   the shim directory (default: <state base>/shims, e.g. ~/.local/state/tollgate/shims)

install and uninstall are for a person: an operator token of the config in TOLLGATE_OPERATOR_TOKEN,
or an interactive terminal no agent host runs (as for override).
A shim only sees programs called by name through PATH: an absolute path (/usr/bin/git) or a PATH
without the shim directory runs the real program directly. See README, "Outside any harness".
`,
  },
  async (args: ParsedArgs, io: CommandIO) => {
    const [sub, ...names] = args.positionals;
    const dir = shimDir(option(args, 'dir'), io.cwd, io.env);
    switch (sub) {
      case 'install':
        return install(names, dir, args, io);
      case 'uninstall':
        return uninstall(names, dir, args, io);
      case 'doctor':
        return shimDoctor(names, dir, flag(args, 'json'), io);
      case 'exec':
        return shimExec(args, dir, io);
      default:
        throw new UsageError(
          sub === undefined ? 'shim needs a subcommand' : `unknown shim subcommand ${JSON.stringify(sub)}`,
          'tollgate shim install git, tollgate shim uninstall git, tollgate shim doctor',
        );
    }
  },
);

function checkNames(names: readonly string[]): void {
  if (names.length === 0) throw new UsageError('name the programs to shim', 'e.g. tollgate shim install git');
  for (const name of names)
    if (!PROGRAM_NAME.test(name) || /^tollgate/i.test(name) || name === 'node')
      throw new UsageError(
        `${JSON.stringify(name)} cannot be shimmed`,
        'give plain program names (git, kubectl, terraform, psql); tollgate and node run the shims themselves',
      );
}

async function install(names: string[], dir: string, args: ParsedArgs, io: CommandIO): Promise<number> {
  checkNames(names);
  const loaded = findConfig(io.cwd, io.env);
  needPerson(loaded, io, 'installing shims');
  const reals = names.map((name) => {
    const real = realProgram(name, io.env.PATH, [dir]);
    if (real === undefined)
      throw new UsageError(
        `no ${name} on PATH outside ${dir}: there is nothing to wrap`,
        `install ${name} first, or check PATH`,
      );
    return { name, real };
  });
  const pins = await gatePins(loaded, io.env);
  const self = selfCommand();
  // Listed before any wrapper is written: from now on a hooked agent's write in `dir` is gate.self.
  registerShimDir(io.env, dir);
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  for (const { name, real } of reals) {
    const file = join(dir, name);
    const temp = `${file}.tollgate-new`;
    writeFileSync(temp, shimScript({ name, real, dir, self, pins }), { mode: 0o755 });
    chmodSync(temp, 0o755);
    renameSync(temp, file);
  }
  if (flag(args, 'json')) writeJson(io, { dir, shims: reals });
  else {
    for (const { name, real } of reals) io.stdout.write(`shimmed ${name} -> ${real} in ${dir}\n`);
    io.stdout.write(
      `put it first on PATH: export PATH=${shellWord(dir)}:"$PATH"; then run tollgate shim doctor\n`,
    );
  }
  return 0;
}

async function uninstall(names: string[], dir: string, args: ParsedArgs, io: CommandIO): Promise<number> {
  const all = flag(args, 'all');
  if (all && names.length > 0) throw new UsageError('give programs or --all, not both', 'drop one');
  if (!all) checkNames(names);
  needPerson(findConfig(io.cwd, io.env), io, 'removing shims');
  const targets = all ? installedShims(dir) : names;
  const removed: string[] = [];
  for (const name of targets) {
    const file = join(dir, name);
    if (!isShimFile(file)) {
      io.stderr.write(`tollgate: ${file} is not a tollgate shim; left alone\n`);
      continue;
    }
    rmSync(file);
    removed.push(name);
  }
  if (flag(args, 'json')) writeJson(io, { dir, removed });
  else
    io.stdout.write(removed.length > 0 ? `removed ${removed.join(', ')} from ${dir}\n` : 'nothing removed\n');
  return removed.length === targets.length ? 0 : 1;
}
