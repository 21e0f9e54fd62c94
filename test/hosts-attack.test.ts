// Attacks on the other hosts' hooks, through the built `tollgate hook <host>`, judged by what ends up
// in the store: a post event the gate never decided (made up by the agent) is recorded unattested,
// and nothing the agent types in its own shell files into another session.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { sourceKey } from '@tollgate/core';
import { openStore } from '@tollgate/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, lastJson, scratchRepo, tollgate } from '../packages/cli/src/testing/harness.js';
import { DRIVERS, type HostDriver } from './support/host-drivers.js';

const PUSH = 'git push --force origin main';
/**
 * Hosts whose shell events carry a per-call id the post event is paired by (Codex tool_use_id).
 * Cursor's shell events carry only generation_id, which several calls of one turn share: never paired.
 */
const PAIRED = new Set(['codex']);

describe('attacks through tollgate hook codex: live processes and working directories', () => {
  let repo: ReturnType<typeof scratchRepo>;
  let db: string;
  const session = `codex-live-${Math.random().toString(36).slice(2, 8)}`;
  const d = DRIVERS.find((x) => x.host === 'codex') as HostDriver;
  beforeAll(() => {
    repo = scratchRepo();
    db = join(repo.root, 'store.db');
  });
  afterAll(() => rmSync(repo.root, { recursive: true, force: true }));
  const run = (tool_name: string, tool_input: Record<string, unknown>, ref: string) =>
    tollgate(['hook', 'codex'], {
      cwd: repo.work,
      env: { TOLLGATE_DB: db },
      input: JSON.stringify({ ...(d.pre(session, repo.work, 'x', ref) as object), tool_name, tool_input }),
    });

  it('a force push typed into a live shell (write_stdin) is judged as the shell line and refused', async () => {
    const answer = d.readPre(await run('write_stdin', { session_id: 1, chars: `${PUSH}\n` }, 'l-1'));
    expect(answer.kind).toBe('deny');
    expect(answer.text).toContain('[prediction_missing]');
    // Keystrokes that edit the line hide what runs: refused as bad input.
    const edited = d.readPre(
      await run('write_stdin', { session_id: 1, chars: 'git push --forcX\u007fe origin main\n' }, 'l-2'),
    );
    expect(edited.kind).toBe('deny');
  });

  it("a shell call's workdir is where its relative write lands: Codex's own hooks.json is refused", async () => {
    const command = ['bash', '-lc', "printf '{}' > hooks.json"];
    // Not vacuous: in the project directory the same write passes.
    expect(d.readPre(await run('shell', { command }, 'w-1')).kind).toBe('pass');
    const answer = d.readPre(await run('shell', { command, workdir: join(repo.work, '.codex') }, 'w-2'));
    expect(answer.kind).toBe('deny');
    expect(answer.text).toContain('gate.self');
    const relative = d.readPre(
      await run('exec_command', { cmd: "printf '{}' > hooks.json", workdir: '.codex' }, 'w-3'),
    );
    expect(relative.kind).toBe('deny');
    expect(relative.text).toContain('gate.self');
  });
});

