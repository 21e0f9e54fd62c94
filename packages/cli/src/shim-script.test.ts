// The wrapper a shim install writes: marker, pins exported, the real program readable back.
import { describe, expect, it } from 'vitest';
import { SHIM_MARKER } from './real-program.js';
import { pinnedReal, shimScript } from './shim-script.js';

describe('shimScript', () => {
  it('carries the marker and pins, and hands "$@" to shim exec with the real program', () => {
    const script = shimScript({
      name: 'git',
      real: "/opt/it's here/git",
      dir: '/s',
      self: ['/usr/bin/node', '/t/bin/tollgate.js'],
      pins: { TOLLGATE_CONFIG: '/p/tollgate.config.yaml' },
    });
    expect(script.startsWith(`#!/bin/sh\n${SHIM_MARKER}: git\n`)).toBe(true);
    expect(script).toContain('export TOLLGATE_CONFIG=/p/tollgate.config.yaml\n');
    expect(script).toMatch(/shim exec --real '\/opt\/it'\\''s here\/git' --dir \/s git -- "\$@"\n$/);
    expect(pinnedReal(script)).toBe("/opt/it's here/git");
    expect(pinnedReal('#!/bin/sh\nexec /usr/bin/git "$@"\n')).toBeUndefined();
  });
});
