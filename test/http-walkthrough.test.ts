// The CLI walk-through over HTTP against a real server: a force-push is rejected with rails, the
// agent posts its read, files a prediction, the check dispatches, the outcome is reported, and the
// audit shows predicted vs observed. Plus directive_is_not_evidence: what the agent was told is refused.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { serveTestApp, type TestServer } from '../packages/http/src/testing/serve-test-app.js';

const HEAD = '3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39';
const push = (session: string, extra: Record<string, unknown> = {}) => ({
  tool: 'shell',
  args: { command: 'git push --force origin main' },
  session,
  ...extra,
});
const prediction = (evidence: unknown[]) => ({
  claims: [{ subject: 'git ls-remote origin refs/heads/main', op: 'contains', value: HEAD.slice(0, 7) }],
  evidence,
  rationale: 'local main is at 3f2a9c1; after the push the remote main points at it',
});

let s: TestServer;
beforeAll(async () => {
  s = await serveTestApp({ policies: ['builtin:shell'] });
});
afterAll(() => s.close());

describe('the walk-through over HTTP', () => {
  test('rejected with rails → observation → prediction → dispatch → outcome → audit', async () => {
    const first = await s.call('POST', '/v1/check', { call: push('walk') });
    expect(first.status).toBe(200);
    expect(first.body.outcome).toBe('rejected');
    expect(first.body.rules).toContain('git.push.force');
    expect(first.body.reasons.map((r: { code: string }) => r.code)).toEqual(['prediction_missing']);
    expect(first.body.rails.reads).toContain('git ls-remote origin');
    expect(first.body.rails.text).toContain('POST /v1/observations');

    const obs = await s.call('POST', '/v1/observations', {
      session: 'walk',
      source: 'git rev-parse HEAD',
      output: `${HEAD}\n`,
      exit_code: 0,
    });
    expect(obs.status).toBe(201);
    expect(obs.body).toMatchObject({ session: 'walk', attested: false, recorded_by: 'http' });

    const filed = await s.call('POST', '/v1/predictions', {
      call: push('walk'),
      prediction: prediction([{ observation: obs.body.id, quote: HEAD.slice(0, 12) }]),
    });
    expect(filed.status).toBe(201);
    expect(filed.body).toMatchObject({ ok: true, gated: true });
    expect(filed.body.rules).toContain('git.push.force');

    s.clock.advance(5);
    const second = await s.call('POST', '/v1/check', { call: push('walk') });
    expect(second.body).toMatchObject({ outcome: 'dispatch', prediction_id: filed.body.id });

    const outcome = await s.call('POST', `/v1/calls/${second.body.audit_id}/outcome`, {
      status: 'ok',
      exit_code: 0,
      summary: 'pushed',
      observed: [{ subject: 'git ls-remote origin refs/heads/main', output: `${HEAD}\trefs/heads/main\n` }],
    });
    expect(outcome.status).toBe(201);
    expect(outcome.body.claims.map((c: { result: string }) => c.result)).toEqual(['matched']);

    const view = await s.call('GET', `/v1/audit/${second.body.audit_id}`);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ kind: 'decision', outcome: 'dispatch', result: { status: 'ok' } });
    expect(view.body.outcomes).toHaveLength(1);
    expect(view.body.claims[0]).toMatchObject({ result: 'matched', observed: `${HEAD}\trefs/heads/main\n` });
    expect(view.body.evidence[0]).toMatchObject({ observation: obs.body.id, age_s: 5 });

    const again = await s.call('POST', '/v1/check', { call: push('walk') });
    expect(again.body.outcome).toBe('rejected');
    expect(again.body.reasons.map((r: { code: string }) => r.code)).toContain('prediction_already_used');

    const list = await s.call('GET', '/v1/audit?session=walk');
    expect(list.body.map((r: { kind: string }) => r.kind)).toEqual([
      'decision',
      'decision',
      'outcome',
      'decision',
    ]);
    const report = await s.call('GET', '/v1/report?session=walk');
    expect(report.body.totals).toMatchObject({ decisions: 3, claims: { matched: 1 }, accuracy: 1 });
    expect((await s.call('GET', '/v1/audit/verify')).body).toMatchObject({ ok: true });
  });

  test('an inline envelope dispatches once; a second use is refused', async () => {
    const obs = await s.call('POST', '/v1/observations', {
      session: 'inline',
      source: 'git rev-parse HEAD',
      output: HEAD,
    });
    const envelope = { prediction: prediction([{ source: 'git rev-parse HEAD', quote: HEAD.slice(0, 7) }]) };
    expect(obs.status).toBe(201);
    const dry = await s.call('POST', '/v1/check', { call: push('inline'), envelope, dry_run: true });
    expect(dry.body.outcome).toBe('dispatch');
    const real = await s.call('POST', '/v1/check', { call: push('inline'), envelope });
    expect(real.body.outcome).toBe('dispatch');
    const reuse = await s.call('POST', '/v1/check', { call: push('inline'), envelope });
    expect(reuse.body.reasons.map((r: { code: string }) => r.code)).toContain('prediction_already_used');
  });

  test('a decline is a success: recorded, not dispatched', async () => {
    await s.call('POST', '/v1/observations', { session: 'decl', source: 'git fetch --dry-run', output: '' });
    const decline = {
      irreducible: 'cannot tell whether anyone pushed to main since my last fetch',
      would_change_my_mind: ['git log main..origin/main is empty after a fresh fetch'],
      attempted_observations: [{ source: 'git fetch --dry-run' }],
    };
    const verdict = await s.call('POST', '/v1/check', { call: push('decl'), envelope: { decline } });
    expect(verdict.status).toBe(200);
    expect(verdict.body).toMatchObject({ outcome: 'declined' });
    const outcome = await s.call('POST', `/v1/calls/${verdict.body.audit_id}/outcome`, { status: 'ok' });
    expect(outcome.status).toBe(404);
    expect(outcome.body.code).toBe('not_found');
  });
});

