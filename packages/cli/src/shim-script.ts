// The wrapper `tollgate shim install` writes: a /bin/sh script named after the program, carrying the
// shim marker, the real program pinned by absolute path, and the gate's pins, that hands every call
// to `tollgate shim exec`. Reading one back tells doctor what it pins and whether it is current.
import { shellWord } from '@tollgate/hooks';
import { exportLines } from './gate-pins.js';
import { SHIM_MARKER } from './real-program.js';

export interface ShimSpec {
  name: string;
  /** The real program, absolute, resolved on PATH (without shims) at install time. */
  real: string;
  /** The shim directory the wrapper lives in. */
  dir: string;
  /** How to run this tollgate: [node, /abs/bin/tollgate.js]. */
  self: readonly string[];
  pins: Record<string, string>;
}

export function shimScript(spec: ShimSpec): string {
  const run = [...spec.self, 'shim', 'exec', '--real', spec.real, '--dir', spec.dir, spec.name, '--']
    .map(shellWord)
    .join(' ');
  return (
    `#!/bin/sh\n${SHIM_MARKER}: ${spec.name}\n` +
    '# Written by `tollgate shim install`: every call goes through the gate first. Reinstall, do not edit.\n' +
    exportLines(spec.pins, shellWord) +
    `exec ${run} "$@"\n`
  );
}

/** The real program a wrapper pins (from its `--real` word), or undefined when it is not a wrapper. */
export function pinnedReal(script: string): string | undefined {
  if (!script.includes(SHIM_MARKER)) return undefined;
  const m = / --real ('(?:[^']|'\\'')*'|\S+) /.exec(script);
  if (!m?.[1]) return undefined;
  const word = m[1];
  return word.startsWith("'") ? word.slice(1, -1).replace(/'\\''/g, "'") : word;
}
