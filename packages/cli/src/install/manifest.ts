// What `tollgate init` changed, kept outside the project under the state directory (zone `gate`, which
// an agent may not write): per host file, whether it existed, a byte-for-byte backup of it as it was
// before Tollgate's entries went in, the sha256 of what Tollgate wrote, and the directories it created.
// `tollgate uninstall` restores the backup only while the file is still exactly what Tollgate wrote.
// A backup beside the file (.claude/settings.json.tollgate-backup) would be the agent's to rewrite.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { projectStateDir } from '../state.js';
import type { HostId } from './hosts.js';
import { writeFileAtomic } from './json-file.js';

export interface ManifestEntry {
  host: HostId;
  /** False: the file did not exist before Tollgate wrote it (uninstall deletes it). */
  existed: boolean;
  /** The backup of the file before Tollgate's entries went in (when it existed). */
  backup?: string;
  written_sha256: string;
  installed_at: string;
  /** Directories Tollgate created for the file, deepest first (removed again when left empty). */
  created_dirs: string[];
}

export interface Manifest {
  schema: 'tollgate.install/v1';
  files: Record<string, ManifestEntry>;
}

export const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

export function installDir(root: string, env: NodeJS.ProcessEnv): string {
  return join(projectStateDir(root, env), 'install');
}

export function readManifest(dir: string): Manifest {
  const file = join(dir, 'manifest.json');
  if (!existsSync(file)) return { schema: 'tollgate.install/v1', files: {} };
  try {
    const doc = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
    if (doc?.schema === 'tollgate.install/v1' && typeof doc.files === 'object' && doc.files !== null)
      return doc;
  } catch {
    // fall through
  }
  throw Object.assign(new Error(`the install manifest ${file} is damaged; remove it to start over`), {
    code: 'install_manifest_invalid',
  });
}

export function writeManifest(dir: string, manifest: Manifest): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileAtomic(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** Keeps `bytes` (exactly: restore gives back what was there) as the backup of `file`; returns where. */
export function writeBackup(dir: string, file: string, bytes: Buffer): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, `${sha256(file).slice(0, 16)}.backup`);
  writeFileAtomic(path, bytes);
  return path;
}

export function removeBackup(path: string | undefined): void {
  if (path !== undefined) rmSync(path, { force: true });
}
