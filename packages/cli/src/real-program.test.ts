// Finding the real program: the first executable of the name on PATH that is not a shim wrapper.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { firstOnPath, realProgram, SHIM_MARKER } from './real-program.js';

function dirWith(files: Record<string, { text: string; mode: number }>): string {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-path-'));
  for (const [name, f] of Object.entries(files)) writeFileSync(join(dir, name), f.text, { mode: f.mode });
  return dir;
}

describe('realProgram', () => {
  it('skips wrappers by their marker wherever they are, and files that are not executable', () => {
    const shims = dirWith({ git: { text: `#!/bin/sh\n${SHIM_MARKER}: git\n`, mode: 0o755 } });
    const copy = dirWith({ git: { text: `#!/bin/sh\n${SHIM_MARKER}: git\n`, mode: 0o755 } });
    const plain = dirWith({ git: { text: '#!/bin/sh\n', mode: 0o644 } });
    const real = dirWith({ git: { text: '#!/bin/sh\necho real\n', mode: 0o755 } });
    const path = [shims, copy, plain, 'relative/dir', real].join(':');
    expect(firstOnPath('git', path)).toBe(join(shims, 'git'));
    expect(realProgram('git', path)).toBe(join(real, 'git'));
    expect(realProgram('git', path, [real])).toBeUndefined();
    mkdirSync(join(real, 'kubectl'));
    expect(realProgram('kubectl', path)).toBeUndefined();
  });
});
