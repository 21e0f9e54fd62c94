// The other agent hosts end to end, one conformance suite over every host (Codex, Gemini CLI, Cursor,
// Copilot CLI): the host's own pre-tool JSON into the built `tollgate hook <host>`, the host's own
// decision shape out. A force-push in a scratch repository is refused with rails; a read passes and
// its post event is recorded; `tollgate predict` typed in the host's shell is filed under the host's
// session and the push then dispatches; bad input and a gate that cannot open are explicit denies.
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sourceKey } from '@tollgate/core';
import { openStore } from '@tollgate/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git, lastJson, scratchRepo, tollgate } from '../packages/cli/src/testing/harness.js';
import { DRIVERS, type HostDriver } from './support/host-drivers.js';

const PUSH = 'git push --force origin main';

describe.each(DRIVERS.map((d) => [d.host, d] as const))('tollgate hook %s', (_name, d: HostDriver) => {
  let repo: ReturnType<typeof scratchRepo>;
  let db: string;
  const session = `${d.host}-session-${Math.random().toString(36).slice(2, 8)}`;
  let n = 0;
  const ref = () => `${d.host}-call-${++n}`;
  beforeAll(() => {
    repo = scratchRepo();
    db = join(repo.root, 'store.db');
  });
  afterAll(() => rmSync(repo.root, { recursive: true, force: true }));

  const run = (doc: unknown, env: Record<string, string> = {}) =>
    tollgate(['hook', d.host], {
      cwd: repo.work,
      env: { TOLLGATE_DB: db, ...env },
      input: typeof doc === 'string' ? doc : JSON.stringify(doc),
    });
  const pre = async (command: string, id = ref()) =>
    d.readPre(await run(d.pre(session, repo.work, command, id)));
  const post = async (command: string, stdout: string, id = ref()) =>
    d.readPost(await run(d.post(session, repo.work, command, stdout, id)));
  const sh = (command: string) =>
    execFileSync('/bin/sh', ['-c', command], {
      cwd: repo.work,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '' },
    });
  const audit = async () =>
    JSON.parse(
      (
        await tollgate(['audit', 'list', '--json', '--session', session], {
          cwd: repo.work,
          env: { TOLLGATE_DB: db },
        })
      ).stdout,
    ) as {
      id: string;
      kind: string;
      outcome?: string;
      agent?: string;
    }[];

  let head: string;

  it('refuses the force-push with rails that name its own shell tool', async () => {
    const answer = await pre(PUSH);
    expect(answer.kind).toBe('deny');
    expect(answer.text).toContain('an automated gate you can satisfy');
    expect(answer.text).toContain('[prediction_missing]');
    expect(answer.text).toContain(
      `Then file a prediction through ${d.shellTool}: tollgate predict --for '${PUSH}'`,
    );
    const rows = await audit();
    expect(rows.find((r) => r.outcome === 'rejected')?.agent).toBe(d.host);
  });

  it('passes a read with no objection, and records it on the post event', async () => {
    const id = ref();
    expect((await pre('git rev-parse HEAD', id)).kind).toBe('pass');
    head = sh('git rev-parse HEAD').trim();
    const answer = await post('git rev-parse HEAD', `${head}\n`, id);
    const store = await openStore(db);
    try {
      const [obs] = await store.findObservationsBySource(session, sourceKey('git rev-parse HEAD'), 1);
      expect(obs?.excerpt).toContain(head);
      expect(obs?.agent).toBe(d.host);
      // Where the host carries context back to the model, the observation id is in it.
      if (d.postContext) expect(answer.text).toContain(`observation ${obs?.id}`);
    } finally {
      await store.close();
    }
  });

  it("files `tollgate predict` typed in the host's shell under the host's session; the push then dispatches", async () => {
    const doc = {
      claims: [{ subject: 'git ls-remote origin', op: 'contains', value: head }],
      evidence: [{ source: 'git rev-parse HEAD', quote: head }],
      rationale: 'remote main moves to my HEAD',
    };
    const filing = await pre(`tollgate predict --for '${PUSH}' --json-doc '${JSON.stringify(doc)}'`);
    // The host cannot rewrite the command: the hook filed it and says so, and the command did not run.
    expect(filing.kind).toBe('deny');
    expect(filing.text).toMatch(/ran your `tollgate predict` itself, bound to this .* session/);
    expect(filing.text).toMatch(/recorded prediction \w{26}/);
    expect(filing.text).toContain('retry the original call');

    const id = ref();
    const allowed = await pre(PUSH, id);
    expect(allowed.kind).toBe('pass');
    sh(`${PUSH} 2>&1`);
    expect(git(repo.remote, 'rev-parse', 'refs/heads/main')).toBe(head);
    const done = await post(PUSH, '', id);
    if (d.postContext) expect(done.text).toContain('claims matched 1, mismatched 0, unverifiable 0');
    const dispatch = (await audit()).find((r) => r.outcome === 'dispatch');
    expect(dispatch?.agent).toBe(d.host);
    const view = lastJson(
      (
        await tollgate(['audit', 'show', dispatch?.id ?? '', '--json'], {
          cwd: repo.work,
          env: { TOLLGATE_DB: db },
        })
      ).stdout,
    );
    expect(view.claims).toEqual([expect.objectContaining({ result: 'matched' })]);
  });

  it('bad input is an explicit deny in the host shape, naming the problem', async () => {
    const notJson = d.readPre(await run('this is not json'));
    expect(notJson.kind).toBe('deny');
    expect(notJson.text).toMatch(/could not read this hook call.*not valid JSON/);
    const empty = d.readPre(await run(''));
    expect(empty.kind).toBe('deny');
    // The event without its session: refused, not passed.
    const doc = d.pre(session, repo.work, 'ls', ref()) as Record<string, unknown>;
    for (const k of ['session_id', 'conversation_id', 'sessionId']) delete doc[k];
    const noSession = d.readPre(await run(doc));
    expect(noSession.kind).toBe('deny');
    expect(noSession.text).toMatch(/no usable "(session_id|conversation_id|sessionId)"/);
  });

  it('a gate that cannot open its store denies as gate_unavailable, in the host shape', async () => {
    const notADir = join(repo.root, 'plain-file');
    writeFileSync(notADir, 'x');
    const answer = d.readPre(
      await run(d.pre(session, repo.work, PUSH, ref()), { TOLLGATE_DB: join(notADir, 'store.db') }),
    );
    expect(answer.kind).toBe('deny');
    expect(answer.text).toContain('[gate_unavailable]');
  });
});

