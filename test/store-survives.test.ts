// The store and its chain survive the agent (issue 8): the store lives outside the project, a pinned
// store that vanished or was replaced makes the gate unavailable instead of starting afresh, anchors
// kept outside the store catch a truncated, rolled-back, rewritten or replaced chain that verifies on
// its own, and the operator commands need a person — not an agent behind a pseudo-terminal.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AuditRow } from '@tollgate/contracts';
import { chainRow } from '@tollgate/core';
import { openStore } from '@tollgate/store';
import Sqlite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentHostAmong, procAncestors } from '../packages/cli/src/person.js';
import { BIN, git, lastJson, scratchRepo, tollgate } from '../packages/cli/src/testing/harness.js';

const OPERATOR = 'operator-secret-0123456789';
const TOKENS = `tokens:\n  - { token: "${OPERATOR}", agent: oncall, operator: true }\n`;
const underAgent = agentHostAmong(procAncestors() ?? []) !== undefined;
const hasScript = spawnSync('script', ['--version']).status === 0;

let repo: ReturnType<typeof scratchRepo>;
beforeAll(() => {
  repo = scratchRepo();
});
afterAll(() => rmSync(repo.root, { recursive: true, force: true }));

type HookAnswer = { hookSpecificOutput: { permissionDecision?: string; permissionDecisionReason?: string } };

async function hook(cwd: string, command: string, env: Record<string, string> = {}): Promise<HookAnswer> {
  const input = JSON.stringify({
    session_id: 'survive',
    transcript_path: '/dev/null',
    cwd,
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: 'toolu_1',
  });
  const r = await tollgate(['hook', 'claude-code'], { cwd, input, env });
  expect(r.code).toBe(0);
  return lastJson<HookAnswer>(r.stdout);
}

async function storeOf(cwd: string, env: Record<string, string> = {}): Promise<string> {
  return lastJson<{ store: string }>((await tollgate(['store', 'info', '--json'], { cwd, env })).stdout)
    .store;
}

/** A consistent copy of a live store file (WAL included). */
function snapshot(from: string, to: string): void {
  const db = new Sqlite(from);
  db.exec(`VACUUM INTO '${to}'`);
  db.close();
}

function removeStore(path: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
}

/** A project of its own: a git work tree with a config holding an operator token. */
function project(name: string): string {
  const dir = join(repo.root, name);
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  writeFileSync(join(dir, 'tollgate.config.yaml'), TOKENS);
  return dir;
}

describe('the store lives outside the project', () => {
  it('is not under the project, and git clean -fdx or rm -rf .tollgate leave it alone', async () => {
    const denied = await hook(repo.work, 'git push --force origin main');
    expect(denied.hookSpecificOutput.permissionDecisionReason).not.toContain('gate_unavailable');
    const store = await storeOf(repo.work);
    expect(store.startsWith(repo.work)).toBe(false);
    expect(store).toMatch(/tollgate-test-state-/);
    expect(existsSync(join(repo.work, '.tollgate'))).toBe(false);
    execFileSync('git', ['clean', '-fdxq'], { cwd: repo.work });
    rmSync(join(repo.work, '.tollgate'), { recursive: true, force: true });
    const again = await hook(repo.work, 'git push --force origin main');
    expect(again.hookSpecificOutput.permissionDecisionReason).not.toContain('gate_unavailable');
    const rows = JSON.parse((await tollgate(['audit', 'list', '--json'], { cwd: repo.work })).stdout);
    expect(rows.length).toBeGreaterThanOrEqual(2);
  });
});

