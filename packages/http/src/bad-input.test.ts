// Bad input over a real socket: each gets a structured problem naming what is wrong, and the server
// keeps serving afterwards (every test ends by asking /healthz).
import { connect } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { serveTestApp, type TestServer } from './testing/serve-test-app.js';

let s: TestServer;
beforeAll(async () => {
  s = await serveTestApp();
});
afterEach(async () => {
  expect((await s.call('GET', '/healthz')).body).toEqual({ status: 'ok' });
});
afterAll(() => s.close());

const problem = (
  r: { status: number; type: string; body: { code: string; status: number } },
  status: number,
  code: string,
) => {
  expect(r.status).toBe(status);
  expect(r.type).toContain('application/problem+json');
  expect(r.body).toMatchObject({ status, code });
};

/** Writes raw bytes on a socket and returns whatever comes back before the server or timeout closes it. */
function raw(bytes: string | Buffer, endAfterWrite = true): Promise<string> {
  const { port } = new URL(s.url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1');
    let out = '';
    socket.on('data', (d) => {
      out += d.toString();
    });
    socket.on('close', () => resolve(out));
    socket.on('error', () => resolve(out));
    socket.write(bytes);
    if (endAfterWrite) socket.end();
    setTimeout(() => socket.destroy(), 1500);
  });
}

describe('content types', () => {
  test.each([
    ['text/plain', 415],
    ['application/x-www-form-urlencoded', 415],
    ['multipart/form-data; boundary=x', 415],
  ])('%s → %i', async (type, status) => {
    problem(
      await s.call('POST', '/v1/check', '{"call":{}}', { 'content-type': type }),
      status,
      'unsupported_media_type',
    );
  });

  test('no content type → 415; application/json with charset and +json types are fine', async () => {
    const res = await fetch(`${s.url}/v1/check`, { method: 'POST', body: new Uint8Array([123, 125]) });
    expect(res.status).toBe(415);
    for (const type of ['application/json; charset=utf-8', 'application/vnd.tollgate+json'])
      expect(
        (
          await s.call(
            'POST',
            '/v1/check',
            { call: { tool: 'x', args: {}, session: 's' } },
            { 'content-type': type },
          )
        ).status,
      ).toBe(200);
  });
});

