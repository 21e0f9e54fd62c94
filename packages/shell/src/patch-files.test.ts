// patch writes the files its patch names: read at decision time, wherever the patch comes from.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeFileView, parseShell } from './index.js';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'tollgate-patch-')));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const diff = (name: string) => `--- a/${name}\n+++ b/${name}\n@@ -1 +1,2 @@\n [core]\n+\tx = 1\n`;
writeFileSync(join(dir, 'hooks.diff'), diff('.git/config'));
writeFileSync(join(dir, 'fix.diff'), diff('src/app.ts'));
const writes = (command: string) => {
  const segment = parseShell(command, {
    context: { cwd: dir, files: nodeFileView(), env: {} },
  }).segments.find((s) => s.program === 'patch');
  return { writes: segment?.writes ?? [], unresolved: segment?.writes_unresolved ?? false };
};

describe('patch', () => {
  it.each(['patch -p1 < hooks.diff', 'patch -p1 -i hooks.diff', 'patch --strip=1 --input=hooks.diff'])(
    '%s writes the file the patch names',
    (command) => {
      expect(writes(command).writes).toContain(join(dir, '.git/config'));
    },
  );

  it('without -p, the name whole and its basename', () => {
    expect(writes('patch < fix.diff').writes).toEqual(
      expect.arrayContaining([join(dir, 'b/src/app.ts'), join(dir, 'app.ts')]),
    );
  });

  it('under -d, and from a heredoc', () => {
    expect(writes('patch -d sub -p1 < fix.diff').writes).toEqual([join(dir, 'sub/src/app.ts')]);
    expect(writes(`patch -p1 <<'EOF'\n${diff('.claude/settings.json')}EOF`).writes).toContain(
      join(dir, '.claude/settings.json'),
    );
  });

  it('a patch that cannot be read writes what cannot be told; a dry run or a named file, what it says', () => {
    expect(writes('patch -p1 < missing.diff').unresolved).toBe(true);
    expect(writes('cat hooks.diff | patch -p1').unresolved).toBe(true);
    expect(writes('patch -p1 --dry-run < hooks.diff').writes).toEqual([]);
    expect(writes('patch src/app.ts fix.diff').writes).toEqual([join(dir, 'src/app.ts')]);
  });
});
