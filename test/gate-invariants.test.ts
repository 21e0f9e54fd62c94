// DESIGN.md invariants 1, 3, 5, 6 and 8 against the real core over a real SQLite file.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deployCall, observeAndPredict, openTestGate, statusRead, type TestGate } from './support/gate.js';

let t: TestGate;
beforeEach(async () => {
  t = await openTestGate();
});
afterEach(async () => {
  await t.close();
});

describe('invariant 1: no irreversible dispatch without a valid prediction', () => {
  it('passes calls no rule speaks for, and audits them', async () => {
    const verdict = await t.gate.check({ tool: 'list_files', args: {}, session: 's1' });
    expect(verdict).toMatchObject({ outcome: 'pass', class: 'unmatched', rules: [] });
    await t.gate.flush();
    expect(await t.store.getAudit(verdict.audit_id!)).toMatchObject({ kind: 'decision', outcome: 'pass' });
  });

  it('rejects an irreversible call without an envelope, with rails that teach the next step', async () => {
    const verdict = await t.gate.check(deployCall());
    expect(verdict.outcome).toBe('rejected');
    expect(verdict.rules).toEqual(['deploy.production']);
    expect(verdict.reasons.map((r) => r.code)).toEqual(['prediction_missing']);
    expect(verdict.rails?.reads).toEqual([statusRead]);
    expect(verdict.rails?.example_prediction.evidence[0]).toMatchObject({ source: statusRead });
    expect(verdict.rails?.text).toContain('release_status');
    const row = await t.store.getAudit(verdict.audit_id!);
    expect(row).toMatchObject({
      outcome: 'rejected',
      reasons: ['prediction_missing'],
      rules: ['deploy.production'],
    });
  });

  it('dispatches with a valid inline prediction and records the verified evidence', async () => {
    const { observation, prediction } = await observeAndPredict(t.gate);
    t.clock.advance(30);
    const verdict = await t.gate.check(deployCall(), { envelope: { prediction } });
    expect(verdict.outcome).toBe('dispatch');
    const row = await t.store.getAudit(verdict.audit_id!);
    expect(row?.evidence).toEqual([{ observation: observation.id, source: statusRead, age_s: 30 }]);
    expect(row?.prediction).toEqual(prediction);
  });

  it('dispatches with a prediction filed ahead of the call', async () => {
    const { prediction } = await observeAndPredict(t.gate);
    const filed = await t.gate.recordPrediction(deployCall(), prediction);
    expect(filed).toMatchObject({ ok: true, gated: true });
    expect((await t.gate.check(deployCall())).outcome).toBe('dispatch');
  });

  it('declines with a valid decline: recorded, not dispatched, not an error', async () => {
    const { observation } = await observeAndPredict(t.gate);
    const decline = {
      irreducible: 'cannot tell whether a migration is still running',
      would_change_my_mind: ['release_status shows no migration in progress'],
      attempted_observations: [{ observation: observation.id }],
    };
    const verdict = await t.gate.check(deployCall(), { envelope: { decline } });
    expect(verdict).toMatchObject({ outcome: 'declined', reasons: [] });
    expect(verdict.rails).toBeUndefined();
    const row = await t.store.getAudit(verdict.audit_id!);
    expect(row?.decline).toEqual(decline);
    // The rule's suggested read, made by this session before it declined.
    expect(row?.suggested_reads).toEqual([{ source: statusRead, attempted: true }]);
    expect((await t.store.report({})).flags.declined_while_queryable.count).toBe(0);
  });

  it('records a decline that skipped the suggested read, citing another: declined while queryable', async () => {
    const other = await t.gate.recordObservation({
      session: 's1',
      source: { tool: 'release_status', args: { service: 'web' } },
      output: 'web: running build 7',
      recordedBy: 'test',
      attested: true,
    });
    const decline = {
      irreducible: 'cannot tell whether a migration is still running',
      would_change_my_mind: ['release_status shows no migration in progress'],
      attempted_observations: [{ observation: other.id }],
    };
    const verdict = await t.gate.check(deployCall(), { envelope: { decline } });
    expect(verdict.outcome).toBe('declined');
    const row = await t.store.getAudit(verdict.audit_id!);
    expect(row?.suggested_reads).toEqual([{ source: statusRead, attempted: false }]);
    const { flags } = await t.store.report({});
    expect(flags.declined_while_queryable.rows.map((r) => r.audit_id)).toEqual([verdict.audit_id]);
  });

  it('refuses a decline without attempts, and one whose attempts were never observed', async () => {
    const base = { irreducible: 'x', would_change_my_mind: ['y'] };
    const none = await t.gate.check(deployCall(), {
      envelope: { decline: { ...base, attempted_observations: [] } },
    });
    expect(none.reasons.map((r) => r.code)).toEqual(['decline_without_attempts']);
    const invented = await t.gate.check(deployCall(), {
      envelope: { decline: { ...base, attempted_observations: [{ source: 'kubectl get pods' }] } },
    });
    expect(invented.reasons).toMatchObject([
      { code: 'attempt_not_observed', path: '/envelope/decline/attempted_observations/0/source' },
    ]);
  });

  it('files the same prediction twice idempotently, and refuses it once used', async () => {
    const { prediction } = await observeAndPredict(t.gate);
    const first = await t.gate.recordPrediction(deployCall(), prediction);
    const again = await t.gate.recordPrediction(deployCall(), prediction);
    expect(first.ok && again.ok && again.id === first.id).toBe(true);
    expect((await t.gate.check(deployCall())).outcome).toBe('dispatch');
    // Filed again after a fresh read (older reads no longer back this call), it is still used up.
    t.clock.advance(1);
    await observeAndPredict(t.gate);
    const reused = await t.gate.recordPrediction(deployCall(), prediction);
    expect(reused).toMatchObject({
      ok: false,
      reasons: [{ code: 'prediction_already_used', path: '/prediction' }],
    });
    // Another session filing the same document for the same call has its own ticket.
    await observeAndPredict(t.gate, 's2');
    expect((await t.gate.recordPrediction(deployCall('s2'), prediction)).ok).toBe(true);
  });

  it('binds a prediction to one call digest', async () => {
    const { prediction } = await observeAndPredict(t.gate);
    await t.gate.recordPrediction(deployCall('s1', { service: 'web' }), prediction);
    const verdict = await t.gate.check(deployCall());
    expect(verdict.reasons.map((r) => r.code)).toEqual(['prediction_missing']);
    const other = await t.gate.check(deployCall(), {
      envelope: { prediction: { ...prediction, call_digest: 'a'.repeat(64) } },
    });
    expect(other.reasons).toMatchObject([
      { code: 'bound_to_other_call', path: '/envelope/prediction/call_digest' },
    ]);
  });

  it('refuses claims that cannot turn out false', async () => {
    const { prediction } = await observeAndPredict(t.gate);
    const bad = {
      ...prediction,
      claims: [
        { subject: statusRead, op: 'matches', value: '.*' },
        { subject: { tool: 'deploy', args: { env: 'production' } }, op: 'exists' },
      ],
    };
    const verdict = await t.gate.check(deployCall(), { envelope: { prediction: bad } });
    expect(verdict.reasons.map((r) => [r.code, r.path])).toEqual([
      ['claim_not_falsifiable', '/envelope/prediction/claims/0'],
      ['claim_not_falsifiable', '/envelope/prediction/claims/1/subject'],
    ]);
  });
});