describe('a pinned store that vanished or was replaced', () => {
  it('deleted after first use: the next gated call is gate_unavailable and no new store appears', async () => {
    const dir = project('vanish');
    await hook(dir, 'git push --force origin main');
    const store = await storeOf(dir);
    expect(existsSync(store)).toBe(true);
    removeStore(store);
    const denied = await hook(dir, 'git push --force origin main');
    expect(denied.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(denied.hookSpecificOutput.permissionDecisionReason).toMatch(/\[gate_unavailable\].*vanished/);
    const checked = await tollgate(['check', '--json', '--', 'git', 'push', '--force', 'origin', 'main'], {
      cwd: dir,
    });
    expect(checked.code).toBe(1);
    expect(lastJson(checked.stdout)).toMatchObject({
      error: { code: 'store_unavailable', fix: expect.stringContaining('tollgate store reset') },
    });
    expect(existsSync(store)).toBe(false);

    // Only a person resets it; then the gate works again, on a new, empty, pinned store.
    const refused = await tollgate(['store', 'reset', '--reason', 'disk replaced'], { cwd: dir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('operator-only');
    const reset = await tollgate(['store', 'reset', '--reason', 'disk replaced', '--json'], {
      cwd: dir,
      env: { TOLLGATE_OPERATOR_TOKEN: OPERATOR },
    });
    expect(reset.code).toBe(0);
    const done = lastJson<{ created: boolean; operator: string; log: string }>(reset.stdout);
    expect(done).toMatchObject({ created: true, operator: 'oncall' });
    const log = readFileSync(done.log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(log.slice(-2).map((r) => r.kind)).toEqual(['reset', 'anchor']);
    expect(log.at(-2)).toMatchObject({ reason: 'disk replaced', operator: 'oncall' });
    const after = await hook(dir, 'git push --force origin main');
    expect(after.hookSpecificOutput.permissionDecisionReason).not.toContain('gate_unavailable');
  });

  it('replaced by a fresh store at the same path: gate_unavailable', async () => {
    const dir = project('replace');
    await hook(dir, 'git push --force origin main');
    const store = await storeOf(dir);
    removeStore(store);
    await (await openStore(store)).close();
    const denied = await hook(dir, 'git push --force origin main');
    expect(denied.hookSpecificOutput.permissionDecisionReason).toMatch(/\[gate_unavailable\].*replaced/);
  });
});

describe('anchors: verify --against', () => {
  let dir: string;
  let store: string;
  const op = { TOLLGATE_OPERATOR_TOKEN: OPERATOR };
  const check = (n: number) =>
    tollgate(['check', '--session', 's', '--', 'git', 'push', '--force', 'origin', `b${n}`], { cwd: dir });
  const anchorFile = () => join(dir, '..', `${dir.split('/').at(-1)}.anchors.jsonl`);
  const verify = (against: string) =>
    tollgate(['audit', 'verify', '--json', '--against', against], { cwd: dir });

  beforeAll(async () => {
    dir = project('anchored');
    for (let i = 0; i < 6; i++) await check(i);
    store = await storeOf(dir);
  });

  it('anchors the head (a person only) and verifies against it', async () => {
    const refused = await tollgate(['audit', 'anchor'], { cwd: dir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('operator-only');
    const made = await tollgate(['audit', 'anchor', '--json', '--file', anchorFile()], { cwd: dir, env: op });
    expect(made.code).toBe(0);
    expect(lastJson(made.stdout)).toMatchObject({ anchor: { seq: 6, rows: 6, operator: 'oncall' } });
    await check(6); // more rows after the anchor are fine
    const ok = await verify(anchorFile());
    expect(ok.code).toBe(0);
    expect(lastJson(ok.stdout)).toMatchObject({ ok: true, anchor: { ok: true } });
    // The default place: the project's anchor log under the state directory.
    expect((await tollgate(['audit', 'anchor'], { cwd: dir, env: op })).code).toBe(0);
  });

  it('names an older copy of the store restored in place: rolled back, while plain verify passes', async () => {
    const older = `${store}.older`;
    snapshot(store, older);
    await check(7);
    expect((await tollgate(['audit', 'anchor', '--file', anchorFile()], { cwd: dir, env: op })).code).toBe(0);
    const current = `${store}.current`;
    snapshot(store, current);
    removeStore(store);
    copyFileSync(older, store);
    expect((await tollgate(['audit', 'verify'], { cwd: dir })).code).toBe(0);
    const failed = await verify(anchorFile());
    expect(failed.code).toBe(1);
    expect(lastJson(failed.stdout)).toMatchObject({
      ok: false,
      anchor: { ok: false, problem: 'rolled_back' },
    });
    const text = await tollgate(['audit', 'verify', '--against', anchorFile()], { cwd: dir });
    expect(text.stderr).toContain('rolled back');
    removeStore(store);
    copyFileSync(current, store);
    expect((await verify(anchorFile())).code).toBe(0);
  });

  it('names the newest rows deleted directly in SQLite: truncated', async () => {
    await check(8);
    expect((await tollgate(['audit', 'anchor', '--file', anchorFile()], { cwd: dir, env: op })).code).toBe(0);
    const backup = `${store}.before-truncate`;
    snapshot(store, backup);
    const db = new Sqlite(store);
    db.exec('DROP TRIGGER audit_no_delete; DELETE FROM audit WHERE seq > (SELECT max(seq) - 2 FROM audit)');
    db.close();
    const failed = await verify(anchorFile());
    expect(failed.code).toBe(1);
    expect(lastJson(failed.stdout)).toMatchObject({ anchor: { problem: 'truncated' } });
    removeStore(store);
    copyFileSync(backup, store);
  });

  it('names a row rewritten and the chain re-hashed after it (which plain verify passes): rewritten', async () => {
    expect((await tollgate(['audit', 'anchor', '--file', anchorFile()], { cwd: dir, env: op })).code).toBe(0);
    const backup = `${store}.before-rewrite`;
    snapshot(store, backup);
    const db = new Sqlite(store);
    db.exec('DROP TRIGGER audit_no_update');
    const rows = (db.prepare('SELECT doc FROM audit ORDER BY seq').pluck().all() as string[]).map(
      (d) => JSON.parse(d) as AuditRow,
    );
    // Move the third decision into another session, then re-chain every row from there on.
    let prev = rows[1]!.hash;
    const update = db.prepare('UPDATE audit SET session = ?, hash = ?, doc = ? WHERE seq = ?');
    for (const row of rows.slice(2)) {
      const { seq, prev_hash: _p, hash: _h, ...draft } = row;
      const rewritten = chainRow(seq === 3 ? { ...draft, session: 'elsewhere' } : draft, seq, prev);
      update.run(rewritten.session, rewritten.hash, JSON.stringify(rewritten), seq);
      prev = rewritten.hash;
    }
    db.prepare('UPDATE audit_head SET hash = ? WHERE id = 1').run(prev);
    db.close();
    expect((await tollgate(['audit', 'verify'], { cwd: dir })).code).toBe(0);
    const failed = await verify(anchorFile());
    expect(failed.code).toBe(1);
    expect(lastJson(failed.stdout)).toMatchObject({ ok: false, anchor: { problem: 'rewritten' } });
    removeStore(store);
    copyFileSync(backup, store);
  });

  it('names another store than the anchored one: replaced', async () => {
    // With another state directory the pin is not seen, so the swap reaches verify itself.
    const other = join(repo.root, 'other-state');
    removeStore(`${store}.swap`);
    await (await openStore(`${store}.swap`)).close();
    const failed = await tollgate(['audit', 'verify', '--json', '--against', anchorFile()], {
      cwd: dir,
      env: { TOLLGATE_STATE_DIR: other, TOLLGATE_DB: `${store}.swap` },
    });
    expect(failed.code).toBe(1);
    // The anchor file names the store by path, so a different path has no anchor at all.
    expect(lastJson(failed.stdout)).toMatchObject({ anchor: { ok: false, problem: 'missing' } });
    removeStore(store);
    await (await openStore(store)).close();
    const swapped = await tollgate(['audit', 'verify', '--json', '--against', anchorFile()], {
      cwd: dir,
      env: { TOLLGATE_STATE_DIR: other, TOLLGATE_DB: store },
    });
    expect(lastJson(swapped.stdout)).toMatchObject({ anchor: { ok: false, problem: 'replaced' } });
  });

  it('keeps anchors in a git ref of the project, one commit per anchor', async () => {
    const dir2 = project('git-anchored');
    await tollgate(['check', '--', 'git', 'push', '--force', 'origin', 'main'], { cwd: dir2 });
    const ref = 'refs/tollgate/anchors';
    for (let i = 0; i < 2; i++)
      expect((await tollgate(['audit', 'anchor', '--git-ref', ref], { cwd: dir2, env: op })).code).toBe(0);
    expect(git(dir2, 'rev-list', '--count', ref)).toBe('2');
    expect(JSON.parse(git(dir2, 'cat-file', 'blob', `${ref}:anchor.json`))).toMatchObject({
      kind: 'anchor',
      seq: 1,
    });
    expect((await tollgate(['audit', 'verify', '--against', `git:${ref}`], { cwd: dir2 })).code).toBe(0);
    expect(
      (await tollgate(['audit', 'verify', '--against', 'git:refs/tollgate/none'], { cwd: dir2 })).code,
    ).toBe(1);
  });
});

describe.skipIf(!hasScript || process.platform !== 'linux')('operator commands need a person', () => {
  /** The built CLI on a pseudo-terminal (script -qec), started by a parent running under `name`. */
  function ptyUnder(name: string, args: string[], cwd: string, env: Record<string, string> = {}) {
    const line = [process.execPath, BIN, ...args].map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ');
    const clean: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env))
      if (!k.startsWith('TOLLGATE_') && k !== 'CLAUDECODE') clean[k] = v;
    const r = spawnSync('bash', ['-c', `exec -a ${name} script -qec "$1" /dev/null`, 'bash', line], {
      cwd,
      env: { ...clean, ...env },
      encoding: 'utf8',
    });
    return { code: r.status ?? -1, out: r.stdout };
  }
  const grant = ['override', '--reason', 'x', '--ttl', '5m', '--session', 's', '--operator', 'me'];

  it('refuses override, audit anchor and store reset on a pty whose ancestor is an agent host', () => {
    const dir = join(repo.root, 'pty');
    mkdirSync(dir, { recursive: true });
    for (const args of [grant, ['audit', 'anchor'], ['store', 'reset', '--reason', 'x']]) {
      const r = ptyUnder('claude', args, dir);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.out, args.join(' ')).toMatch(/agent host runs this terminal \(Claude Code, pid \d+\)/);
    }
  });

  it('accepts the operator token wherever it runs', () => {
    const dir = project('pty-token');
    const r = ptyUnder('claude', grant.slice(0, -2), dir, { TOLLGATE_OPERATOR_TOKEN: OPERATOR });
    expect(r.out).toContain('by oncall');
    expect(r.code).toBe(0);
  });

  it.skipIf(underAgent)('accepts a pty no agent host runs', () => {
    const dir = join(repo.root, 'pty-person');
    mkdirSync(dir, { recursive: true });
    const r = ptyUnder('bash', grant, dir);
    expect(r.out).toContain('by me');
    expect(r.code).toBe(0);
    expect(ptyUnder('bash', ['audit', 'anchor'], dir).code).toBe(0);
  });
});
