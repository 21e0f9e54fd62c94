// Whether a file the agent's shell would run is this tollgate, however it is spelled: under the
// installed package (after symlinks are resolved), or a byte-for-byte copy of one of its entry
// files (`cp bin/tollgate.js /tmp/t.js; node /tmp/t.js override`). The hook decides on the
// resolved program, not on the word the agent typed. A modified copy is no longer recognised here;
// the operator commands themselves then refuse anyone but a person (packages/cli/src/person.ts).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface SelfIdentity {
  /** Directories of the installed package (e.g. /abs/packages/cli), symlinks resolved. */
  roots: readonly string[];
  /** True when `path` (absolute, symlinks resolved) is a file of this tollgate or a copy of an entry file. */
  isSelf(path: string): boolean;
}

const ENTRY_DIRS = ['bin', 'dist'];
const ENTRY_FILE = /\.(c|m)?js$/;
const MAX_ENTRY_BYTES = 64 * 1024 * 1024;

export function selfIdentity(roots: readonly string[]): SelfIdentity {
  const real = roots.map((r) => {
    try {
      return realpathSync(r);
    } catch {
      return r;
    }
  });
  const all = [...new Set([...roots, ...real])].filter((r) => r !== '');
  let entries: Map<number, string[]> | undefined; // size → paths of entry files of that size
  const hashes = new Map<string, string>();
  const hashOf = (path: string): string | undefined => {
    const known = hashes.get(path);
    if (known !== undefined) return known;
    try {
      const hash = createHash('sha256').update(readFileSync(path)).digest('hex');
      hashes.set(path, hash);
      return hash;
    } catch {
      return undefined;
    }
  };
  const entryFiles = (): Map<number, string[]> => {
    if (entries) return entries;
    entries = new Map();
    for (const root of real) {
      for (const dir of ENTRY_DIRS) {
        let names: string[];
        try {
          names = readdirSync(join(root, dir));
        } catch {
          continue;
        }
        for (const name of names) {
          if (!ENTRY_FILE.test(name)) continue;
          const path = join(root, dir, name);
          try {
            const { size } = statSync(path);
            entries.set(size, [...(entries.get(size) ?? []), path]);
          } catch {
            // vanished: not an entry
          }
        }
      }
    }
    return entries;
  };
  return {
    roots: all,
    isSelf(path: string): boolean {
      if (all.some((r) => path === r || path.startsWith(`${r}/`))) return true;
      let size: number;
      try {
        const stat = statSync(path);
        if (!stat.isFile() || stat.size > MAX_ENTRY_BYTES) return false;
        size = stat.size;
      } catch {
        return false;
      }
      const same = entryFiles().get(size);
      if (!same) return false;
      const hash = hashOf(path);
      return hash !== undefined && same.some((p) => hashOf(p) === hash);
    },
  };
}
