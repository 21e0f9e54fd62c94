// What-if over history: the recorded calls classified again under a changed policy. A policy that adds
// a rule reports exactly the recorded calls it would gate; one that drops a rule, exactly the calls
// that would no longer be gated; dry looks are not calls.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { classify, loadPolicy, replayAudit } from '@tollgate/core';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { deployCall, openTestGate, type TestGate, TOOLS_POLICY } from './support/gate.js';

const STAGING_RULE = `schema: tollgate.policy/v1
rules:
  - id: deploy.staging
    description: staging deploys are shared too
    tool: deploy
    match:
      args:
        type: object
        required: [env]
        properties:
          env: { const: staging }
    class: irreversible
    severity: medium
    evidence:
      reads:
        - { tool: release_status, args: { service: "{{args.service}}" } }
`;

let t: TestGate;
beforeEach(async () => {
  t = await openTestGate();
});
afterEach(() => t.close());

async function history(): Promise<{ staging: string[]; production: string[] }> {
  const staging: string[] = [];
  const production: string[] = [];
  for (const service of ['api', 'web', 'jobs']) {
    const s = await t.gate.check(deployCall('s1', { env: 'staging', service }));
    staging.push(s.audit_id as string);
    const p = await t.gate.check(deployCall('s1', { service }));
    production.push(p.audit_id as string);
    await t.gate.check({ tool: 'release_status', args: { service }, session: 's1' });
  }
  await t.gate.check(deployCall('s1', { service: 'dry' }), { dryRun: true });
  await t.gate.flush();
  return { staging, production };
}

test('a policy that adds a rule reports exactly the calls it would gate', async () => {
  const { staging } = await history();
  const file = join(t.dir, 'staging.yaml');
  writeFileSync(file, STAGING_RULE);
  const policy = loadPolicy([TOOLS_POLICY, file]);
  const result = await replayAudit(t.store.exportAudit({}), (call) => classify(policy, call));
  expect(result.calls).toBe(9);
  expect(result.skipped).toBe(0);
  expect(result.newly_gated.count).toBe(3);
  expect(result.newly_gated.rows.map((r) => r.audit_id)).toEqual(staging);
  expect(result.newly_gated.rows[0]).toMatchObject({
    tool: 'deploy',
    outcome: 'pass',
    class_before: 'unmatched',
    class_after: 'irreversible',
    rules_before: [],
    rules_after: ['deploy.staging'],
  });
  expect(result.no_longer_gated.count).toBe(0);
  expect(result.rules_changed.count).toBe(0);
  expect(result.unchanged).toBe(6);
  expect(result.by_rule).toEqual({
    'deploy.staging': { matched_more: 3, matched_fewer: 0, newly_gated: 3, no_longer_gated: 0 },
  });
});

test('a policy without a rule reports the calls that would no longer be gated, within a window', async () => {
  const { production } = await history();
  const file = join(t.dir, 'no-deploy.yaml');
  const text = readFileSync(TOOLS_POLICY, 'utf8');
  // The fixture without its first rule (deploy.production): everything from the second rule on.
  writeFileSync(file, `schema: tollgate.policy/v1\nrules:\n${text.slice(text.indexOf('  - id: db.drop'))}`);
  const policy = loadPolicy([file]);
  const result = await replayAudit(t.store.exportAudit({}), (call) => classify(policy, call));
  expect(result.no_longer_gated.rows.map((r) => r.audit_id)).toEqual(production);
  expect(result.by_rule['deploy.production']).toEqual({
    matched_more: 0,
    matched_fewer: 3,
    newly_gated: 0,
    no_longer_gated: 3,
  });
  const none = await replayAudit(t.store.exportAudit({ since: t.clock.now() + 1 }), (call) =>
    classify(policy, call),
  );
  expect(none.calls).toBe(0);
});
