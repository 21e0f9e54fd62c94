// Operator routes need an operator a token names, in every mode (issue 14): in open mode every
// loopback caller — the agent included — would otherwise grant itself an override.
import { afterAll, describe, expect, test } from 'vitest';
import { serveTestApp, type TestServer } from './testing/serve-test-app.js';

const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));
const body = { reason: 'let me through', ttl_s: 600, session: 's1' };

describe('POST /v1/overrides', () => {
  test('open mode refuses it, saying how to configure an operator token, and records nothing', async () => {
    const s = await serveTestApp();
    servers.push(s);
    const reply = await s.call('POST', '/v1/overrides', body);
    expect(reply.status).toBe(403);
    expect(reply.body).toMatchObject({ code: 'forbidden' });
    expect(reply.body.detail).toContain('open mode');
    expect(reply.body.detail).toContain('operator: true');
    expect(reply.body.detail).toContain('Authorization: Bearer');
    expect(await s.store.listAudit({ kind: 'override' })).toEqual([]);
    expect(await s.store.findOverrides('s1', [], 'x', Date.now())).toEqual([]);
  });

  test('with tokens, an operator token grants it and an agent token does not', async () => {
    const s = await serveTestApp({
      tokens: [
        { token: 'agent-secret-123456', agent: 'bot' },
        { token: 'ops-secret-1234567', agent: 'ops', operator: true },
      ],
    });
    servers.push(s);
    const as = (t: string) => ({ authorization: `Bearer ${t}` });
    expect((await s.call('POST', '/v1/overrides', body, as('agent-secret-123456'))).status).toBe(403);
    const granted = await s.call('POST', '/v1/overrides', body, as('ops-secret-1234567'));
    expect(granted.status).toBe(201);
    expect(granted.body).toMatchObject({ operator: 'ops', session: 's1' });
  });
});
