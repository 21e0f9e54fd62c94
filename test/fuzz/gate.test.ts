// Fuzzing core's entry points (gate.check, recordObservation, recordPrediction, recordDecline,
// recordOutcome) on a real SQLite store with the shipped catalogues and the tests' rule file: calls and
// envelopes shaped like the real ones with hostile values, and arbitrary JSON. Properties: nothing
// throws but a structured fault; every verdict validates against its schema; a refusal carries reason
// codes from the catalogue; no outgoing text holds a control, bidi or line-separator character.
import { validate } from '@tollgate/contracts';
import { isFault, REASONS } from '@tollgate/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestGate, statusRead, type TestGate, TOOLS_POLICY } from '../support/gate.js';
import { anyText, forbiddenIn, holds, nastyJson, nastyString } from './support.js';

let t: TestGate;
beforeAll(async () => {
  t = await openTestGate({ policies: [TOOLS_POLICY, 'builtin:shell', 'builtin:mcp'] });
});
afterAll(() => t.close());

const tools = fc.constantFrom('shell', 'deploy', 'db_execute', 'release_status', 'Write', 'Bash', 'x');
const session = fc.oneof(fc.constantFrom('f1', 'f2'), anyText);
const source = fc.oneof(
  anyText,
  fc.record({ tool: fc.oneof(tools, anyText), args: fc.dictionary(anyText, nastyJson, { maxKeys: 3 }) }),
  fc.constant(statusRead),
);
const claim = fc.record(
  {
    subject: source,
    op: fc.oneof(fc.constantFrom('eq', 'contains', 'matches', 'lt', 'exists', 'absent'), anyText),
    value: nastyJson,
  },
  { requiredKeys: [] },
);
const evidence = fc.record({ source, observation: anyText, quote: anyText }, { requiredKeys: [] });
const prediction = fc.record(
  {
    claims: fc.array(claim, { maxLength: 3 }),
    evidence: fc.array(evidence, { maxLength: 3 }),
    rationale: anyText,
  },
  { requiredKeys: [] },
);
const decline = fc.record(
  {
    irreducible: anyText,
    would_change_my_mind: fc.array(anyText, { maxLength: 2 }),
    attempted_observations: fc.array(evidence, { maxLength: 2 }),
  },
  { requiredKeys: [] },
);
const envelope = fc.oneof(
  fc.constant(undefined),
  fc.record({ prediction }),
  fc.record({ decline }),
  nastyJson,
);
const args = fc.oneof(
  fc.record({ command: fc.oneof(anyText, nastyString(60)) }),
  fc.record({ service: anyText, env: fc.constantFrom('production', 'staging') }),
  fc.record({ sql: fc.oneof(anyText, fc.constant('DROP TABLE users')), table: anyText }),
  fc.dictionary(anyText, nastyJson, { maxKeys: 4 }),
);
const call = fc.oneof(
  { weight: 4, arbitrary: fc.record({ tool: tools, args, session }, { requiredKeys: ['tool'] }) },
  {
    weight: 1,
    arbitrary: fc.record({
      tool: tools,
      action: anyText,
      args,
      session,
      agent: anyText,
      directive: fc.record({ text: anyText, source: anyText }, { requiredKeys: [] }),
    }),
  },
  { weight: 1, arbitrary: nastyJson },
);

/** A fault is a structured error: a TollgateFault with a code, or the store's own (named, coded). */
function structuredFault(error: unknown): boolean {
  if (isFault(error)) return typeof error.code === 'string';
  return error instanceof Error && error.name === 'StoreFault' && 'code' in error;
}

describe('fuzz: gate entry points', () => {
  it('check answers every call and envelope with a valid verdict, reasons from the catalogue, clean text', async () => {
    await holds(
      'gate.check',
      fc.asyncProperty(call, envelope, fc.boolean(), async (c, env, dryRun) => {
        const verdict = await t.gate.check(c, { envelope: env, dryRun });
        const valid = validate('verdict', verdict);
        expect(valid.valid, JSON.stringify(valid)).toBe(true);
        if (verdict.outcome === 'rejected' || verdict.would_reject) {
          expect(verdict.reasons.length).toBeGreaterThan(0);
        }
        for (const r of verdict.reasons) expect(Object.keys(REASONS)).toContain(r.code);
        expect(forbiddenIn(verdict)).toBeUndefined();
      }),
      150,
    );
  });

  it('gives one call the same digest and classification whatever the order of its keys', async () => {
    const reorder = (value: unknown, flip: boolean): unknown => {
      if (Array.isArray(value)) return value.map((v) => reorder(v, flip));
      if (value === null || typeof value !== 'object') return value;
      const entries = Object.entries(value).map(([k, v]) => [k, reorder(v, flip)] as const);
      return Object.fromEntries(flip ? entries.reverse() : entries);
    };
    const plain = fc.record({ tool: tools, args, session: fc.constant('f3') });
    await holds(
      'gate key order',
      fc.asyncProperty(plain, async (c) => {
        const a = await t.gate.check(c, { dryRun: true });
        const b = await t.gate.check(reorder(c, true), { dryRun: true });
        expect({ digest: b.call_digest, class: b.class, rules: b.rules }).toEqual({
          digest: a.call_digest,
          class: a.class,
          rules: a.rules,
        });
      }),
      100,
    );
  });

  it('recordObservation, recordPrediction, recordDecline and recordOutcome answer or fault with a code', async () => {
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('observation' as const),
        input: fc.record(
          { session, source, output: anyText, recordedBy: anyText, attested: fc.boolean() },
          { requiredKeys: [] },
        ),
      }),
      fc.record({ kind: fc.constant('prediction' as const), call, doc: fc.oneof(prediction, nastyJson) }),
      fc.record({ kind: fc.constant('decline' as const), call, doc: fc.oneof(decline, nastyJson) }),
      fc.record({ kind: fc.constant('outcome' as const), id: anyText, doc: nastyJson }),
    );
    await holds(
      'gate.record*',
      fc.asyncProperty(op, async (o) => {
        try {
          if (o.kind === 'observation') {
            const seen = await t.gate.recordObservation(o.input as never);
            expect(validate('observation', seen).valid).toBe(true);
          } else if (o.kind === 'prediction' || o.kind === 'decline') {
            const filed =
              o.kind === 'prediction'
                ? await t.gate.recordPrediction(o.call, o.doc)
                : await t.gate.recordDecline(o.call, o.doc);
            if (!filed.ok) {
              expect(filed.reasons.length).toBeGreaterThan(0);
              for (const r of filed.reasons) expect(Object.keys(REASONS)).toContain(r.code);
              expect(forbiddenIn(filed.reasons)).toBeUndefined();
            }
          } else {
            await t.gate.recordOutcome(o.id, o.doc);
          }
        } catch (error) {
          expect(structuredFault(error), String((error as Error)?.stack ?? error)).toBe(true);
        }
      }),
      150,
    );
  });
});
