// A shim directory given with --dir is listed once, and every gate counts it among its own paths.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gateWhere } from './gate-where.js';
import { registerShimDir, shimDirs } from './shim-registry.js';

const base = mkdtempSync(join(tmpdir(), 'tollgate-shim-reg-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const env = { HOME: '/home/dev', TOLLGATE_STATE_DIR: base };

describe('shim registry', () => {
  it('lists each directory once and puts it among the gate paths', () => {
    expect(shimDirs(env)).toEqual([]);
    registerShimDir(env, '/opt/shims');
    registerShimDir(env, '/opt/shims');
    registerShimDir(env, '/srv/bin/shims');
    expect(shimDirs(env)).toEqual(['/opt/shims', '/srv/bin/shims']);
    const where = gateWhere({ config: {}, root: '/srv/app' }, env, undefined);
    expect(where.project.gate).toEqual(expect.arrayContaining(['/opt/shims', '/srv/bin/shims']));
    // Another state base has its own list.
    expect(shimDirs({ HOME: '/home/dev', TOLLGATE_STATE_DIR: join(base, 'other') })).toEqual([]);
  });
});
