// The shell catalogue with the hook's file view: a dotfile the command creates (none there now)
// loses nothing, so it is not gated as a truncation; one that exists is.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { classify, loadPolicy } from '@tollgate/core';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeFileView } from './node-files.js';

const catalogue = fileURLToPath(new URL('../../../contracts/policies/shell.yaml', import.meta.url));
const policy = loadPolicy([catalogue]);
const dir = realpathSync(mkdtempSync(join(tmpdir(), 'tollgate-creates-')));
writeFileSync(join(dir, '.env.example'), 'A=1\n');
writeFileSync(join(dir, '.env'), 'SECRET=1\n');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const scope = { context: { cwd: dir, files: nodeFileView() }, project: { root: dir, gate: [] } };
const rules = (command: string) =>
  classify(policy, { tool: 'shell', args: { command } }, undefined, scope).rules;

describe('dotfiles created, not truncated', () => {
  it.each([
    'cp .env.example .env.local',
    'echo "DEBUG=1" > .env.development',
    "cat > .env.test <<'EOF'\nA=1\nEOF",
    // Its errors thrown away write no file.
    'cp .env.example .env.local 2>/dev/null || printf "A=1\\n" > .env.local',
  ])('passes: %s', (command) => {
    expect(rules(command)).not.toContain('fs.redirect.truncate');
  });

  it.each([
    'cp .env.example .env',
    'echo x > .env',
    'tee .env < .env.example',
    'cp .env.example .env.local && echo x > .env',
    'cp .env.example .env 2>/dev/null',
  ])('an existing dotfile is still truncated: %s', (command) => {
    expect(rules(command)).toContain('fs.redirect.truncate');
  });
});