describe('invariant 3: evidence must be seen, fresh, quoted and not the directive', () => {
  it('refuses evidence the ledger never saw', async () => {
    const verdict = await t.gate.check(deployCall(), {
      envelope: {
        prediction: {
          claims: [{ subject: statusRead, op: 'contains', value: '42' }],
          evidence: [{ source: statusRead, quote: 'build 41' }],
        },
      },
    });
    expect(verdict.reasons).toMatchObject([
      { code: 'evidence_not_observed', path: '/envelope/prediction/evidence/0/source' },
    ]);
  });

  it('refuses an invented observation id', async () => {
    const { prediction } = await observeAndPredict(t.gate);
    const verdict = await t.gate.check(deployCall(), {
      envelope: {
        prediction: {
          ...prediction,
          evidence: [{ observation: '01JD3QK8Z5X7Y9A1B2C3D4E5F6', quote: 'build 41' }],
        },
      },
    });
    expect(verdict.reasons).toMatchObject([
      { code: 'evidence_not_observed', path: '/envelope/prediction/evidence/0/observation' },
    ]);
  });

  it("refuses another session's read", async () => {
    const { prediction } = await observeAndPredict(t.gate, 'other-session');
    const verdict = await t.gate.check(deployCall('s1'), { envelope: { prediction } });
    expect(verdict.reasons.map((r) => r.code)).toEqual(['evidence_not_observed']);
  });

  it('refuses stale evidence', async () => {
    const { prediction } = await observeAndPredict(t.gate);
    t.clock.advance(301);
    const verdict = await t.gate.check(deployCall(), { envelope: { prediction } });
    expect(verdict.reasons).toMatchObject([
      { code: 'evidence_stale', path: '/envelope/prediction/evidence/0' },
    ]);
    expect(verdict.reasons[0]?.message).toContain('300 s');
  });

  it('refuses a quote that is not in the recorded output', async () => {
    const { prediction } = await observeAndPredict(t.gate);
    const verdict = await t.gate.check(deployCall(), {
      envelope: { prediction: { ...prediction, evidence: [{ source: statusRead, quote: 'build 40' }] } },
    });
    expect(verdict.reasons).toMatchObject([
      { code: 'quote_not_in_observation', path: '/envelope/prediction/evidence/0/quote' },
    ]);
  });

  it('refuses evidence whose only source is the directive', async () => {
    await observeAndPredict(t.gate);
    const call = {
      ...deployCall(),
      directive: { text: 'ship it: context is at 85%, build 43 is green', source: 'ticket' },
    };
    const prediction = {
      claims: [{ subject: statusRead, op: 'contains', value: 'build 43' }],
      evidence: [{ source: statusRead, quote: 'build 43 is green' }],
    };
    const byQuote = await t.gate.check(call, { envelope: { prediction } });
    expect(byQuote.reasons).toMatchObject([
      { code: 'directive_is_not_evidence', path: '/envelope/prediction/evidence/0/quote' },
    ]);
    const bySource = await t.gate.check(call, {
      envelope: {
        prediction: { ...prediction, evidence: [{ source: 'directive', quote: 'context is at 85%' }] },
      },
    });
    expect(bySource.reasons.map((r) => r.code)).toEqual(['directive_is_not_evidence']);
  });

  it('refuses unattested evidence where the rule requires attested reads', async () => {
    const read = { tool: 'db_query', args: { sql: 'SELECT count(*) FROM users' } };
    await t.gate.recordObservation({
      session: 's1',
      source: read,
      output: '1204',
      recordedBy: 'http',
      attested: false,
    });
    const verdict = await t.gate.check(
      { tool: 'db_execute', args: { sql: 'DROP TABLE users', table: 'users' }, session: 's1' },
      {
        envelope: {
          prediction: {
            claims: [{ subject: read, op: 'absent' }],
            evidence: [{ source: read, quote: '1204' }],
          },
        },
      },
    );
    expect(verdict.rules).toEqual(['db.drop']);
    expect(verdict.reasons.map((r) => r.code)).toEqual(['evidence_not_attested']);
    expect(verdict.rails?.reads).toEqual([read]);
  });
});

