// Builds one workspace package (run from its folder): src/index.ts → dist/index.js as an ES module,
// with npm dependencies left external and workspace packages bundled in from source. Packages with
// their own build (the CLI) call this for the library part and add their entry points.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const dir = process.cwd();
const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
const external = Object.keys(pkg.dependencies ?? {}).filter((name) => !name.startsWith('@tollgate/'));

export async function bundle(entry, outfile, extra = {}) {
  await build({
    entryPoints: [join(dir, entry)],
    outfile: join(dir, outfile),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['source'],
    external: [...external, ...(extra.external ?? [])],
    sourcemap: 'linked',
    logLevel: 'warning',
    banner: {
      js: "import { createRequire as __tgCreateRequire } from 'node:module'; const require = __tgCreateRequire(import.meta.url);",
    },
    ...extra.options,
  });
}

if (import.meta.url === `file://${process.argv[1]}` && existsSync(join(dir, 'src/index.ts'))) {
  await bundle('src/index.ts', 'dist/index.js');
}
