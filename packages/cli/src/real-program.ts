// Finding the real program behind a shim: the first executable of that name on PATH that is not a
// tollgate wrapper. A wrapper is known by the marker line it carries, not by the directory it sits
// in, so a second shim directory (or a copied wrapper) is skipped too and nothing recurses.
import { accessSync, closeSync, constants, openSync, readSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/** The line every shim wrapper carries; `shim doctor` and the resolver look for it. */
export const SHIM_MARKER = '# tollgate-shim v1';

/** Names a shim may take: one plain file name, never tollgate itself. */
export const PROGRAM_NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/;

export function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** True when the file starts with a tollgate shim wrapper's header. */
export function isShimFile(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const head = Buffer.alloc(256);
    const n = readSync(fd, head, 0, head.length, 0);
    return head.subarray(0, n).toString('utf8').includes(SHIM_MARKER);
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The PATH entries in order (absolute ones only: a relative entry depends on the cwd of the moment). */
export function pathDirs(path: string | undefined): string[] {
  return (path ?? '').split(delimiter).filter((d) => d !== '' && isAbsolute(d));
}

/** The first executable `name` on `path` that is not a shim wrapper and not in one of `exclude`. */
export function realProgram(
  name: string,
  path: string | undefined,
  exclude: readonly string[] = [],
): string | undefined {
  for (const dir of pathDirs(path)) {
    if (exclude.includes(dir)) continue;
    const file = join(dir, name);
    if (isExecutableFile(file) && !isShimFile(file)) return file;
  }
  return undefined;
}

/** The first executable `name` on `path`, wrapper or not: what a shell would run. */
export function firstOnPath(name: string, path: string | undefined): string | undefined {
  for (const dir of pathDirs(path)) {
    const file = join(dir, name);
    if (isExecutableFile(file)) return file;
  }
  return undefined;
}