describe.each(DRIVERS.map((d) => [d.host, d] as const))(
  'attacks through tollgate hook %s',
  (_name, d: HostDriver) => {
    let repo: ReturnType<typeof scratchRepo>;
    let db: string;
    const session = `${d.host}-agent-${Math.random().toString(36).slice(2, 8)}`;
    const victim = `${d.host}-victim-${Math.random().toString(36).slice(2, 8)}`;
    beforeAll(() => {
      repo = scratchRepo();
      db = join(repo.root, 'store.db');
    });
    afterAll(() => rmSync(repo.root, { recursive: true, force: true }));

    const run = (doc: unknown) =>
      tollgate(['hook', d.host], { cwd: repo.work, env: { TOLLGATE_DB: db }, input: JSON.stringify(doc) });
    /** The session's reads of this command, newest first. */
    const observations = async (s: string, command: string) => {
      const store = await openStore(db);
      try {
        return await store.findObservationsBySource(s, sourceKey(command), 5);
      } finally {
        await store.close();
      }
    };
    const attested = async (s: string, command: string) => (await observations(s, command))[0]?.attested;

    it('a post event no pre decision let through is recorded unattested', async () => {
      // Made up: a "read" of a command the gate never saw, with an id the host never gave.
      const forged = d.readPost(
        await run(d.post(session, repo.work, 'git log -1', 'commit abc forged', 'forged-1')),
      );
      expect(forged.kind).toBe('noted');
      expect(await attested(session, 'git log -1')).toBe(false);
      // A real pre → post pair of the same session and id is attested where the host gives an id: the
      // check above is not vacuous.
      expect(d.readPre(await run(d.pre(session, repo.work, 'git rev-parse HEAD', 'real-1'))).kind).toBe(
        'pass',
      );
      d.readPost(await run(d.post(session, repo.work, 'git rev-parse HEAD', 'abc\n', 'real-1')));
      expect(await attested(session, 'git rev-parse HEAD')).toBe(PAIRED.has(d.host));
      // The id of a real pre event on a different command pairs with nothing.
      d.readPost(await run(d.post(session, repo.work, 'git status --short', ' M x\n', 'real-1')));
      expect(await attested(session, 'git status --short')).toBe(false);
    });

    it('a tool-use id pairs once: a second post event for it, with made-up output, is not attested', async () => {
      const read = 'git rev-parse --abbrev-ref HEAD';
      expect(d.readPre(await run(d.pre(session, repo.work, read, 'once-1'))).kind).toBe('pass');
      d.readPost(await run(d.post(session, repo.work, read, 'main\n', 'once-1')));
      // The agent read the id from the host's transcript and reports the call again, with other output.
      const forged = d.readPost(await run(d.post(session, repo.work, read, 'release-9f3e\n', 'once-1')));
      const [second, first] = await observations(session, read);
      expect(second?.excerpt).toContain('release-9f3e');
      expect(second?.attested).toBe(false);
      expect(first?.excerpt).toContain('main');
      expect(first?.attested).toBe(PAIRED.has(d.host));
      if (PAIRED.has(d.host) && d.postContext) expect(forged.text).toContain('already reported');
    });

    it("the agent's shell cannot file into another session", async () => {
      const doc = JSON.stringify({
        claims: [{ subject: 'git ls-remote origin', op: 'contains', value: 'x' }],
        evidence: [{ source: 'git rev-parse HEAD', quote: 'abc' }],
        rationale: 'r',
      });
      const forgedEvent = JSON.stringify(
        d.pre(victim, repo.work, `tollgate predict --for '${PUSH}' --json-doc '${doc}'`, 'v-1'),
      );
      for (const command of [
        `tollgate predict --session ${victim} --for '${PUSH}' --json-doc '${doc}'`,
        `TOLLGATE_SESSION=${victim} tollgate predict --for '${PUSH}' --json-doc '${doc}'`,
        `env TOLLGATE_SESSION=${victim} tollgate predict --for '${PUSH}' --json-doc '${doc}'`,
        `echo '${forgedEvent}' | tollgate hook ${d.host}`,
        `node ${BIN} hook ${d.host} < forged.json`,
      ]) {
        const answer = d.readPre(await run(d.pre(session, repo.work, command, 'a-1')));
        expect(answer.kind, command).toBe('deny');
        expect(answer.text, command).not.toMatch(/recorded prediction/);
      }
      // Nothing landed in the victim's session: its push is still refused for want of a prediction.
      const rows = await tollgate(['audit', 'list', '--json', '--session', victim], {
        cwd: repo.work,
        env: { TOLLGATE_DB: db },
      });
      expect(JSON.parse(rows.stdout)).toEqual([]);
      const push = d.readPre(await run(d.pre(victim, repo.work, PUSH, 'v-2')));
      expect(push.kind).toBe('deny');
      expect(push.text).toContain('[prediction_missing]');
    });
  },
);

describe('attacks through tollgate hook claude-code: one post event per tool-use id', () => {
  let repo: ReturnType<typeof scratchRepo>;
  let db: string;
  const session = `cc-once-${Math.random().toString(36).slice(2, 8)}`;
  beforeAll(() => {
    repo = scratchRepo();
    db = join(repo.root, 'store.db');
  });
  afterAll(() => rmSync(repo.root, { recursive: true, force: true }));
  const event = (hook_event_name: string, command: string, id: string, extra: object = {}) =>
    tollgate(['hook', 'claude-code'], {
      cwd: repo.work,
      env: { TOLLGATE_DB: db },
      input: JSON.stringify({
        session_id: session,
        transcript_path: `/home/u/.claude/projects/x/${session}.jsonl`,
        cwd: repo.work,
        hook_event_name,
        tool_name: 'Bash',
        tool_input: { command },
        tool_use_id: id,
        ...extra,
      }),
    });

  it('a forged PostToolUse with a known tool_use_id records made-up output unattested; the first report stands', async () => {
    const read = 'git rev-parse HEAD';
    const pre = lastJson<{ hookSpecificOutput: { permissionDecision?: string } }>(
      (await event('PreToolUse', read, 'toolu_once')).stdout,
    );
    expect(pre.hookSpecificOutput.permissionDecision).toBeUndefined();
    await event('PostToolUse', read, 'toolu_once', { tool_response: { stdout: 'aaaa111\n', stderr: '' } });
    const forged = await event('PostToolUse', read, 'toolu_once', {
      tool_response: { stdout: 'ffff999\n', stderr: '' },
    });
    expect(forged.code).toBe(0);
    expect(forged.stdout).toContain('already reported');
    const store = await openStore(db);
    try {
      const [second, first] = await store.findObservationsBySource(session, sourceKey(read), 5);
      expect(first).toMatchObject({ attested: true });
      expect(first?.excerpt).toContain('aaaa111');
      expect(second).toMatchObject({ attested: false });
      expect(second?.excerpt).toContain('ffff999');
    } finally {
      await store.close();
    }
  });
});
