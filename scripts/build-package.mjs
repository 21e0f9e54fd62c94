// Builds one workspace package (run from its folder): src/index.ts → dist/index.js as an ES module.
// Library builds keep every dependency external, workspace packages included, so no package carries
// a private copy of another (one core, one set of classes). An application bundle (the CLI) passes
// { bundleWorkspace: true } to inline the workspace packages from source instead.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const dir = process.cwd();
const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
// Peer dependencies (the agent framework an adapter plugs into) are the application's own copy: never bundled.
const dependencies = Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies });

export async function bundle(entry, outfile, extra = {}) {
  const external = extra.bundleWorkspace
    ? dependencies.filter((name) => !name.startsWith('@tollgate/'))
    : dependencies;
  await build({
    entryPoints: [join(dir, entry)],
    outfile: join(dir, outfile),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: extra.bundleWorkspace ? ['tollgate-source'] : [],
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
