// POST /v1/hooks/{codex,gemini,cursor,copilot} against a real server: each host's own event in, its
// own answer out, always 200 — a refused push, a passing read recorded on its post event, a shell
// `tollgate predict` pointed at POST /v1/predictions (the service does not file from a shell), and a
// missing token or bad body as that host's deny.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sourceKey } from '@tollgate/core';
import { shellProbe } from '@tollgate/hooks';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Run } from '../packages/cli/src/testing/harness.js';
import { serveTestApp, type TestServer } from '../packages/http/src/testing/serve-test-app.js';
import { DRIVERS, type HostDriver } from './support/host-drivers.js';

const TOKEN = 'host-hook-cred-0123456789abcdef';
const work = mkdtempSync(join(tmpdir(), 'tollgate-hosts-http-'));
let s: TestServer;
beforeAll(async () => {
  execFileSync('git', ['init', '-q', '-b', 'main', work]);
  s = await serveTestApp({
    policies: ['builtin:shell'],
    tokens: [{ token: TOKEN, agent: 'laptop', hook: true }],
    hook: { probe: shellProbe, cwd: work, self: ['tollgate'] },
  });
});
afterAll(async () => {
  await s.close();
  rmSync(work, { recursive: true, force: true });
});

/** The HTTP answer as the command hook's stdout (a curl wrapper exits 2 on Codex's deny, README). */
const asRun = (d: HostDriver, body: unknown): Run => {
  const json = body as {
    hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string };
  };
  const codexDeny = d.host === 'codex' && json.hookSpecificOutput?.permissionDecision === 'deny';
  return {
    code: codexDeny ? 2 : 0,
    stdout: JSON.stringify(body),
    stderr: codexDeny ? String(json.hookSpecificOutput?.permissionDecisionReason) : '',
  };
};

describe.each(DRIVERS.map((d) => [d.host, d] as const))('POST /v1/hooks/%s', (_name, d) => {
  const session = `http-${d.host}`;
  const auth = { authorization: `Bearer ${TOKEN}` };
  const post = async (doc: unknown, headers: Record<string, string> = auth) => {
    const r = await s.call('POST', `/v1/hooks/${d.host}`, doc, headers);
    expect(r.status).toBe(200);
    return asRun(d, r.body);
  };

  test('refuses the force-push in the host shape, passes and records a read', async () => {
    const push = d.readPre(await post(d.pre(session, work, 'git push --force origin main', 'p1')));
    expect(push.kind).toBe('deny');
    expect(push.text).toContain('[prediction_missing]');
    expect(d.readPre(await post(d.pre(session, work, 'git status --short', 'r1'))).kind).toBe('pass');
    const read = d.readPost(await post(d.post(session, work, 'git status --short', ' M a\n', 'r1')));
    if (d.postContext) expect(read.text).toMatch(/recorded this read as observation \w{26}/);
  });

  test('a second post event for a tool-use id, with made-up output, is recorded unattested', async () => {
    const read = 'git rev-parse --abbrev-ref HEAD';
    expect(d.readPre(await post(d.pre(session, work, read, 'twice-1'))).kind).toBe('pass');
    d.readPost(await post(d.post(session, work, read, 'main\n', 'twice-1')));
    // With the hook token, the id read from the host's transcript, other output.
    d.readPost(await post(d.post(session, work, read, 'release-9f3e\n', 'twice-1')));
    const [second, first] = await s.store.findObservationsBySource(`laptop/${session}`, sourceKey(read), 5);
    expect(first?.excerpt).toContain('main');
    expect(first?.attested).toBe(d.host === 'codex');
    expect(second?.excerpt).toContain('release-9f3e');
    expect(second?.attested).toBe(false);
  });

  test('a shell `tollgate predict` is pointed at POST /v1/predictions, nothing filed', async () => {
    const answer = d.readPre(
      await post(d.pre(session, work, "tollgate predict --for 'git push -f' --json-doc '{}'", 'f1')),
    );
    expect(answer.kind).toBe('deny');
    expect(answer.text).toContain('POST /v1/predictions');
  });

  test('no token, or a body that is not the host event, is that host’s deny', async () => {
    const noToken = d.readPre(await post(d.pre(session, work, 'ls', 'n1'), {}));
    expect(noToken.kind).toBe('deny');
    expect(noToken.text).toContain('bearer token');
    const bad = d.readPre(await post({ nothing: true }));
    expect(bad.kind).toBe('deny');
    expect(bad.text).toContain('could not read this hook call');
  });
});
