#!/usr/bin/env node
// The `tollgate` binary: loads the esbuild bundle built by `npm run build -w packages/cli`.
// On Node 22.1+ the V8 compile cache keeps the bundle's compiled code between processes (a hook
// process starts per tool call); Node 20 has no such cache and compiles it each time.
import module from 'node:module';

module.enableCompileCache?.();
import('../dist/tollgate.js').catch((error) => {
  // A hook must answer in its protocol even when the CLI cannot start: refuse, never go silent.
  if (process.argv[2] === 'hook') {
    const reason = `Tollgate (an automated gate) could not start, so the tool call is refused: ${String(error?.message ?? error).slice(0, 300)}`;
    process.stdout.write(
      `${JSON.stringify({ decision: 'block', reason, hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } })}\n`,
    );
    return;
  }
  const missing =
    error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/tollgate.js');
  process.stderr.write(
    missing
      ? 'tollgate: the CLI is not built (packages/cli/dist/tollgate.js is missing)\n  fix: run npm run build\n'
      : `tollgate: failed to start: ${error?.stack ?? error}\n`,
  );
  process.exitCode = 1;
});
