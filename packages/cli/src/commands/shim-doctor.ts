// `tollgate shim doctor`: whether each wrapper in the shim directory really stands in front of its
// program: the pinned real program still exists, the wrapper is the one this tollgate writes, and
// PATH finds the wrapper before any real program of that name. Exit 1 when any is not effective.
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { shellWord } from '@tollgate/hooks';
import type { CommandIO } from '../command.js';
import { selfCommand } from '../gate-pins.js';
import { firstOnPath, isExecutableFile, isShimFile, pathDirs, realProgram } from '../real-program.js';
import { installedShims } from '../shim-dir.js';
import { pinnedReal, shimScript } from '../shim-script.js';
import { writeJson } from '../support.js';

export interface ShimHealth {
  name: string;
  installed: boolean;
  /** The real program the wrapper pins, and whether it is still there. */
  real?: string;
  real_exists: boolean;
  /** Written by this tollgate (same entry point, same format). */
  current: boolean;
  /** What PATH runs for the name, and where the real program first appears on PATH. */
  path_runs?: string;
  real_on_path?: string;
  effective: boolean;
  problems: string[];
}

export function shimDoctor(names: readonly string[], dir: string, json: boolean, io: CommandIO): number {
  const wanted = names.length > 0 ? [...names] : installedShims(dir);
  const onPath = pathDirs(io.env.PATH).some((d) => same(d, dir));
  const shims = wanted.map((name) => health(name, dir, io.env.PATH));
  const ok = shims.length > 0 && shims.every((s) => s.effective);
  if (json) writeJson(io, { dir, on_path: onPath, effective: ok, shims });
  else {
    io.stdout.write(`shim directory ${dir} (${onPath ? 'on PATH' : 'NOT on PATH'})\n`);
    if (shims.length === 0) io.stdout.write('  no shims installed: tollgate shim install git ...\n');
    for (const s of shims)
      io.stdout.write(
        `  ${s.effective ? 'ok  ' : 'FAIL'} ${s.name}${s.real ? ` -> ${s.real}` : ''}${s.problems.map((p) => `\n         ${p}`).join('')}\n`,
      );
    if (!onPath) io.stdout.write(`fix: export PATH=${shellWord(dir)}:"$PATH"\n`);
  }
  return ok ? 0 : 1;
}

function health(name: string, dir: string, path: string | undefined): ShimHealth {
  const file = join(dir, name);
  const problems: string[] = [];
  const installed = isShimFile(file);
  const script = installed ? readFileSync(file, 'utf8') : '';
  const real = installed ? pinnedReal(script) : undefined;
  const realExists = real !== undefined && isExecutableFile(real) && !isShimFile(real);
  const current = installed && real !== undefined && script === rewritten(script, name, real, dir);
  const runs = firstOnPath(name, path);
  const realOnPath = realProgram(name, path, [dir]);
  const first = runs !== undefined && same(runs, file);
  if (!installed) problems.push(`no wrapper ${file}: tollgate shim install ${name}`);
  else {
    if (!realExists)
      problems.push(
        `the pinned ${real ?? '(unreadable)'} is gone: it is looked up again at each run; reinstall to pin it`,
      );
    if (!current)
      problems.push(`the wrapper was written by another tollgate or edited: tollgate shim install ${name}`);
    if (!first)
      problems.push(
        runs === undefined
          ? `PATH finds no ${name} at all`
          : `PATH runs ${runs} before the shim: put ${dir} first on PATH`,
      );
  }
  return {
    name,
    installed,
    ...(real !== undefined ? { real } : {}),
    real_exists: realExists,
    current,
    ...(runs !== undefined ? { path_runs: runs } : {}),
    ...(realOnPath !== undefined ? { real_on_path: realOnPath } : {}),
    effective: installed && current && first && (realExists || realOnPath !== undefined),
    problems,
  };
}

/** The wrapper this tollgate would write with the same real program and the pins the file carries. */
function rewritten(script: string, name: string, real: string, dir: string): string {
  const pins: Record<string, string> = {};
  for (const m of script.matchAll(/^export ([A-Z_]+)=('(?:[^']|'\\'')*'|\S*)$/gm)) {
    const raw = m[2] ?? '';
    pins[m[1] as string] = raw.startsWith("'") ? raw.slice(1, -1).replace(/'\\''/g, "'") : raw;
  }
  return shimScript({ name, real, dir, self: selfCommand(), pins });
}

function same(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return a === b;
  }
}
