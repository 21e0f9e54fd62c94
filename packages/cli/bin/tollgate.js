#!/usr/bin/env node
// The `tollgate` binary: loads the esbuild bundle built by `npm run build -w packages/cli`.
import('../dist/tollgate.js').catch((error) => {
  const missing =
    error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/tollgate.js');
  process.stderr.write(
    missing
      ? 'tollgate: the CLI is not built (packages/cli/dist/tollgate.js is missing)\n  fix: run npm run build\n'
      : `tollgate: failed to start: ${error?.stack ?? error}\n`,
  );
  process.exitCode = 1;
});
