// The session's code a test runner loads is judged by what it can do: literal shell calls as the
// call's own commands (so the catalogue's rules fire on them), other capabilities as unknown-dynamic,
// plain code as nothing; the person's code, and what lies outside the runner's reach, as before.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeFileView } from '@tollgate/shell';
import { afterAll, describe, expect, it } from 'vitest';
import { classify, classifyNormalised, normaliseCall } from './classify.js';
import { loadPolicy } from './policy/files.js';
import type { Store } from './ports.js';
import { MAX_SESSION_CODE_FILES, SESSION_CODE, withSessionCode } from './session-code.js';
import type { WriteScope } from './writes.js';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'tollgate-session-code-')));
const root = join(base, 'app');
afterAll(() => rmSync(base, { recursive: true, force: true }));

function file(path: string, text: string): string {
  const full = join(root, path);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, text);
  return full;
}

mkdirSync(join(root, '.git'), { recursive: true });
file('.git/HEAD', 'ref: refs/heads/main\n');
const plain = file(
  'tests/test_plain.py',
  'from app import answer\n\ndef test_answer():\n    assert answer() == 42\n',
);
const pushes = file(
  'tests/test_push.py',
  'import subprocess\n\ndef test_x():\n    subprocess.run(["git", "push", "--force", "origin", "main"])\n',
);
const spawns = file('tests/test_spawn.py', 'import subprocess\n\ndef test_x():\n    subprocess.run(CMD)\n');
const wipes = file(
  'tests/helpers.js',
  "import fs from 'node:fs';\nfs.rmSync('important', { recursive: true });\n",
);
const person = file('tests/test_person.py', 'import os\nos.system(CMD)\n');
file('data/vendored/ok.py', 'x = 1\n');

const policy = loadPolicy(['builtin:files', 'builtin:shell', 'builtin:mcp']);
const project = { root, home: join(base, 'home'), gate: [join(root, 'tollgate.config.yaml')] };
const scope: WriteScope = {
  project,
  context: { cwd: root, home: join(base, 'home'), files: nodeFileView() },
};

/** A store that answers writtenUnder from a list of the session's writes, newest first (`pending:` marks a background job's). */
function store(written: string[]): Store {
  return {
    writtenUnder: async (_session: string, dirs: readonly string[], limit: number) =>
      written
        .map((p) =>
          p.startsWith('pending:') ? { path: p.slice(8), pending: true } : { path: p, pending: false },
        )
        .filter((w) => dirs.some((d) => d === '/' || w.path.startsWith(`${d}/`)))
        .slice(0, limit),
  } as unknown as Store;
}

async function judged(command: string, written: string[]) {
  const call = { tool: 'shell', args: { command } };
  const normalised = await withSessionCode(store(written), 's', normaliseCall(call, scope), scope);
  return {
    classification: classifyNormalised(policy, call, normalised),
    flagged: (normalised.facts?.dynamic ?? []).filter((d) => d.kind === SESSION_CODE).map((d) => d.text),
  };
}

describe('the session’s code a runner loads', () => {
  it('plain code the session wrote passes; so does any code the person wrote', async () => {
    const { classification, flagged } = await judged('pytest -q', [plain]);
    expect(flagged).toEqual([]);
    expect(classification.class).not.toBe('unknown-dynamic');
    expect(
      classify(policy, { tool: 'shell', args: { command: 'pytest -q' } }, undefined, scope).gating,
    ).toEqual([]);
    // test_person.py spawns a computed command, but the session never wrote it.
    expect((await judged('pytest', [plain])).flagged).not.toContain(expect.stringContaining(person));
  });

  it('a literal command it runs is the call’s own: the catalogue judges the force-push', async () => {
    const { classification } = await judged('python3 -m pytest', [pushes]);
    expect(classification.class).toBe('irreversible');
    expect(classification.rules.some((id) => id.startsWith('git.push'))).toBe(true);
  });

  it('a capability it has is unknown-dynamic, named with the file', async () => {
    const { classification, flagged } = await judged('pytest', [spawns, plain]);
    expect(flagged).toEqual([`${spawns}: uses subprocess`]);
    expect(classification.rules).toContain('shell.session-code');
    expect(classification.class).toBe('unknown-dynamic');
    // A node runner judges the node files; the python ones are not what it loads.
    expect((await judged('npx vitest run', [spawns, wipes])).flagged).toEqual([
      `${wipes}: deletes or moves files (rmSync)`,
    ]);
  });

  it('a tree written whole is walked; what is gone runs nothing; too much is unknown', async () => {
    expect((await judged('pytest', [`${join(root, 'tests')}/`])).flagged).toEqual(
      expect.arrayContaining([`${spawns}: uses subprocess`, `${person}: calls os.system`]),
    );
    expect((await judged('pytest', [join(root, 'tests', 'gone.py')])).flagged).toEqual([]);
    // Unless a background job of the session is still to write it.
    const later = join(root, 'tests', 'test_later.py');
    expect((await judged('pytest', [`pending:${later}`])).flagged).toEqual([
      `${later}: a background job of this session writes it and may not be done`,
    ]);
    expect((await judged('pytest', [`pending:${root}/tests/`])).flagged).toEqual([
      `${root}/tests/: a background job of this session writes into it and may not be done`,
    ]);
    const many = Array.from({ length: MAX_SESSION_CODE_FILES + 1 }, (_, k) => join(root, `m${k}.py`));
    expect((await judged('pytest', many)).flagged).toEqual([
      `${root}: more than ${MAX_SESSION_CODE_FILES} files this session wrote are there`,
    ]);
  });

  it('reads the session’s files with bounds of their own, not what the parse left', async () => {
    const tight: WriteScope = {
      project,
      context: { cwd: root, home: join(base, 'home'), files: nodeFileView({ maxOps: 6 }) },
    };
    const call = { tool: 'shell', args: { command: 'cd tests && ls -la . .. ../.. && pytest' } };
    const parsed = normaliseCall(call, tight);
    const normalised = await withSessionCode(store([plain]), 's', parsed, tight);
    expect((normalised.facts?.dynamic ?? []).filter((d) => d.kind === SESSION_CODE)).toEqual([]);
    // Past even those bounds a file is unknown, never taken for removed.
    const many = Array.from({ length: 8 }, (_, k) => file(`tests/test_m${k}.py`, 'x = 1\n'));
    const past = await withSessionCode(store(many), 's', parsed, tight);
    expect((past.facts?.dynamic ?? []).map((d) => d.text)).toContainEqual(
      expect.stringContaining('a bound of the file view was hit'),
    );
  });

  it('a command that runs no test runner asks nothing', async () => {
    expect((await judged('git status', [spawns])).flagged).toEqual([]);
    expect((await judged('python3 -c "print(1)"', [spawns])).flagged).toEqual([]);
  });
});