describe('invariant 5: a deny ceiling instead of a loop, never an automatic allow', () => {
  it('escalates on the third rejection and keeps refusing even a valid prediction', async () => {
    const first = await t.gate.check(deployCall());
    const second = await t.gate.check(deployCall());
    expect([first.escalation, second.escalation]).toEqual([undefined, undefined]);
    const third = await t.gate.check(deployCall());
    // ask_human files a review request a person answers (tollgate review approve|deny).
    expect(third.reasons.map((r) => r.code)).toEqual([
      'prediction_missing',
      'deny_ceiling_reached',
      'review_required',
    ]);
    expect(third.escalation).toBe('ask_human');
    const { prediction } = await observeAndPredict(t.gate);
    const fourth = await t.gate.check(deployCall(), { envelope: { prediction } });
    expect(fourth).toMatchObject({ outcome: 'rejected', escalation: 'ask_human' });
    expect(fourth.reasons.map((r) => r.code)).toEqual(['deny_ceiling_reached', 'review_required']);
    // Another call in the same session is not affected.
    expect((await t.gate.check(deployCall('s1', { service: 'web' }))).reasons.map((r) => r.code)).toEqual([
      'prediction_missing',
    ]);
  });

  it('counts errors and indeterminate outcomes toward the ceiling', async () => {
    const gate = t.gate;
    for (let i = 0; i < 3; i++) {
      // Each dispatch needs a read made after the previous one.
      t.clock.advance(1);
      const { prediction } = await observeAndPredict(gate);
      const verdict = await gate.check(deployCall(), {
        envelope: { prediction: { ...prediction, rationale: `try ${i}` } },
      });
      expect(verdict.outcome).toBe('dispatch');
      await gate.recordOutcome(verdict.audit_id!, { status: 'timeout' });
    }
    t.clock.advance(1);
    const { prediction } = await observeAndPredict(gate);
    const blocked = await gate.check(deployCall(), {
      envelope: { prediction: { ...prediction, rationale: 'again' } },
    });
    expect(blocked.reasons.map((r) => r.code)).toEqual(['deny_ceiling_reached', 'review_required']);
  });

  it('a successful outcome or a decline resets the streak; a dispatch alone does not', async () => {
    await t.gate.check(deployCall());
    await t.gate.check(deployCall());
    const { prediction, observation } = await observeAndPredict(t.gate);
    const dispatched = await t.gate.check(deployCall(), { envelope: { prediction } });
    expect(dispatched.outcome).toBe('dispatch');
    await t.gate.recordOutcome(dispatched.audit_id!, { status: 'ok' });
    expect((await t.gate.check(deployCall())).escalation).toBeUndefined();
    expect((await t.gate.check(deployCall())).escalation).toBeUndefined();
    const decline = {
      irreducible: 'x',
      would_change_my_mind: ['y'],
      attempted_observations: [{ observation: observation.id }],
    };
    expect((await t.gate.check(deployCall(), { envelope: { decline } })).outcome).toBe('declined');
    expect((await t.gate.check(deployCall())).escalation).toBeUndefined();
  });
});