describe('bodies', () => {
  test('malformed JSON → 400 naming the position', async () => {
    const r = await s.call('POST', '/v1/check', '{"call": {"tool": "x",, }}');
    problem(r, 400, 'input_malformed_json');
    expect(r.body.position).toBe(22);
    expect(r.body.detail).toContain('position 22');
  });

  test('truncated JSON, empty body, invalid UTF-8 → 400', async () => {
    problem(await s.call('POST', '/v1/check', '{"call": {"tool": "sh'), 400, 'input_malformed_json');
    problem(await s.call('POST', '/v1/check', ''), 400, 'input_malformed_json');
    const res = await fetch(`${s.url}/v1/observations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('input_invalid_utf8');
  });

  test('a body cut off mid-stream (Content-Length larger than sent) does not hurt the server', async () => {
    const head = `POST /v1/check HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n`;
    await raw(`${head}{"call": {"tool"`);
    const garbage = await raw('NOT HTTP AT ALL\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1.1 400/);
  });

  test('over 1 MB → 413, by Content-Length and when streamed without one', async () => {
    const big = JSON.stringify({ call: { tool: 'x', args: { pad: 'a'.repeat(1024 * 1024) }, session: 's' } });
    problem(await s.call('POST', '/v1/check', big), 413, 'input_too_large');
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 20; i++) controller.enqueue(new TextEncoder().encode(' '.repeat(100_000)));
        controller.close();
      },
    });
    const res = await fetch(`${s.url}/v1/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
  });

  test('deeply nested JSON → 400 input_too_deep, before parsing', async () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    problem(await s.call('POST', '/v1/check', deep), 400, 'input_too_deep');
    const nested = (n: number) =>
      `{"call": {"tool": "x", "session": "s", "args": ${'{"a":'.repeat(n)}1${'}'.repeat(n)}}}`;
    problem(await s.call('POST', '/v1/check', nested(70)), 400, 'input_too_deep');
    expect((await s.call('POST', '/v1/check', nested(60))).body.outcome).toBe('pass');
  });

  test('wrong shapes → 422 with every problem and its path', async () => {
    const r = await s.call('POST', '/v1/check', { call: {}, dry_run: 'yes', extra: 1 });
    problem(r, 422, 'request_invalid');
    expect(r.body.problems.map((p: { path: string }) => p.path).sort()).toEqual(['/dry_run', '/extra']);
    problem(await s.call('POST', '/v1/check', []), 422, 'request_invalid');
    problem(
      await s.call('POST', '/v1/observations', { session: 's', source: 42, output: 'x' }),
      422,
      'request_invalid',
    );
    problem(
      await s.call('POST', '/v1/predictions', { call: { tool: 'deploy', args: {}, session: 's' } }),
      422,
      'request_invalid',
    );
  });

  test('a call that is not a call is a rejected verdict (core refuses and audits it)', async () => {
    const r = await s.call('POST', '/v1/check', { call: { tool: '', args: 'no', session: 's' } });
    expect(r.status).toBe(200);
    expect(r.body.outcome).toBe('rejected');
    expect(r.body.reasons.every((x: { code: string }) => x.code === 'schema_invalid')).toBe(true);
    expect(r.body.audit_id).toBeTruthy();
  });
});

describe('routes, methods, ids, queries', () => {
  test('unknown routes → 404 and wrong methods → 405 with Allow, as problems', async () => {
    problem(await s.call('GET', '/v2/check'), 404, 'route_not_found');
    problem(await s.call('GET', '/v1/audit/01ARZ3NDEKTSV4RRFFQ69G5FAV/extra'), 404, 'route_not_found');
    const r = await s.call('GET', '/v1/check');
    problem(r, 405, 'method_not_allowed');
    expect(r.headers.get('allow')).toBe('POST');
    const d = await s.call('DELETE', '/v1/audit/01ARZ3NDEKTSV4RRFFQ69G5FAV');
    problem(d, 405, 'method_not_allowed');
    expect(d.headers.get('allow')).toBe('GET, HEAD');
    problem(
      await s.call('PUT', '/v1/calls/01ARZ3NDEKTSV4RRFFQ69G5FAV/outcome', { status: 'ok' }),
      405,
      'method_not_allowed',
    );
  });

  test('invalid and unknown ids', async () => {
    for (const id of ['nope', '01ARZ3NDEKTSV4RRFFQ69G5FA', '01arz3ndektsv4rrffq69g5fav', '%00', '..%2Fetc'])
      problem(await s.call('GET', `/v1/audit/${id}`), 400, 'invalid_id');
    problem(await s.call('GET', '/v1/audit/01ARZ3NDEKTSV4RRFFQ69G5FAV'), 404, 'not_found');
    problem(await s.call('POST', '/v1/calls/xyz/outcome', { status: 'ok' }), 400, 'invalid_id');
    problem(
      await s.call('POST', '/v1/calls/01ARZ3NDEKTSV4RRFFQ69G5FAV/outcome', { status: 'ok' }),
      404,
      'not_found',
    );
    problem(
      await s.call('POST', '/v1/calls/01ARZ3NDEKTSV4RRFFQ69G5FAV/outcome', { status: 'fine' }),
      422,
      'request_invalid',
    );
  });

  test('bad audit queries → 422 naming the parameter', async () => {
    for (const q of ['limit=0', 'limit=1001', 'limit=abc', 'limit=1.5', 'since=yesterday', 'session='])
      problem(await s.call('GET', `/v1/audit?${q}`), 422, 'request_invalid');
    expect((await s.call('GET', '/v1/audit?limit=5&since=2026-01-01T00:00:00Z')).status).toBe(200);
    expect((await s.call('GET', '/v1/audit?since=1700000000000')).status).toBe(200);
  });
});
