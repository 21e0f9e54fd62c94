// Builds the `tollgate` binary: one ES module entry (dist/tollgate.js) with a chunk per subcommand,
// precompiled contract validators and catalogue predicates, the catalogues copied to dist/policies,
// and better-sqlite3 (native) and pg kept external. Run from packages/cli (npm run build).
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { tollgatePlugins } from './plugins.mjs';
import { builtinPolicies, contractValidatorsModule, precompiledModule } from './precompile.mjs';

const cli = join(dirname(fileURLToPath(import.meta.url)), '..');
const contracts = join(cli, '../../contracts');
const dist = join(cli, 'dist');
// Generated sources live under dist/ (ignored by git and biome) and are bundled, not loaded.
const generated = join(dist, '.generated');

rmSync(dist, { recursive: true, force: true });
mkdirSync(generated, { recursive: true });
writeFileSync(join(generated, 'contract-validators.mjs'), contractValidatorsModule(contracts));
const policies = builtinPolicies(contracts);
writeFileSync(join(generated, 'precompiled.mjs'), precompiledModule(policies));

// TOLLGATE_PROFILE_BUILD=1 keeps names readable for `node --cpu-prof` (profiling only; ship minified).
const minify = process.env.TOLLGATE_PROFILE_BUILD !== '1';

const result = await build({
  metafile: true,
  entryPoints: { tollgate: join(cli, 'src/bin.ts') },
  outdir: dist,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  conditions: ['tollgate-source'],
  chunkNames: 'chunks/[name]-[hash]',
  external: ['better-sqlite3', 'pg-native'],
  plugins: [tollgatePlugins({ generated, cliSrc: join(cli, 'src') })],
  sourcemap: 'linked',
  minify,
  legalComments: 'none',
  logLevel: 'warning',
  banner: {
    js: "import { createRequire as __tgCreateRequire } from 'node:module'; const require = __tgCreateRequire(import.meta.url);",
  },
});

// The hook path again as one CommonJS file, which bin/tollgate.js can compile through V8's code
// cache on every Node version (ES modules have no such API before Node 22's module cache).
const hook = await build({
  metafile: true,
  entryPoints: [join(cli, 'src/hook-entry.ts')],
  outfile: join(dist, 'hook.cjs'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  conditions: ['tollgate-source'],
  // kysely is loaded by the store only to migrate or to list audit rows: required then, not bundled.
  external: ['pg-native', 'kysely'],
  plugins: [tollgatePlugins({ generated, cliSrc: join(cli, 'src'), format: 'cjs' })],
  define: { 'import.meta.url': '__tgImportMetaUrl' },
  // import() of an external (kysely) becomes require(): the bundle runs in a vm.Script, which has no
  // loader for real dynamic imports.
  supported: { 'dynamic-import': false },
  // `let`, and relocate(): a start-up snapshot of this bundle (bin/hook-snapshot.cjs) is built in one
  // place and deserialised wherever the package is, so its file URL is set again at start.
  banner: { js: "let __tgImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  footer: {
    js: "module.exports.relocate = (file) => { __tgImportMetaUrl = require('node:url').pathToFileURL(file).href; };",
  },
  minify,
  legalComments: 'none',
  logLevel: 'warning',
});

// What each chunk holds, for keeping the hook's module graph small (npx esbuild --analyze-like reading).
writeFileSync(join(dist, 'meta.json'), JSON.stringify(result.metafile));
writeFileSync(join(dist, 'hook.meta.json'), JSON.stringify(hook.metafile));
mkdirSync(join(dist, 'policies'), { recursive: true });
for (const f of readdirSync(join(contracts, 'policies')).filter((f) => f.endsWith('.yaml')))
  cpSync(join(contracts, 'policies', f), join(dist, 'policies', f));
console.log(
  `tollgate: built dist/ (${policies.map((p) => p.name).join(', ') || 'no shipped catalogues found'})`,
);
