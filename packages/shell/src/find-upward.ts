// The nearest of a tool's files from the working directory up, as npm finds package.json and just
// its justfile.
import { posix } from 'node:path';
import type { Extractor } from './extract.js';
import type { FileView } from './files.js';

/**
 * The first of `names` (that `accepts`, where given) in the directory the command runs in or one
 * above it; undefined when there is none, 'unknown' when the directory is not known.
 */
export function findUpward(
  ex: Extractor,
  names: readonly string[],
  accepts?: (dir: string, candidate: string, files: FileView) => boolean,
): string | undefined | 'unknown' {
  const dirs = ex.res.dirs;
  const files = ex.res.files;
  if (!files || !dirs || dirs.length !== 1 || !(dirs[0] as string).startsWith('/')) return 'unknown';
  for (let dir = dirs[0] as string; ; dir = posix.dirname(dir)) {
    for (const name of names) {
      const candidate = posix.join(dir, name);
      if (files.realpath(candidate) !== undefined && (accepts?.(dir, candidate, files) ?? true))
        return candidate;
    }
    if (dir === '/') return undefined;
  }
}
