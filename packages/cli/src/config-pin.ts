// The direnv model for the gate's own configuration: a config takes effect only once a person has
// accepted it. The CLI pins, under the state directory (zone `gate`: no classified route of the agent
// writes there), the bytes of the config and of every user rule file it lists — a digest per file, and
// a copy of each in a content-addressed blob. The first load of an unpinned config pins it (trust on
// first use, like the store pin); `tollgate init` and `tollgate config accept` (a person) re-pin it.
// A later load whose bytes differ — however they were written: `git apply`, `tar -x`, a program the
// agent compiled — or whose config vanished keeps the accepted copy in force and reports the pending
// change, so a patch that says `mode: observe` switches nothing off.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TollgateFault } from '@tollgate/core';

export const ACCEPT_FIX = 'a person reviews the change and runs: tollgate config accept';

/** One pinned file: its canonical path and the sha-256 of its bytes (null: it did not exist). */
export interface PinnedFile {
  path: string;
  sha256: string | null;
}

export interface ConfigPin {
  schema: 'tollgate.config-pin/v1';
  /** The config file's canonical path. */
  config: string;
  /** sha-256 over the files' paths and digests: one value to compare and to show. */
  digest: string;
  /** The config first, then each user rule file it lists, in policy order. */
  files: PinnedFile[];
  accepted_at: string;
  /** `first use`, `init`, or the person who ran `tollgate config accept`. */
  accepted_by: string;
}

/** A file whose bytes differ from the accepted ones (null: absent). */
export interface FileChange {
  path: string;
  accepted: string | null;
  now: string | null;
}

export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function pinDir(base: string): string {
  return join(base, 'config-pins');
}

/**
 * `key`: the config's path as runtime.ts pinPath names it (its directory's real path plus its own
 * name), taken as given: resolving the file itself would let a symlink name another pin.
 */
export function configPinFile(base: string, key: string): string {
  return join(pinDir(base), `${sha256(key)}.json`);
}

function blobFile(base: string, digest: string): string {
  return join(pinDir(base), 'blobs', digest);
}

export function digestOf(files: readonly PinnedFile[]): string {
  return sha256(files.map((f) => `${f.path}\0${f.sha256 ?? '-'}\n`).join(''));
}

/** A file's bytes, or undefined when it does not exist; any other read error is a fault. */
export function readBytes(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new TollgateFault('config_invalid', `cannot read ${path}: ${(error as Error).message}`);
  }
}

function damaged(message: string): TollgateFault {
  return new TollgateFault('config_invalid', message, {
    fix: `check the tollgate state directory; then ${ACCEPT_FIX}`,
  });
}

/** The pin of a config file; undefined when none. A pin that cannot be read is a fault, never "no pin". */
export function readConfigPin(base: string, configPath: string): ConfigPin | undefined {
  const file = configPinFile(base, configPath);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw damaged(`cannot read the config pin ${file}: ${(error as Error).message}`);
  }
  try {
    const pin = JSON.parse(text) as Partial<ConfigPin>;
    if (
      pin.schema === 'tollgate.config-pin/v1' &&
      typeof pin.config === 'string' &&
      typeof pin.digest === 'string' &&
      Array.isArray(pin.files) &&
      pin.files.length > 0 &&
      pin.files.every(
        (f) => typeof f?.path === 'string' && (f.sha256 === null || typeof f.sha256 === 'string'),
      )
    )
      return pin as ConfigPin;
  } catch {
    // fall through
  }
  throw damaged(`the config pin ${file} of ${configPath} is damaged`);
}

/**
 * Records `files` (with their bytes) as the accepted config: the blobs first, then the pin by an
 * atomic rename, so a reader never sees a pin whose copies are missing.
 */
export function writeConfigPin(
  base: string,
  configPath: string,
  files: readonly PinnedFile[],
  bytes: ReadonlyMap<string, Buffer>,
  acceptedBy: string,
): ConfigPin {
  mkdirSync(join(pinDir(base), 'blobs'), { recursive: true, mode: 0o700 });
  for (const f of files) {
    if (f.sha256 === null) continue;
    const blob = blobFile(base, f.sha256);
    if (existsSync(blob)) continue;
    const content = bytes.get(f.path);
    if (content === undefined) throw new Error(`no bytes for ${f.path}`);
    const tmp = `${blob}.${process.pid}.tmp`;
    writeFileSync(tmp, content, { mode: 0o600 });
    renameSync(tmp, blob);
  }
  const pin: ConfigPin = {
    schema: 'tollgate.config-pin/v1',
    config: configPath,
    digest: digestOf(files),
    files: [...files],
    accepted_at: new Date().toISOString(),
    accepted_by: acceptedBy,
  };
  const file = configPinFile(base, configPath);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(pin)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
  return pin;
}

export function removeConfigPin(base: string, configPath: string): void {
  rmSync(configPinFile(base, configPath), { force: true });
}

/** The accepted bytes of a pinned file, checked against their digest. */
export function acceptedBytes(base: string, file: PinnedFile): Buffer {
  if (file.sha256 === null) throw damaged(`the accepted config has no copy of ${file.path}`);
  const blob = blobFile(base, file.sha256);
  const bytes = readBytes(blob);
  if (bytes === undefined || sha256(bytes) !== file.sha256)
    throw damaged(`the accepted copy of ${file.path} (${blob}) is missing or damaged`);
  return bytes;
}

/** The pinned files whose bytes differ now (the config first). */
export function changesSince(pin: ConfigPin, configBytes: Buffer | undefined): FileChange[] {
  const changes: FileChange[] = [];
  const [config, ...rules] = pin.files;
  const now = configBytes === undefined ? null : sha256(configBytes);
  if (config !== undefined && now !== config.sha256)
    changes.push({ path: config.path, accepted: config.sha256, now });
  // The rule files count only while the config is the accepted one: a changed config may list others,
  // and it is accepted as a whole.
  if (changes.length > 0) return changes;
  for (const f of rules) {
    const content = readBytes(f.path);
    const sha = content === undefined ? null : sha256(content);
    if (sha !== f.sha256) changes.push({ path: f.path, accepted: f.sha256, now: sha });
  }
  return changes;
}

/** One line a person reads: what changed, that the accepted config is still in force, and the fix. */
export function pendingText(changes: readonly FileChange[]): string {
  const what = changes
    .map((c) => `${c.path} ${c.now === null ? 'was deleted' : c.accepted === null ? 'appeared' : 'changed'}`)
    .join(', ');
  return `the gate's configuration changed since a person accepted it (${what}); the gate keeps enforcing the accepted version until ${ACCEPT_FIX}`;
}
