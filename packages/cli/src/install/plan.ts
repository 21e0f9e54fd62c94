// One planned change to one host file, for install and for uninstall: what the file holds now, what
// it will hold, and whether a person must approve it (an existing, non-empty file is changed). The
// same plan is printed by --dry-run, shown before the confirmation, and applied.
import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { HostId, HostSpec } from './hosts.js';
import { formatJson, type Json, readJsonFile, writeFileAtomic } from './json-file.js';
import { lineDiff } from './line-diff.js';
import { type Manifest, type ManifestEntry, removeBackup, sha256, writeBackup } from './manifest.js';
import { mergeOurs, ourEntries, stripOurs } from './merge.js';

export type Action = 'create' | 'update' | 'unchanged' | 'restore' | 'remove-entries' | 'delete' | 'none';

export interface FileChange {
  host: HostId;
  file: string;
  action: Action;
  /** The file's bytes now; undefined when it does not exist. */
  before?: Buffer;
  /** What it will hold; undefined with `delete` (and `none`/`unchanged`). */
  after?: Buffer;
  needsPerson: boolean;
  note?: string;
}

export function planInstall(spec: HostSpec, file: string, command: string): FileChange {
  const current = readJsonFile(file);
  if (!current.exists) {
    const after = formatJson(mergeOurs({}, spec, command, file));
    return { host: spec.id, file, action: 'create', after: Buffer.from(after), needsPerson: false };
  }
  const after = formatJson(mergeOurs(current.doc, spec, command, file), current.layout);
  const before = readFileSync(file);
  if (after === current.text) return { host: spec.id, file, action: 'unchanged', before, needsPerson: false };
  return {
    host: spec.id,
    file,
    action: 'update',
    before,
    after: Buffer.from(after),
    needsPerson: !current.blank,
  };
}

export function planUninstall(spec: HostSpec, file: string, entry: ManifestEntry | undefined): FileChange {
  if (!existsSync(file)) return { host: spec.id, file, action: 'none', needsPerson: false };
  const before = readFileSync(file);
  if (entry !== undefined && unchangedButOurs(before, entry, spec, file)) {
    if (!entry.existed) return { host: spec.id, file, action: 'delete', before, needsPerson: true };
    if (entry.backup !== undefined && existsSync(entry.backup))
      return {
        host: spec.id,
        file,
        action: 'restore',
        before,
        after: readFileSync(entry.backup),
        needsPerson: true,
      };
  }
  const current = readJsonFile(file);
  if (!current.exists) return { host: spec.id, file, action: 'none', needsPerson: false };
  const { doc, removed } = stripOurs(current.doc, spec, file);
  if (removed === 0) return { host: spec.id, file, action: 'none', before, needsPerson: false };
  return {
    host: spec.id,
    file,
    action: 'remove-entries',
    before,
    after: Buffer.from(formatJson(doc, current.layout)),
    needsPerson: true,
    ...(entry !== undefined
      ? { note: 'changed since tollgate init wrote it: only its entries are removed, the rest is kept' }
      : {}),
  };
}

/** Writes an install change and records it (with the backup of the file as it was) in the manifest. */
export function applyInstall(change: FileChange, spec: HostSpec, dir: string, manifest: Manifest): void {
  if (change.after === undefined) return;
  const known = manifest.files[change.file];
  let entry: ManifestEntry;
  if (
    known === undefined ||
    change.before === undefined ||
    !unchangedButOurs(change.before, known, spec, change.file)
  ) {
    // First install, or the file changed since Tollgate wrote it: what is there now (without any
    // Tollgate entries) is the state to go back to.
    if (known?.backup !== undefined) removeBackup(known.backup);
    const original = change.before === undefined ? undefined : withoutOurs(change.before, spec, change.file);
    entry = {
      host: change.host,
      existed: original !== undefined,
      ...(original !== undefined ? { backup: writeBackup(dir, change.file, original) } : {}),
      written_sha256: '',
      installed_at: new Date().toISOString(),
      created_dirs: known?.created_dirs ?? missingDirs(change.file),
    };
  } else entry = { ...known };
  writeFileAtomic(change.file, change.after);
  entry.written_sha256 = sha256(change.after);
  manifest.files[change.file] = entry;
}

/** Carries out an uninstall change and forgets the file in the manifest. */
export function applyUninstall(change: FileChange, manifest: Manifest): void {
  const entry = manifest.files[change.file];
  if (change.action === 'delete') {
    rmSync(change.file, { force: true });
    for (const d of entry?.created_dirs ?? []) removeIfEmpty(d);
  } else if (change.after !== undefined) writeFileAtomic(change.file, change.after);
  if (entry !== undefined) {
    removeBackup(entry.backup);
    delete manifest.files[change.file];
  }
}

export function changeDiff(change: FileChange): string {
  const before = change.before?.toString('utf8') ?? '';
  const after = change.action === 'delete' ? '' : (change.after?.toString('utf8') ?? before);
  return lineDiff(before, after, change.file);
}

/**
 * Whether everything in the file but Tollgate's entries is as it was before Tollgate came: the file is
 * what Tollgate last wrote, or only Tollgate's entries (or nothing) changed since — so the backup is
 * still the state to go back to.
 */
function unchangedButOurs(bytes: Buffer, entry: ManifestEntry, spec: HostSpec, file: string): boolean {
  if (sha256(bytes) === entry.written_sha256) return true;
  let baseline: Json;
  if (!entry.existed) baseline = stripOurs(mergeOurs({}, spec, '', file), spec, file).doc;
  else {
    if (entry.backup === undefined || !existsSync(entry.backup)) return false;
    const text = readFileSync(entry.backup, 'utf8');
    try {
      baseline = text.trim() === '' ? {} : (JSON.parse(text) as Json);
    } catch {
      return false;
    }
  }
  try {
    const current = bytes.toString('utf8');
    const doc = current.trim() === '' ? {} : (JSON.parse(current) as Json);
    return isDeepStrictEqual(stripOurs(doc, spec, file).doc, baseline);
  } catch {
    return false;
  }
}

/** The bytes as they are, when they hold no Tollgate entry; else the document without them. */
function withoutOurs(bytes: Buffer, spec: HostSpec, file: string): Buffer {
  const text = bytes.toString('utf8');
  if (text.trim() === '') return bytes;
  const current = readJsonFile(file);
  if (!current.exists || ourEntries(current.doc, spec, file).length === 0) return bytes;
  return Buffer.from(formatJson(stripOurs(current.doc, spec, file).doc, current.layout));
}

/** The directories above `file` that do not exist yet, deepest first. */
function missingDirs(file: string): string[] {
  const out: string[] = [];
  for (let d = dirname(file); !existsSync(d) && dirname(d) !== d; d = dirname(d)) out.push(d);
  return out;
}

function removeIfEmpty(dir: string): void {
  try {
    if (readdirSync(dir).length === 0) rmdirSync(dir);
  } catch {
    // gone already, or not ours to judge
  }
}
