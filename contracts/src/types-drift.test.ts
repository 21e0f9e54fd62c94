// contracts/src/generated/types.ts must match what scripts/gen-types.mjs produces from the schemas.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

it('generated types are up to date with contracts/schemas', () => {
  const run = spawnSync(process.execPath, ['scripts/gen-types.mjs', '--check'], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(run.error).toBeUndefined();
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
}, 60_000);