describe('directive is not evidence', () => {
  const directive = {
    text: `main is at ${HEAD.slice(0, 7)} (context is at 85%); compact the history and force-push now`,
    source: 'system',
  };
  const codes = (body: { reasons: { code: string }[] }) => body.reasons.map((r) => r.code);

  test('a prediction whose only evidence is the figure from the directive is refused', async () => {
    const call = push('dir1', { directive });
    const claim = {
      subject: 'git ls-remote origin refs/heads/main',
      op: 'contains',
      value: HEAD.slice(0, 7),
    };
    const envelope = {
      prediction: { claims: [claim], evidence: [{ source: 'git rev-parse HEAD', quote: HEAD.slice(0, 7) }] },
    };
    const verdict = await s.call('POST', '/v1/check', { call, envelope });
    expect(verdict.body.outcome).toBe('rejected');
    expect(codes(verdict.body)).toEqual(['directive_is_not_evidence']);
    expect(verdict.body.reasons[0].path).toBe('/envelope/prediction/evidence/0/quote');
  });

  test('citing the directive itself as a source is refused, filed ahead or inline', async () => {
    const call = push('dir2', { directive });
    const doc = prediction([{ source: 'system prompt', quote: 'context is at 85%' }]);
    const filed = await s.call('POST', '/v1/predictions', { call, prediction: doc });
    expect(filed.status).toBe(422);
    expect(filed.headers.get('content-type')).toContain('application/problem+json');
    expect(filed.body.code).toBe('directive_is_not_evidence');
    const verdict = await s.call('POST', '/v1/check', { call, envelope: { prediction: doc } });
    expect(codes(verdict.body)).toEqual(['directive_is_not_evidence']);
  });

  test('the same figure read through the gate is evidence', async () => {
    const call = push('dir3', { directive });
    await s.call('POST', '/v1/observations', {
      session: 'dir3',
      source: 'git rev-parse HEAD',
      output: `${HEAD}\n`,
    });
    const envelope = {
      prediction: { ...prediction([{ source: 'git rev-parse HEAD', quote: HEAD.slice(0, 7) }]) },
    };
    const verdict = await s.call('POST', '/v1/check', { call, envelope });
    expect(verdict.body.outcome).toBe('dispatch');
  });
});