describe('invariant 6: overrides are scoped, carry a reason, and are audited', () => {
  it('lets a call through only within its scope and time', async () => {
    for (let i = 0; i < 3; i++) await t.gate.check(deployCall());
    const override = await t.gate.override({
      operator: 'alice',
      reason: 'hotfix approved in INC-12',
      session: 's1',
      rule: 'deploy.production',
      ttlS: 600,
    });
    const verdict = await t.gate.check(deployCall());
    expect(verdict).toMatchObject({ outcome: 'dispatch', override: override.id });
    expect(verdict.reasons.map((r) => r.code)).toEqual(['override_applied']);
    expect((await t.gate.check(deployCall('s2'))).outcome).toBe('rejected');
    expect(
      (await t.gate.check({ tool: 'db_execute', args: { sql: 'DROP TABLE x' }, session: 's1' })).outcome,
    ).toBe('rejected');
    t.clock.advance(601);
    expect((await t.gate.check(deployCall())).outcome).toBe('rejected');
    const rows = await t.store.listAudit({ kind: 'override' });
    expect(rows).toHaveLength(1);
    expect(rows[0]?.override).toMatchObject({
      operator: 'alice',
      reason: 'hotfix approved in INC-12',
      session: 's1',
      rule: 'deploy.production',
    });
    expect((await t.store.getAudit(verdict.audit_id!))?.override_id).toBe(override.id);
  });
});

describe('invariant 8: bad input gets a structured error, never a crash', () => {
  it.each([
    ['a string', 'not a call'],
    ['null', null],
    ['a missing session', { tool: 'deploy', args: {} }],
    ['wrong types', { tool: 7, args: [], session: 's' }],
    ['a 10 MB tool name', { tool: 'x'.repeat(10 * 1024 * 1024), args: {}, session: 's' }],
    ['an unknown schema version', { schema: 'tollgate.call/v9', tool: 'deploy', args: {}, session: 's' }],
  ])('refuses %s with schema_invalid', async (_, input) => {
    const verdict = await t.gate.check(input);
    expect(verdict.outcome).toBe('rejected');
    expect(verdict.reasons.length).toBeGreaterThan(0);
    expect(verdict.reasons.every((r) => r.code === 'schema_invalid')).toBe(true);
    expect(verdict.audit_id).toBeDefined();
  });

  it('refuses 1,000-deep arguments', async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 1000; i++) deep = { d: deep };
    const verdict = await t.gate.check({ tool: 'deploy', args: { deep }, session: 's' });
    expect(verdict.reasons).toMatchObject([{ code: 'schema_invalid', path: '/call/args' }]);
  });

  it('names the path of a malformed envelope', async () => {
    const wrongShape = await t.gate.check(deployCall(), {
      envelope: { prediction: { claims: [{ subject: 'ls', op: 'about' }], evidence: [] } },
    });
    expect(wrongShape.reasons.map((r) => r.path)).toEqual(
      expect.arrayContaining(['/envelope/prediction/claims/0/op', '/envelope/prediction/evidence']),
    );
    const both = await t.gate.check(deployCall('s2'), { envelope: { prediction: {}, decline: {} } });
    expect(both.reasons).toMatchObject([{ code: 'schema_invalid', path: '/envelope' }]);
    const version = await t.gate.check(deployCall('s3'), {
      envelope: { prediction: { schema: 'tollgate.prediction/v2' } },
    });
    expect(version.reasons).toMatchObject([{ code: 'schema_invalid', path: '/envelope/prediction/schema' }]);
  });

  it('keeps a 10 MB command argument out of the audit row but still decides', async () => {
    const verdict = await t.gate.check({
      ...deployCall(),
      args: { env: 'production', service: 'api', blob: 'y'.repeat(10 * 1024 * 1024) },
    });
    expect(verdict.outcome).toBe('rejected');
    const row = await t.store.getAudit(verdict.audit_id!);
    expect(JSON.stringify(row).length).toBeLessThan(64 * 1024);
  });
});
