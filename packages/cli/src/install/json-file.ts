// Reading and writing a host's JSON config file without losing what is in it: the document, and
// enough of its layout (indentation, line ending, final newline) to write it back in the same style.
// A file that does not parse is refused with a fault naming the file and the problem; it is never
// rewritten.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export type Json = Record<string, unknown>;

export interface JsonLayout {
  indent: string;
  eol: '\n' | '\r\n';
  finalNewline: boolean;
}

export type JsonFile =
  | { exists: false }
  /** `blank`: the file holds only whitespace (read as `{}`). */
  | { exists: true; text: string; doc: Json; layout: JsonLayout; blank: boolean };

/** A host config that cannot be changed safely; `code` is the wire code the CLI prints. */
export class HostConfigFault extends Error {
  readonly code = 'host_config_invalid';
  readonly details: { fix: string; file: string };
  constructor(file: string, problem: string, fix = 'fix the file by hand, then run this again') {
    super(`${file}: ${problem}; nothing was changed`);
    this.name = 'HostConfigFault';
    this.details = { fix, file };
  }
}

const DEFAULT_LAYOUT: JsonLayout = { indent: '  ', eol: '\n', finalNewline: true };

export function readJsonFile(path: string): JsonFile {
  if (!existsSync(path)) return { exists: false };
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new HostConfigFault(path, `cannot be read (${(error as Error).message})`);
  }
  if (text.trim() === '') return { exists: true, text, doc: {}, layout: DEFAULT_LAYOUT, blank: true };
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    const comments = /^\s*(\/\/|\/\*)/m.test(text) ? ' (comments are not JSON)' : '';
    throw new HostConfigFault(path, `is not valid JSON: ${(error as Error).message}${comments}`);
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc))
    throw new HostConfigFault(path, 'is not a JSON object');
  return { exists: true, text, doc: doc as Json, layout: layoutOf(text), blank: false };
}

/** The indentation of the first indented line (two spaces for a one-line file), the line ending, the final newline. */
export function layoutOf(text: string): JsonLayout {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? DEFAULT_LAYOUT.indent;
  return { indent, eol: text.includes('\r\n') ? '\r\n' : '\n', finalNewline: /\n$/.test(text) };
}

export function formatJson(doc: Json, layout: JsonLayout = DEFAULT_LAYOUT): string {
  const body = JSON.stringify(doc, null, layout.indent).replace(/\n/g, layout.eol);
  return layout.finalNewline ? `${body}${layout.eol}` : body;
}

/** Writes through a temporary file and a rename, so a crash leaves the old file or the new one. */
export function writeFileAtomic(path: string, text: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tollgate.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}
