// prepack of every publishable package (run from its folder): the TypeScript declarations of src/
// into dist/types, which its `types` export names outside this repository (inside it the
// `tollgate-source` condition points TypeScript at src/ instead). Tests and test helpers are left out.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.cwd();
const out = join(dir, 'dist', 'types');
rmSync(out, { recursive: true, force: true });
const tsc = join(import.meta.dirname, '..', 'node_modules', 'typescript', 'bin', 'tsc');
// Without the tollgate-source condition, another workspace package is read through its own
// declarations (packed before this one), as a consumer reads it, and never copied into this one.
const config = join(dir, 'tsconfig.pack.json');
writeFileSync(
  config,
  JSON.stringify({
    extends: './tsconfig.json',
    include: ['src'],
    exclude: ['src/**/*.test.ts', 'src/testing/**', 'src/workers/**'],
    compilerOptions: {
      customConditions: [],
      noEmit: false,
      declaration: true,
      emitDeclarationOnly: true,
      outDir: out,
    },
  }),
);
try {
  execFileSync(process.execPath, [tsc, '-p', config], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
} catch {
  // Type errors elsewhere in the workspace do not stop declaration emit; a missing index does.
} finally {
  rmSync(config, { force: true });
}
// contracts imports its JSON schemas from outside src/, so its declarations keep the src/ level.
if (!existsSync(join(out, 'index.d.ts')) && !existsSync(join(out, 'src', 'index.d.ts'))) {
  console.error(`pack-types: ${dir}: no index.d.ts was emitted under dist/types`);
  process.exit(1);
}
prune(out);

function prune(folder) {
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) {
      if (name === 'testing' || name === 'workers') rmSync(path, { recursive: true, force: true });
      else prune(path);
    } else if (name.endsWith('.test.d.ts')) rmSync(path);
  }
}
