// Test support, not exported: a scratch directory tree the file-reading tests build their project in.
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TempTree {
  /** The tree's real path (symbolic links in the temp directory resolved, as the resolver sees it). */
  readonly root: string;
  /** Writes `text` at `path` under the root, making the directories on the way; `mode` sets its mode. */
  put(path: string, text?: string, mode?: number): void;
  remove(): void;
}

export function tempTree(prefix: string): TempTree {
  const root = realpathSync(mkdtempSync(join(tmpdir(), `tollgate-${prefix}-`)));
  return {
    root,
    put(path, text = '', mode) {
      const full = join(root, path);
      mkdirSync(join(full, '..'), { recursive: true });
      writeFileSync(full, text);
      if (mode !== undefined) chmodSync(full, mode);
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
