// /metrics after real traffic: decisions by outcome, rule and reason, the check-latency histogram,
// request timings by route pattern; /healthz asks the store and reports when it cannot serve.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { deployCall } from '../../../test/support/gate.js';
import { serveTestApp, type TestServer } from './testing/serve-test-app.js';

let s: TestServer;
beforeAll(async () => {
  s = await serveTestApp();
});
afterAll(() => s.close());

test('decisions, reasons, latency and requests are counted', async () => {
  await s.call('POST', '/v1/check', { call: deployCall('m1') });
  await s.call('POST', '/v1/check', { call: { tool: 'list_files', args: {}, session: 'm1' } });
  await s.call('GET', '/v1/audit/01ARZ3NDEKTSV4RRFFQ69G5FAV');
  const r = await s.call('GET', '/metrics');
  expect(r.type).toContain('text/plain');
  const text: string = r.body;
  expect(text).toContain('tollgate_decisions_total{outcome="rejected",rule="deploy.production"} 1');
  expect(text).toContain('tollgate_decisions_total{outcome="pass",rule="none"} 1');
  expect(text).toContain('tollgate_decision_reasons_total{outcome="rejected",reason="prediction_missing"} 1');
  expect(text).toMatch(/tollgate_check_duration_seconds_count\{outcome="rejected"\} 1/);
  expect(text).toMatch(
    /tollgate_http_request_duration_seconds_count\{method="GET",route="\/v1\/audit\/:id",status="404"\} 1/,
  );
  expect(text).toContain('tollgate_audit_write_errors_total 0');
  expect(text).toContain('tollgate_ledger_write_errors_total 0');
});

test('the dashboard page is self-contained and locked down by its CSP', async () => {
  const r = await s.call('GET', '/');
  expect(r.type).toContain('text/html');
  expect(r.body).toContain('<table>');
  expect(r.body).not.toMatch(/<script src|<link /);
  expect(r.headers.get('content-security-policy')).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
});

test('healthz reports a store that cannot serve as 503', async () => {
  expect((await s.call('GET', '/healthz')).status).toBe(200);
  await s.store.close();
  const r = await s.call('GET', '/healthz');
  expect(r.status).toBe(503);
  expect(r.body).toEqual({ status: 'unavailable', detail: 'the store cannot serve' });
  const verdict = await s.call('POST', '/v1/check', { call: deployCall('m2') });
  expect(verdict.body.reasons.map((x: { code: string }) => x.code)).toEqual(['gate_unavailable']);
  const filed = await s.call('POST', '/v1/observations', { session: 'm2', source: 'ls', output: '' });
  expect(filed.status).toBe(503);
  expect((await s.call('GET', '/metrics')).body).toContain('tollgate_ledger_write_errors_total 1');
});
