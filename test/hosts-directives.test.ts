// Directives from every host (issue 10): each host's own prompt event (Codex UserPromptSubmit,
// Gemini CLI BeforeAgent, Cursor beforeSubmitPrompt, Copilot CLI userPromptSubmitted) into the built
// `tollgate hook <host>` is recorded as the session's directive exactly as Claude Code's is: it rides
// on the session's later calls (the audit row shows it), and a prediction whose evidence quote is
// found only in it is refused as directive_is_not_evidence. A prompt event never blocks the turn, not
// even when it cannot be read; a session start tells the agent the gate is on where the host can.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchRepo, tollgate } from '../packages/cli/src/testing/harness.js';
import { DRIVERS, type HostDriver } from './support/host-drivers.js';

const PUSH = 'git push --force origin main';
const PROMPT = 'Deploy now: the release tag is v9.8.7-gold and main is green.';

describe.each(DRIVERS.map((d) => [d.host, d] as const))('directives from %s', (_name, d: HostDriver) => {
  let repo: ReturnType<typeof scratchRepo>;
  let db: string;
  const session = `${d.host}-directive-${Math.random().toString(36).slice(2, 8)}`;
  beforeAll(() => {
    repo = scratchRepo();
    db = join(repo.root, 'store.db');
  });
  afterAll(() => rmSync(repo.root, { recursive: true, force: true }));

  const run = (doc: unknown) =>
    tollgate(['hook', d.host], {
      cwd: repo.work,
      env: { TOLLGATE_DB: db },
      input: JSON.stringify(doc),
    });
  const audit = async (s = session) =>
    JSON.parse(
      (
        await tollgate(['audit', 'list', '--json', '--session', s], {
          cwd: repo.work,
          env: { TOLLGATE_DB: db },
        })
      ).stdout,
    ) as { tool?: string; outcome?: string; agent?: string; directive?: { text: string; source?: string } }[];

  it('a session start is answered without blocking, with the brief where the host carries context', async () => {
    if (!d.start) return;
    const answer = d.readSession(await run(d.start(session, repo.work)));
    if (d.host !== 'cursor') expect(answer.text).toContain('Tollgate is on');
  });

  it('the prompt is the directive: it rides on the next call, and quoting only it is directive_is_not_evidence', async () => {
    d.readSession(await run(d.prompt(session, repo.work, PROMPT)));
    const doc = {
      claims: [{ subject: 'git ls-remote origin refs/heads/main', op: 'contains', value: 'v9.8.7-gold' }],
      evidence: [{ source: 'git ls-remote origin', quote: 'v9.8.7-gold and main is green' }],
      rationale: 'the user said so',
    };
    const filing = d.readPre(
      await run(
        d.pre(
          session,
          repo.work,
          `tollgate predict --for '${PUSH}' --json-doc '${JSON.stringify(doc)}'`,
          'p1',
        ),
      ),
    );
    expect(filing.kind).toBe('deny');
    expect(filing.text).toContain('directive_is_not_evidence');
    // Nothing was filed, so the push stays refused; its audit row carries the directive in force.
    const push = d.readPre(await run(d.pre(session, repo.work, PUSH, 'p2')));
    expect(push.kind).toBe('deny');
    const row = (await audit()).filter((r) => r.tool === 'shell' && r.outcome === 'rejected').at(-1);
    expect(row?.agent).toBe(d.host);
    expect(row?.directive?.text).toBe(PROMPT);
  });

  it('a later prompt replaces the directive in force; another session has none', async () => {
    d.readSession(await run(d.prompt(session, repo.work, 'now just look around')));
    expect(d.readPre(await run(d.pre(session, repo.work, PUSH, 'p3'))).kind).toBe('deny');
    const rows = (await audit()).filter((r) => r.tool === 'shell' && r.outcome === 'rejected');
    expect(rows.at(-1)?.directive?.text).toBe('now just look around');
    const other = `${session}-other`;
    expect(d.readPre(await run(d.pre(other, repo.work, PUSH, 'p4'))).kind).toBe('deny');
    expect((await audit(other)).find((r) => r.tool === 'shell')?.directive).toBeUndefined();
  });

  it('a prompt event whose prompt is not a string does not block the turn, and records nothing', async () => {
    const doc = d.prompt(`${session}-bad`, repo.work, 'x') as Record<string, unknown>;
    doc.prompt = 42;
    d.readSession(await run(doc));
    expect(await audit(`${session}-bad`)).toEqual([]);
  });
});