describe.each(DRIVERS.map((d) => [d.host, d] as const))(
  'tollgate hook %s: file writes, MCP tools, reviews',
  (_name, d: HostDriver) => {
    let repo: ReturnType<typeof scratchRepo>;
    const session = `${d.host}-tools-${Math.random().toString(36).slice(2, 8)}`;
    beforeAll(() => {
      repo = scratchRepo();
      writeFileSync(
        join(repo.work, 'tollgate.config.yaml'),
        `policies: [builtin:shell, builtin:mcp, ${join(import.meta.dirname, 'fixtures', 'review.policy.yaml')}]\n`,
      );
    });
    afterAll(() => rmSync(repo.root, { recursive: true, force: true }));
    const run = (doc: unknown) =>
      tollgate(['hook', d.host], {
        cwd: repo.work,
        env: { TOLLGATE_DB: join(repo.root, 'store.db') },
        input: JSON.stringify(doc),
      });

    it("refuses the host's own file write into .git/hooks, with the exact --tool filing line", async () => {
      const answer = d.readPre(
        await run(d.write(session, repo.work, join(repo.work, '.git', 'hooks', 'pre-push'), 'exit 0')),
      );
      expect(answer.kind).toBe('deny');
      expect(answer.text).toContain('fs.write.protected');
      expect(answer.text).toMatch(/tollgate predict --tool (Write|apply_patch) --args '\{/);
      expect(answer.text).toContain(`through ${d.shellTool}`);
    });

    it('passes an ordinary file write in the project', async () => {
      expect(
        d.readPre(await run(d.write(session, repo.work, join(repo.work, 'notes.txt'), 'hello'))).kind,
      ).toBe('pass');
    });

    it('a call that needs a person is a deny saying how a person approves it (no host here can ask)', async () => {
      if (!d.mcp) {
        // Copilot CLI's MCP tool names are not mapped (README): its tools reach the rules by their own name.
        const answer = d.readPre(
          await run({
            sessionId: session,
            cwd: repo.work,
            toolName: 'delete_entities',
            toolArgs: { entityNames: ['a'] },
          }),
        );
        expect(answer.kind).toBe('deny');
        expect(answer.text).toContain('tollgate review approve');
        return;
      }
      const answer = d.readPre(
        await run(d.mcp(session, repo.work, 'memory', 'delete_entities', { entityNames: ['alice'] })),
      );
      expect(answer.kind).toBe('deny');
      expect(answer.text).toContain('[review_required]');
      expect(answer.text).toContain('tollgate review approve');
      expect(answer.text).toContain(
        `tollgate predict --tool mcp__memory__delete_entities --args '{"entityNames":["alice"]}'`,
      );
    });
  },
);

describe('Cursor: a shell call seen by preToolUse and beforeShellExecution is decided once', () => {
  let repo: ReturnType<typeof scratchRepo>;
  const session = `cursor-once-${Math.random().toString(36).slice(2, 8)}`;
  beforeAll(() => {
    repo = scratchRepo();
  });
  afterAll(() => rmSync(repo.root, { recursive: true, force: true }));
  const env = () => ({ TOLLGATE_DB: join(repo.root, 'store.db') });
  const run = async (doc: unknown) =>
    lastJson(
      (await tollgate(['hook', 'cursor'], { cwd: repo.work, env: env(), input: JSON.stringify(doc) })).stdout,
    );
  const generic = (command: string) => ({
    conversation_id: session,
    generation_id: 'g',
    hook_event_name: 'preToolUse',
    tool_name: 'Shell',
    tool_input: { command },
    workspace_roots: [repo.work],
  });
  const shell = (command: string) => ({
    conversation_id: session,
    generation_id: 'g',
    hook_event_name: 'beforeShellExecution',
    command,
    cwd: repo.work,
  });

  it('files once and dispatches once: preToolUse leaves both to beforeShellExecution', async () => {
    const head = git(repo.work, 'rev-parse', 'HEAD');
    const read = JSON.stringify({
      ...shell('git rev-parse HEAD'),
      hook_event_name: 'afterShellExecution',
      output: `${head}\n`,
    });
    await tollgate(['hook', 'cursor'], { cwd: repo.work, env: env(), input: read });
    const doc = {
      claims: [{ subject: 'git ls-remote origin', op: 'contains', value: head }],
      evidence: [{ source: 'git rev-parse HEAD', quote: head }],
      rationale: 'remote main moves to my HEAD',
    };
    const filing = `tollgate predict --for '${PUSH}' --json-doc '${JSON.stringify(doc)}'`;
    expect(await run(generic(filing))).toEqual({ continue: true });
    expect(await run(shell(filing))).toMatchObject({
      permission: 'deny',
      agent_message: expect.stringMatching(/recorded prediction/),
    });
    expect(await run(generic(PUSH))).toEqual({ continue: true });
    expect(await run(shell(PUSH))).toMatchObject({
      continue: true,
      agent_message: expect.stringMatching(/prediction \w{26} accepted/),
    });
    const rows = JSON.parse(
      (await tollgate(['audit', 'list', '--json', '--session', session], { cwd: repo.work, env: env() }))
        .stdout,
    ) as { kind: string; outcome?: string }[];
    // One decision for the filing command and one for the push: the preToolUse events recorded none.
    expect(rows.filter((r) => r.kind === 'decision').map((r) => r.outcome)).toEqual(['pass', 'dispatch']);
  });
});
