// CI: Tollgate installed the way a project outside this repository gets it. `npm pack` each
// publishable package (after `npm run build`), install the tarballs into a scratch project in the
// system temp dir (third-party dependencies come from the registry, or its cache), then run the
// README's library and AI SDK examples there and `npx tollgate --help`, `classify` and `check`. Nothing from
// the repository's node_modules can be picked up: the scratch project is not under it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transformSync } from 'esbuild';

const ROOT = join(import.meta.dirname, '..');
const PACKAGES = [
  'contracts',
  'packages/shell',
  'packages/core',
  'packages/store',
  'packages/hooks',
  'packages/http',
  'packages/mcp',
  'packages/ai-sdk',
  'packages/openai-agents',
  'packages/cli',
];
const keep = process.argv.includes('--keep');
const scratch = mkdtempSync(join(tmpdir(), 'tollgate-pack-smoke-'));
const run = (cmd, args, cwd, extra = {}) =>
  execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...extra });
const step = (text) => console.log(`pack-smoke: ${text}`);

try {
  const tarballs = join(scratch, 'tarballs');
  mkdirSync(tarballs);
  for (const dir of PACKAGES) {
    const out = run('npm', ['pack', '--silent', '--pack-destination', tarballs], join(ROOT, dir));
    step(`packed ${out.trim().split('\n').at(-1)}`);
  }
  const files = run('ls', [tarballs], ROOT)
    .trim()
    .split('\n')
    .map((f) => join(tarballs, f));

  const project = join(scratch, 'project');
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'scratch', private: true, type: 'module' }, null, 2)}\n`,
  );
  run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...files], project, {
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  step(`installed ${files.length} tarballs into ${project}`);

  // The README's library and AI SDK examples, as written (TypeScript stripped to JavaScript, nothing
  // else); the AI SDK comes in as @tollgate/ai-sdk's peer dependency, as in an application.
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  for (const name of ['library', 'ai-sdk']) {
    const marker = `<!-- readme-example: ${name} -->`;
    const block = /```ts\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf(marker)))?.[1];
    if (readme.indexOf(marker) < 0 || !block) throw new Error(`README.md has no ${marker} block`);
    const expected = [...block.matchAll(/console\.log\(.*\); \/\/ (.*)$/gm)].map((m) => m[1]);
    const { code } = transformSync(block, { loader: 'ts', format: 'esm' });
    writeFileSync(join(project, `${name}.mjs`), code);
    const printed = run(process.execPath, [`${name}.mjs`], project)
      .trim()
      .split('\n');
    if (JSON.stringify(printed) !== JSON.stringify(expected))
      throw new Error(
        `the ${name} example printed ${JSON.stringify(printed)}, its comments say ${JSON.stringify(expected)}`,
      );
    step(`${name} example printed ${printed.length} lines as its comments say`);
  }

  const help = run('npx', ['--no-install', 'tollgate', '--help'], project);
  if (!help.includes('predict-or-decline')) throw new Error(`npx tollgate --help printed:\n${help}`);
  const classified = JSON.parse(
    run(
      'npx',
      ['--no-install', 'tollgate', 'classify', '--json', '--', 'git', 'push', '--force', 'origin', 'main'],
      project,
    ),
  );
  if (!classified.rules.includes('git.push.force'))
    throw new Error(`classify found no git.push.force: ${JSON.stringify(classified)}`);
  // A check opens the embedded store (better-sqlite3) in a state directory of its own.
  const state = join(scratch, 'state');
  let held = 0;
  try {
    run(
      'npx',
      ['--no-install', 'tollgate', 'check', '--', 'git', 'push', '--force', 'origin', 'main'],
      project,
      {
        env: { ...process.env, XDG_STATE_HOME: state, TOLLGATE_SESSION: 'smoke' },
      },
    );
  } catch (error) {
    held = error.status;
    if (!String(error.stderr).includes('held this call')) throw new Error(`check failed: ${error.stderr}`);
  }
  if (held !== 2) throw new Error(`tollgate check exited ${held}, expected 2 (rejected)`);
  step('npx tollgate --help, classify and check work outside the repository');

  // init claude-code from the installed package: it builds the hook's start-up snapshot in the
  // package's dist/.v8-cache and writes the command Claude Code runs; run that command as it does.
  run('git', ['init', '-q'], project);
  const env = { ...process.env, XDG_STATE_HOME: state };
  const init = JSON.parse(
    run('npx', ['--no-install', 'tollgate', 'init', 'claude-code', '--json'], project, { env }),
  );
  if (!init.snapshot) throw new Error(`init claude-code built no snapshot: ${init.snapshot_problem}`);
  const settings = JSON.parse(readFileSync(join(project, '.claude', 'settings.json'), 'utf8'));
  const command = settings.hooks.PreToolUse[0].hooks[0].command;
  if (!command.includes(`--snapshot-blob ${init.snapshot}`))
    throw new Error(`the hook command is ${command}`);
  const hookInput = (c) =>
    JSON.stringify({
      session_id: 'smoke',
      transcript_path: '/dev/null',
      cwd: project,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: c },
      tool_use_id: 'toolu_smoke',
    });
  const denied = JSON.parse(
    run('/bin/sh', ['-c', command], project, {
      env,
      input: hookInput('git push --force origin main'),
      stdio: 'pipe',
    }),
  );
  if (denied.hookSpecificOutput?.permissionDecision !== 'deny')
    throw new Error(`the installed hook did not deny a force-push: ${JSON.stringify(denied)}`);
  const passed = JSON.parse(
    run('/bin/sh', ['-c', command], project, { env, input: hookInput('git status'), stdio: 'pipe' }),
  );
  if (passed.hookSpecificOutput?.permissionDecision !== undefined)
    throw new Error(`the installed hook objected to git status: ${JSON.stringify(passed)}`);
  step(`init claude-code's hook command runs from its snapshot (${init.snapshot})`);
} finally {
  if (keep) step(`kept ${scratch}`);
  else rmSync(scratch, { recursive: true, force: true });
}
