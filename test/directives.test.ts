// Directives over HTTP (`call.directive`) and the CLI (--directive / TOLLGATE_DIRECTIVE): the audit
// row of the decision carries the directive in force and the directive → action latency, and a quote
// found only in the directive is directive_is_not_evidence.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lastJson, tollgate } from '../packages/cli/src/testing/harness.js';
import { serveTestApp, type TestServer } from '../packages/http/src/testing/serve-test-app.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('directives over HTTP', () => {
  it('call.directive rides on the row with its latency; quoting only it is refused', async () => {
    server = await serveTestApp();
    const told = new Date(server.clock.now() - 4_000).toISOString();
    const directive = { text: 'ship build 42 of api to production today', source: 'ticket', at: told };
    const call = { tool: 'deploy', args: { service: 'api', env: 'production' }, session: 'h1', directive };
    const reply = await server.call('POST', '/v1/check', {
      call,
      envelope: {
        prediction: {
          claims: [
            {
              subject: { tool: 'release_status', args: { service: 'api' } },
              op: 'contains',
              value: 'build 42',
            },
          ],
          evidence: [
            { source: { tool: 'release_status', args: { service: 'api' } }, quote: 'ship build 42 of api' },
          ],
        },
      },
    });
    const codes = (reply.body.reasons ?? reply.body.verdict?.reasons ?? []).map(
      (r: { code: string }) => r.code,
    );
    expect(codes).toContain('directive_is_not_evidence');
    await server.gate.flush();
    const rows = await server.store.listAudit({ session: 'h1' });
    const row = rows.find((r) => r.kind === 'decision');
    expect(row?.directive).toEqual(directive);
    expect(row?.directive_latency_ms).toBe(4_000);
  });
});

describe('directives from the CLI', () => {
  it('--directive and TOLLGATE_DIRECTIVE reach the audit row, with TOLLGATE_DIRECTIVE_AT for the latency', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-directive-'));
    try {
      writeFileSync(join(dir, 'tollgate.config.yaml'), 'mode: enforce\n');
      const env = { TOLLGATE_DB: join(dir, 'gate.db'), TOLLGATE_SESSION: 'c1' };
      const at = new Date(Date.now() - 60_000).toISOString();
      await tollgate(['check', '--json', '--directive', 'list the files', '--', 'ls'], {
        cwd: dir,
        env: { ...env, TOLLGATE_DIRECTIVE_AT: at },
      });
      await tollgate(['check', '--json', '--', 'git', 'status'], {
        cwd: dir,
        env: { ...env, TOLLGATE_DIRECTIVE: 'look at the tree' },
      });
      const listed = await tollgate(['audit', 'list', '--json', '--session', 'c1'], { cwd: dir, env });
      const rows = lastJson<
        { directive?: { text: string; source?: string }; directive_latency_ms?: number }[]
      >(listed.stdout);
      expect(rows.map((r) => r.directive?.text)).toEqual(['list the files', 'look at the tree']);
      expect(rows[0]?.directive?.source).toBe('--directive');
      expect(rows[0]?.directive_latency_ms).toBeGreaterThanOrEqual(60_000);
      expect(rows[1]?.directive_latency_ms).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
