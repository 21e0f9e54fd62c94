'use strict';
// The entry of the hook's Node start-up snapshot, built by `node --snapshot-blob FILE
// --build-snapshot bin/hook-snapshot.cjs` (src/hook-snapshot.ts does it for `tollgate init`). It
// evaluates dist/hook.cjs and warms its pure code paths, so a hook process started with
// `node --snapshot-blob FILE bin/tollgate.js hook <host>` begins with the bundle loaded, initialised
// and compiled. better-sqlite3 (native) cannot be in a snapshot: it is loaded at run time.
// A blob built from another dist/hook.cjs than the one beside argv[1] runs that file instead.
const { startupSnapshot } = require('node:v8');
const { readFileSync, realpathSync, statSync } = require('node:fs');
const { dirname, join } = require('node:path');

const stamp = (file) => {
  const s = statSync(file);
  return `${s.size}:${Math.trunc(s.mtimeMs)}`;
};

const built = join(__dirname, '..', 'dist', 'hook.cjs');
const builtStamp = stamp(built);
// While building, only Node's built-in modules can be required; at run time the bundle's requires
// (kysely, to create or migrate a store) resolve from where the package is.
let requireNow = require;
const forward = (id) => requireNow(id);
const hook = { exports: {} };
new Function('exports', 'require', 'module', '__filename', '__dirname', readFileSync(built, 'utf8'))(
  hook.exports,
  forward,
  hook,
  built,
  dirname(built),
);
// Finishes while the builder runs the event loop, before the snapshot is taken.
hook.exports.warmHook().catch(() => undefined);

// As bin/tollgate.js: a hook answers in its protocol even when it cannot start (start-refusal.cjs,
// evaluated here as the bundle is, since only built-in modules can be required while building).
const refusal = { exports: {} };
new Function('module', readFileSync(join(__dirname, 'start-refusal.cjs'), 'utf8'))(refusal);
const refuse = refusal.exports;

startupSnapshot.setDeserializeMainFunction(() => {
  const { createRequire } = require('node:module');
  // The command line names the binary as the script, as without the snapshot: node --snapshot-blob
  // FILE /…/bin/tollgate.js hook <host>. argv[1] is that script (this entry never runs it), or a
  // link to it (node_modules/.bin/tollgate): the bundle is found beside the file it names.
  let bin = process.argv[1] ?? '';
  try {
    bin = realpathSync(bin);
  } catch {
    // Not there: the stamp check below fails and the bundle beside the word is tried as it is.
  }
  const file = join(dirname(bin), '..', 'dist', 'hook.cjs');
  try {
    requireNow = createRequire(file);
    let current = false;
    try {
      current = stamp(file) === builtStamp;
    } catch {
      current = false;
    }
    if (process.argv[2] !== 'hook') {
      process.stderr.write('tollgate: this start-up snapshot only runs `tollgate hook <host>`\n');
      process.exitCode = 2;
      return;
    }
    // Another build of the bundle than the one in the snapshot: run that one, without the snapshot.
    const run = current ? hook.exports : requireNow(file);
    if (current) hook.exports.relocate(file);
    run.runHook(process.argv.slice(3)).then(
      (code) => {
        // A bundle from before exitHook existed ends as it always did.
        if (run.exitHook) run.exitHook(code);
        else process.exitCode = code;
      },
      (error) => refuse(error),
    );
  } catch (error) {
    refuse(error);
  }
});
