// The environment a gate hands to resolution: commands inherit the gate's TMPDIR, and an unset one
// is passed on as unset (the shell then expands `$TMPDIR/x` to `/x`).
import { describe, expect, it } from 'vitest';
import { gateWhere } from './gate-where.js';

const loaded = { config: {}, root: '/srv/app' };

describe('gateWhere env', () => {
  it('passes TMPDIR on as the gate has it', () => {
    expect(gateWhere(loaded, { HOME: '/home/dev', TMPDIR: '/tmp/dev' }, undefined).env).toEqual({
      TMPDIR: '/tmp/dev',
    });
  });

  it('passes an unset TMPDIR on as unset, not as /tmp', () => {
    const where = gateWhere(loaded, { HOME: '/home/dev' }, undefined);
    expect(where.env).toEqual({ TMPDIR: undefined });
    expect(where.env && 'TMPDIR' in where.env).toBe(true);
  });
});
