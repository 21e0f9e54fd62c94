// The report cases of the Store conformance suite: the seeded history of report-history.ts, and
// every figure of Store.report, ruleHistory and exportAudit checked exactly, on every store.
import type { AuditRow } from '@tollgate/contracts';
import type { AuditDraft, Store } from '@tollgate/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { hex64, newId } from './fixtures.js';
import { DAY, DROP, FORCE, type History, seedHistory, seedPerfunctory, T0, T5 } from './report-history.js';
import { FIRES_SCANNED } from './rule-history.js';

const ZERO_ENDED = { prediction: 0, decline: 0, override: 0, again: 0, nothing: 0 };

export function reportConformance(current: () => Store): void {
  describe('reports', () => {
    let store: Store;
    let h: History;
    beforeEach(async () => {
      store = current();
      h = await seedHistory(store);
    });
    const id = (n: number) => (h[n] as AuditRow).id;

    it('totals: outcome mix, rates, claims, accuracy, predictions and the Brier score', async () => {
      const r = await store.report({});
      expect(r.rows).toBe(17);
      expect(r.totals).toEqual({
        decisions: 13,
        by_outcome: { pass: 2, dispatch: 4, declined: 1, rejected: 6 },
        dry_runs: 1,
        would_reject: 1,
        escalations: 1,
        overrides: 1,
        rates: { decline: 0.0909, rejection: 0.5455, override: 0.0909, escalation: 0.0909 },
        claims: { matched: 2, mismatched: 1, unverifiable: 1 },
        accuracy: 0.6667,
        predictions: { observed: 3, all_matched: 0.3333, unverifiable: 0.3333 },
        brier: { score: 0.1367, claims: 3 },
      });
      expect(r.top_reasons).toEqual([
        { code: 'prediction_missing', count: 5 },
        { code: 'evidence_stale', count: 1 },
      ]);
    });

    it('per agent and per rule, outcome rows counted with their decision', async () => {
      const r = await store.report({});
      expect(Object.keys(r.by_agent)).toEqual(['(none)', 'alice', 'bob']);
      expect(r.by_agent.alice?.decisions).toBe(7);
      expect(r.by_agent.alice?.by_outcome).toEqual({ pass: 1, dispatch: 3, declined: 0, rejected: 3 });
      expect(r.by_agent.alice?.claims).toEqual({ matched: 2, mismatched: 1, unverifiable: 0 });
      expect(r.by_agent.bob?.by_outcome).toEqual({ pass: 1, dispatch: 0, declined: 1, rejected: 3 });
      expect(r.by_agent.bob?.rates.decline).toBe(0.25);
      expect(r.by_agent['(none)']?.claims).toEqual({ matched: 0, mismatched: 0, unverifiable: 1 });
      expect(r.by_rule[FORCE]?.by_outcome).toEqual({ pass: 1, dispatch: 3, declined: 0, rejected: 4 });
      expect(r.by_rule[FORCE]?.accuracy).toBe(0.6667);
      expect(r.by_rule[DROP]?.by_outcome).toEqual({ pass: 0, dispatch: 2, declined: 1, rejected: 3 });
    });

    it('rules: fires, last fired, and what each refusal ended in', async () => {
      const r = await store.report({});
      expect(r.rules.map((x) => [x.rule, x.fires, x.last_fired, x.refusals, x.ended])).toEqual([
        [DROP, 6, h[11]?.at, 3, { ...ZERO_ENDED, decline: 1, override: 1, nothing: 1 }],
        [FORCE, 8, h[16]?.at, 4, { ...ZERO_ENDED, prediction: 2, override: 1, nothing: 1 }],
      ]);
    });

    it('latency: evidence age, refusal → prediction, directive → action (median, p90)', async () => {
      const r = await store.report({});
      expect(r.latency).toEqual({
        evidence_age_s: { n: 3, median: 30, p90: 120 },
        rejection_to_prediction_s: { n: 2, median: 3, p90: 59 },
        directive_to_action_ms: { n: 2, median: 500, p90: 2000 },
      });
    });

    it('mismatches side by side, linked to their decision', async () => {
      const r = await store.report({});
      expect(r.mismatches).toEqual([
        {
          audit_id: id(3),
          outcome_id: id(4),
          link: `/v1/audit/${id(3)}`,
          at: h[4]?.at,
          session: 's1',
          agent: 'alice',
          tool: 'shell',
          rules: [FORCE],
          subject: 'git ls-remote origin',
          op: 'contains',
          predicted: 'f00d',
          observed: 'beef refs/heads/main',
          confidence: 0.6,
        },
      ]);
    });

    it('flags: perfunctory, declined while queryable, repeated', async () => {
      const { flags } = await store.report({});
      expect(flags.perfunctory.count).toBe(1);
      expect(flags.perfunctory.rows).toEqual([
        {
          audit_id: id(3),
          link: `/v1/audit/${id(3)}`,
          at: h[3]?.at,
          session: 's1',
          agent: 'alice',
          tool: 'shell',
          rules: [FORCE],
          seconds_after_rejection: 3,
        },
      ]);
      expect(flags.declined_while_queryable.count).toBe(1);
      expect(flags.declined_while_queryable.rows.map((x) => x.audit_id)).toEqual([id(6)]);
      expect(flags.repeated.count).toBe(1);
      expect(flags.repeated.rows.map((x) => [x.audit_id, x.rules])).toEqual([[id(7), [DROP]]]);
    });

    it('perfunctory, exactly: filed within 10 s of its refusal with no read since, or citing a read the rule does not accept', async () => {
      const p = await seedPerfunctory(store);
      const gaps = (f: { rows: { audit_id: string; seconds_after_rejection?: number }[] }) =>
        f.rows.map((r) => [r.audit_id, r.seconds_after_rejection ?? null]);
      const day5 = await store.report({ since: T5 });
      // Case 5 (refused, 2 s), 4 (unaccepted read, no refusal before), 3 (a directive and a result are
      // not reads), 1 (its ticket filed 4 s after, dispatched a minute after); not 2 (a read made in
      // between, though its evidence is older than the refusal) nor 6 (11 s).
      expect(day5.flags.perfunctory.count).toBe(4);
      expect(gaps(day5.flags.perfunctory)).toEqual([
        [p.predicted5?.id, 2],
        [p.predicted4?.id, null],
        [p.predicted3?.id, 3],
        [p.predicted1?.id, 4],
      ]);
      expect(day5.flags.repeated.count + day5.flags.declined_while_queryable.count).toBe(0);
      // From inside the day (its rows read raw, not from the day's rollups): cases 3, 4 and 5.
      const later = await store.report({ since: T5 + 150_000 });
      expect(later.flags.perfunctory.count).toBe(3);
      expect(gaps(later.flags.perfunctory).map(([id]) => id)).toEqual([
        p.predicted5?.id,
        p.predicted4?.id,
        p.predicted3?.id,
      ]);
      // The history before day 5 keeps its one perfunctory prediction (row 3).
      expect((await store.report({ until: T5 })).flags.perfunctory.count).toBe(1);
    });

    it('a series per UTC day, and groups by tool, session or day', async () => {
      const r = await store.report({ by: 'tool' });
      expect(r.series.map((d) => [d.key, d.decisions, d.by_outcome])).toEqual([
        ['2026-11-16', 6, { pass: 1, dispatch: 1, declined: 1, rejected: 3 }],
        ['2026-11-17', 4, { pass: 1, dispatch: 2, declined: 0, rejected: 1 }],
        ['2026-11-18', 3, { pass: 0, dispatch: 1, declined: 0, rejected: 2 }],
      ]);
      expect(r.groups?.map((g) => [g.key, g.decisions, g.claims.unverifiable])).toEqual([
        ['deploy', 1, 1],
        ['shell', 12, 0],
      ]);
      const bySession = await store.report({ by: 'session' });
      expect(bySession.groups?.map((g) => [g.key, g.decisions])).toEqual([
        ['s1', 3],
        ['s2', 4],
        ['s3', 2],
        ['s4', 1],
        ['s5', 1],
        ['s6', 2],
      ]);
      const byRule = await store.report({ by: 'rule' });
      expect(byRule.groups?.map((g) => g.key)).toEqual([DROP, FORCE]);
    });

    it('a window [since, until) and filters by agent and rule', async () => {
      const day1 = await store.report({ since: T0 + DAY, until: T0 + 2 * DAY });
      expect(day1.rows).toBe(5);
      expect(day1.totals.by_outcome).toEqual({ pass: 1, dispatch: 2, declined: 0, rejected: 1 });
      expect(day1.rules.find((x) => x.rule === DROP)?.ended).toEqual({ ...ZERO_ENDED, override: 1 });
      expect(day1.latency.evidence_age_s).toEqual({ n: 1, median: 120, p90: 120 });
      expect(day1.mismatches).toEqual([]);
      expect(day1.flags.perfunctory.count).toBe(0);

      const alice = await store.report({ agent: 'alice' });
      expect(alice.totals.decisions).toBe(7);
      expect(Object.keys(alice.by_agent)).toEqual(['alice']);
      const drop = await store.report({ rule: DROP });
      expect(drop.totals.by_outcome).toEqual({ pass: 0, dispatch: 2, declined: 1, rejected: 3 });
      expect(drop.totals.claims.unverifiable).toBe(1);
      expect((await store.report({ since: T0 + 10 * DAY })).totals.decisions).toBe(0);
    });

    it('lists at most `limit` mismatches and flagged rows', async () => {
      const r = await store.report({ limit: 0 });
      expect(r.mismatches).toEqual([]);
      expect(r.flags.repeated).toEqual({ count: 1, rows: [] });
    });

    it('lists the newest `limit` rows of each flag, every flag its own', async () => {
      // A second decline that tried no read, and the refusal of that call after it (repeated).
      const at = (n: number) => new Date(T0 + 2 * DAY + 100_000 + n * 1000).toISOString();
      const base = { kind: 'decision', session: 's7', agent: 'bob', tool: 'shell', mode: 'enforce' } as const;
      const call = hex64('D7');
      const [, declined, repeated] = await store.appendAudit([
        { ...base, id: newId(), at: at(0), call_digest: call, outcome: 'rejected', rules: [DROP] },
        {
          ...base,
          id: newId(),
          at: at(1),
          call_digest: call,
          outcome: 'declined',
          rules: [DROP],
          decline: {
            irreducible: 'no way to tell',
            would_change_my_mind: ['a dump'],
            attempted_observations: [],
          },
        },
        { ...base, id: newId(), at: at(2), call_digest: call, outcome: 'rejected', rules: [DROP] },
      ]);
      const one = (await store.report({ limit: 1 })).flags;
      expect(one.perfunctory.count).toBe(1);
      expect(one.perfunctory.rows.map((x) => [x.audit_id, x.seconds_after_rejection])).toEqual([[id(3), 3]]);
      expect(one.declined_while_queryable.count).toBe(2);
      expect(one.declined_while_queryable.rows.map((x) => x.audit_id)).toEqual([declined?.id]);
      expect(one.repeated.count).toBe(2);
      expect(one.repeated.rows.map((x) => x.audit_id)).toEqual([repeated?.id]);
      const all = (await store.report({})).flags;
      expect(all.declined_while_queryable.rows.map((x) => x.audit_id)).toEqual([declined?.id, id(6)]);
      expect(all.repeated.rows.map((x) => x.audit_id)).toEqual([repeated?.id, id(7)]);
      expect(all.repeated.rows[0]).not.toHaveProperty('seconds_after_rejection');
    });

    it('declined while queryable: a decline that made none of the reads its rules suggested', async () => {
      // A day of its own, so the rows above keep their counts. Cited attempts do not matter: the
      // question is whether the suggested read was made.
      const day = T0 + 30 * DAY;
      const at = (n: number) => new Date(day + 1000 + n * 1000).toISOString();
      const base = {
        kind: 'decision',
        session: 's30',
        agent: 'eve',
        tool: 'shell',
        mode: 'enforce',
      } as const;
      const decline = {
        irreducible: 'cannot tell',
        would_change_my_mind: ['a read'] as [string],
        attempted_observations: [],
      };
      const read = 'git ls-remote origin main';
      const [skipped, made, nothing] = await store.appendAudit([
        {
          ...base,
          id: newId(),
          at: at(0),
          call_digest: hex64('Q1'),
          outcome: 'declined',
          rules: [FORCE],
          decline,
          evidence: [{ observation: newId(), age_s: 3 }],
          suggested_reads: [{ source: read, attempted: false }],
        },
        {
          ...base,
          id: newId(),
          at: at(1),
          call_digest: hex64('Q2'),
          outcome: 'declined',
          rules: [FORCE],
          decline,
          suggested_reads: [
            { source: read, attempted: true },
            { source: 'git log -1 origin/main', attempted: false },
          ],
        },
        {
          ...base,
          id: newId(),
          at: at(2),
          call_digest: hex64('Q3'),
          outcome: 'declined',
          rules: [DROP],
          decline,
          suggested_reads: [],
        },
      ]);
      expect(made && nothing).toBeTruthy();
      // The whole day (from the day rollups) and a window inside it (from the rows) agree.
      for (const window of [
        { since: day, until: day + DAY },
        { since: day + 500, until: day + 10_000 },
      ]) {
        const flags = (await store.report(window)).flags;
        expect(flags.declined_while_queryable.count).toBe(1);
        expect(flags.declined_while_queryable.rows.map((x) => x.audit_id)).toEqual([skipped?.id]);
      }
    });

    it("a rule's recent record for the rails: fires since a time, newest mismatches", async () => {
      expect(await store.ruleHistory(FORCE, T0, 3)).toEqual({
        rule: FORCE,
        fires: 8,
        mismatches: [
          {
            audit_id: id(3),
            at: h[4]?.at,
            subject: 'git ls-remote origin',
            op: 'contains',
            predicted: 'f00d',
            observed: 'beef refs/heads/main',
          },
        ],
      });
      expect(await store.ruleHistory(FORCE, T0 + 2 * DAY, 3)).toMatchObject({ fires: 3 });
      expect(await store.ruleHistory(DROP, T0, 3)).toEqual({ rule: DROP, fires: 6, mismatches: [] });
      expect(await store.ruleHistory('nope', T0, 3)).toEqual({ rule: 'nope', fires: 0, mismatches: [] });
      // One agent's record only: bob never saw alice's mismatch.
      expect(await store.ruleHistory(FORCE, T0, 3, 'bob')).toEqual({ rule: FORCE, fires: 2, mismatches: [] });
      expect(await store.ruleHistory(FORCE, T0, 3, 'alice')).toMatchObject({
        fires: 6,
        mismatches: [{ audit_id: id(3) }],
      });
    });

    it('exports a window oldest first as the stored JSON, page by page', async () => {
      const docs: string[] = [];
      for await (const page of store.exportAudit({ since: T0 + DAY, until: T0 + 2 * DAY }))
        docs.push(...page);
      expect(docs.map((d) => (JSON.parse(d) as AuditRow).id)).toEqual([9, 10, 11, 12, 13].map(id));
      expect(JSON.parse(docs[0] as string)).toEqual(h[9]);
      const outcomes: string[] = [];
      for await (const page of store.exportAudit({ kind: 'outcome', agent: 'alice' })) outcomes.push(...page);
      expect(outcomes.map((d) => (JSON.parse(d) as AuditRow).id)).toEqual([id(4), id(17)]);
    });

    it("a busy rule's fires are counted up to a bound, and then said to be a lower bound", async () => {
      // Last: these rows would change the figures above. FIRES_SCANNED + 1 fires in a day of their
      // own, every third one carol's.
      const day = T0 + 40 * DAY;
      const rule = 'test.busy';
      const drafts: AuditDraft[] = Array.from({ length: FIRES_SCANNED + 1 }, (_, i) => ({
        kind: 'decision',
        id: newId(),
        at: new Date(day + i).toISOString(),
        session: 'busy',
        agent: i % 3 === 0 ? 'carol' : 'dave',
        tool: 'shell',
        call_digest: hex64(`B${i}`),
        mode: 'enforce',
        outcome: 'rejected',
        rules: [rule],
        reasons: ['prediction_missing'],
      }));
      await store.appendAudit(drafts);
      const all = await store.ruleHistory(rule, day, 3);
      expect(all).toEqual({ rule, fires: FIRES_SCANNED, fires_at_least: true, mismatches: [] });
      // Carol's among the newest FIRES_SCANNED (the oldest row, hers, is beyond them).
      const carols = drafts.slice(1).filter((d) => d.agent === 'carol').length;
      expect(await store.ruleHistory(rule, day, 3, 'carol')).toEqual({
        rule,
        fires: carols,
        fires_at_least: true,
        mismatches: [],
      });
      // A window that holds fewer than the bound is counted exactly.
      expect(await store.ruleHistory(rule, day + 1000, 3)).toEqual({
        rule,
        fires: FIRES_SCANNED + 1 - 1000,
        mismatches: [],
      });
    });
  });
}
