// `patch` writes the files named inside the patch it reads (`-i FILE`, or stdin: a file, a
// heredoc), not its own operands: read at decision time, as `git apply`'s are (git-writes.ts), so
// a patch naming `.git/config` or `.claude/settings.json` is a write of that file. Without `-p` GNU
// patch may take a name whole or by its basename: both count. A patch that cannot be read writes
// files that cannot be told.
import type { Handler } from './extract.js';
import { namesInPatches } from './git-writes.js';
import { readInput, stdinText } from './scripts.js';
import type { ShellSegment } from './types.js';
import { WRITE_MODELS } from './write-model.js';
import { addSegmentWrites } from './writes.js';

/** Options of patch that take the next word (or `=value`) as their value: its write model's. */
const VALUES: ReadonlySet<string> = new Set((WRITE_MODELS.patch?.values ?? '').split(' '));

export const patch: Handler = (ex, inv) => {
  ex.emit(inv);
  const segment = ex.segments[ex.segments.length - 1] as ShellSegment | undefined;
  if (segment?.program !== 'patch') return;
  const { argv } = inv;
  let input: string | undefined;
  let strip: number | undefined;
  let directory = '';
  const operands: string[] = [];
  for (let k = 1; k < argv.length; k++) {
    const arg = argv[k] as string;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const attached = /^-[pidoDBzFVY]./.test(arg) ? arg.slice(2) : undefined;
    const value = eq > 0 ? arg.slice(eq + 1) : (attached ?? (VALUES.has(name) ? argv[++k] : undefined));
    const option = attached !== undefined ? arg.slice(0, 2) : name;
    if (option === '--dry-run') return;
    if (option === '-i' || option === '--input') input = value;
    else if (option === '-p' || option === '--strip') strip = Number(value);
    else if (option === '-d' || option === '--directory') directory = value ?? '';
    else if (!arg.startsWith('-') || arg === '-') operands.push(arg);
  }
  // `patch FILE [PATCH]`: FILE is what is written (the write model names it).
  if (operands.length > 0 && operands[0] !== '-') return;
  const read = (path: string) => readInput(ex.res, path);
  const text = input !== undefined && input !== '-' ? read(input) : stdinText(inv, read);
  const strips = strip === undefined || Number.isNaN(strip) ? [0, -1] : [strip];
  const names = text === undefined ? undefined : namesInPatches([text], strips, directory);
  const unresolved = inv.unresolved.some(Boolean);
  const words =
    names === undefined
      ? [{ text: directory === '' ? '.' : directory, unresolved, elsewhere: true }]
      : names.map((n) => ({ text: n, unresolved }));
  addSegmentWrites(segment, words, ex.res, inv.temp ?? null);
};
