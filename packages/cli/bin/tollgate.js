#!/usr/bin/env node
// The `tollgate` binary. Most commands load the ES module bundle (dist/tollgate.js). `tollgate hook`
// runs once per agent tool call, so it loads a CommonJS bundle of just the hook path (dist/hook.cjs)
// through V8's code cache (dist/.v8-cache), which skips compiling it again: that compile was most of
// a hook process's cost. On Node 22.1+ the module compile cache covers the ES module bundle too.
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';

// A hook that cannot start still answers in its host's protocol (start-refusal.cjs, shared with the
// snapshot entry), loaded only on that path.
const refuse = (error) => module.createRequire(import.meta.url)('./start-refusal.cjs')(error);

if (process.argv[2] === 'hook') {
  try {
    runHook();
  } catch (error) {
    if (error?.code === 'ENOENT') runBundle();
    else refuse(error);
  }
} else {
  runBundle();
}

function runBundle() {
  // Long-running commands (classify --batch, serve, mcp proxy) allocate per call objects that die
  // with the call, yet V8's allocation-site pretenuring moves those sites to old space once a few of
  // their objects outlive a scavenge (those made while the policy loads, say): every call's garbage
  // then waits for a full mark-compact. Measured on classify: a warm `git push --force` went from
  // about 28 to 16 µs. Set before any of the bundle runs; the hook path keeps V8's defaults, so its
  // code cache stays valid.
  v8.setFlagsFromString('--no-allocation-site-pretenuring');
  module.enableCompileCache?.();
  import('../dist/tollgate.js').catch((error) => {
    if (process.argv[2] === 'hook') return refuse(error);
    const missing =
      error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/tollgate.js');
    process.stderr.write(
      missing
        ? 'tollgate: the CLI is not built (packages/cli/dist/tollgate.js is missing)\n  fix: run npm run build\n'
        : `tollgate: failed to start: ${error?.stack ?? error}\n`,
    );
    process.exitCode = 1;
  });
}

function runHook() {
  const file = fileURLToPath(new URL('../dist/hook.cjs', import.meta.url));
  const source = readFileSync(file, 'utf8');
  const stat = statSync(file);
  // The cache is only valid for this exact bundle and V8; a stale or foreign one is rejected by V8.
  const cacheDir = fileURLToPath(new URL('../dist/.v8-cache/', import.meta.url));
  const cacheFile = `${cacheDir}hook-${process.versions.v8}-${process.arch}-${stat.size}-${Math.trunc(stat.mtimeMs)}.bin`;
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(module.wrap(source), { filename: file, cachedData });
  const exports = {};
  const mod = { exports, filename: file, id: file, loaded: false };
  script.runInThisContext()(exports, module.createRequire(file), mod, file, dirname(file));
  mod.exports.runHook(process.argv.slice(3)).then(
    (code) => {
      process.exitCode = code;
      // Written after the run, so the functions the hook compiled on the way are in it.
      if (cachedData === undefined || script.cachedDataRejected) saveCache(cacheDir, cacheFile, script);
    },
    (error) => refuse(error),
  );
}

function saveCache(dir, file, script) {
  try {
    mkdirSync(dir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, script.createCachedData());
    renameSync(tmp, file);
  } catch {
    // A read-only install simply runs without the cache.
  }
}
