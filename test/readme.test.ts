// The README's library example runs exactly as written: it is cut out of README.md, executed with
// the workspace packages, and its printed lines must match the comments beside them.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

function example(name: string): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const marker = `<!-- readme-example: ${name} -->`;
  const start = readme.indexOf(marker);
  if (start < 0) throw new Error(`README.md has no ${marker}`);
  const block = /```ts\n([\s\S]*?)```/.exec(readme.slice(start));
  if (!block?.[1]) throw new Error(`no ts block after ${marker}`);
  return block[1];
}

describe('README', () => {
  it('library example prints what its comments say', () => {
    const code = example('library');
    const expected = [...code.matchAll(/console\.log\(.*\); \/\/ (.*)$/gm)].map((m) => m[1]);
    expect(expected.length).toBeGreaterThanOrEqual(2);
    const file = join(ROOT, 'test', 'fixtures', '.readme-library.ts');
    writeFileSync(file, code);
    try {
      const out = execFileSync(process.execPath, ['--conditions=tollgate-source', '--import', 'tsx', file], {
        cwd: ROOT,
        encoding: 'utf8',
      });
      expect(out.trim().split('\n')).toEqual(expected);
    } finally {
      rmSync(file, { force: true });
    }
  });
});

describe('README reason codes', () => {
  it('lists every code of the catalogue with its meaning', async () => {
    const { REASONS } = await import('@tollgate/core');
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const [code, meaning] of Object.entries(REASONS))
      expect(readme).toContain(`| \`${code}\` | ${meaning} |`);
  });
});
