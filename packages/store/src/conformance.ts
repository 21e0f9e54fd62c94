// The Store conformance suite: every implementation of core's Store port runs these same tests
// against a real database. A target gives a fresh, empty store plus a second connection for raw SQL,
// so tampering is done the way an attacker with file or database access would do it.

import type { Observation } from '@tollgate/contracts';
import type { DispatchRecord, LedgerWindow, Store } from '@tollgate/core';
import { GENESIS_HASH, rowHash } from '@tollgate/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  decline,
  declineDoc,
  draft,
  newId,
  observation,
  override,
  prediction,
  predictionDoc,
} from './fixtures.js';
import { reportConformance } from './report-conformance.js';
import { reviewConformance } from './review-conformance.js';
import { usageConformance } from './usage-conformance.js';

export interface ConformanceTarget {
  store: Store;
  /** Runs SQL on a separate connection, as is. */
  raw(sql: string): Promise<void>;
  /** Runs SQL on a separate connection after removing the audit table's append-only guard. */
  tamper(sql: string): Promise<void>;
  dispose(): Promise<void>;
}

/** One window of each kind, through the port's only ledger read. */
const recentObservations = async (store: Store, session: string, query: LedgerWindow) =>
  (await store.ledgerWindows(session, [{ kind: 'observed', query }]))[0] as Observation[];
const recentDispatches = async (store: Store, session: string, query: LedgerWindow) =>
  (await store.ledgerWindows(session, [{ kind: 'dispatched', query }]))[0] as DispatchRecord[];

export function runStoreConformance(name: string, open: () => Promise<ConformanceTarget>): void {
  describe(`Store conformance: ${name}`, () => {
    let t: ConformanceTarget;
    let store: Store;
    beforeEach(async () => {
      t = await open();
      store = t.store;
    });
    afterEach(async () => {
      await t.dispose();
    });

    reportConformance(() => store);
    usageConformance(() => store);
    reviewConformance(() => store);

    describe('observations', () => {
      it('stores an observation and reads it back by session and id', async () => {
        const o = observation('s1', 'git rev-parse HEAD', 1_700_000_000_000, { exit_code: 0, agent: 'a1' });
        await store.insertObservation(o);
        expect(await store.getObservation('s1', o.id)).toEqual(o);
        expect(await store.getObservation('s2', o.id)).toBeUndefined();
        expect(await store.getObservation('s1', 'NOPE')).toBeUndefined();
      });

      it('finds by source key, newest first, within the session, up to the limit', async () => {
        const base = 1_700_000_000_000;
        const older = observation('s1', 'ls', base);
        const newest = observation('s1', 'ls', base + 2000);
        const middle = observation('s1', 'ls', base + 1000);
        for (const o of [
          older,
          newest,
          middle,
          observation('s2', 'ls', base + 5000),
          observation('s1', 'pwd', base),
        ]) {
          await store.insertObservation(o);
        }
        const found = await store.findObservationsBySource('s1', 'ls', 10);
        expect(found.map((o) => o.id)).toEqual([newest.id, middle.id, older.id]);
        expect((await store.findObservationsBySource('s1', 'ls', 2)).map((o) => o.id)).toEqual([
          newest.id,
          middle.id,
        ]);
        expect(await store.findObservationsBySource('s1', 'cat', 10)).toEqual([]);
      });

      it('refuses a second observation with the same id as a duplicate fault', async () => {
        const o = observation('s1', 'ls', 1);
        await store.insertObservation(o);
        await expect(store.insertObservation(o)).rejects.toMatchObject({
          name: 'StoreFault',
          code: 'duplicate',
        });
      });
    });

    describe('predictions and declines', () => {
      it('returns the newest open prediction for (session, call digest), with optional fields omitted', async () => {
        const a = prediction('s1', 'd1', 1000);
        const b = { ...prediction('s1', 'd1', 2000, predictionDoc('abc')), agent: 'agent-7' };
        await store.insertPrediction(a);
        await store.insertPrediction(b);
        await store.insertPrediction(prediction('s2', 'd1', 3000, predictionDoc('other')));
        expect(await store.findOpenPrediction('s1', 'd1')).toEqual(b);
        expect(await store.findOpenPrediction('s1', 'd2')).toBeUndefined();
        expect(await store.consumePrediction(b.id, 2500)).toBe(true);
        const open = await store.findOpenPrediction('s1', 'd1');
        expect(open).toEqual(a);
        expect(open && 'consumed_at' in open).toBe(false);
        expect(await store.findLatestPrediction('s1', 'd1')).toEqual({ ...b, consumed_at: 2500 });
      });

      it('lists the open tickets of a session, both kinds, whatever call they bind to, newest first', async () => {
        const a = prediction('s1', 'd1', 1000);
        const b = { ...decline('s1', 'd2', 2000), agent: 'agent-7' };
        const c = prediction('s1', 'd3', 3000, predictionDoc('third'));
        await store.insertPrediction(a);
        await store.insertDecline(b);
        await store.insertPrediction(c);
        await store.insertPrediction(prediction('s2', 'd1', 4000, predictionDoc('other session')));
        expect(await store.openTickets('s1', 10)).toEqual([
          { kind: 'prediction', ...c },
          { kind: 'decline', ...b },
          { kind: 'prediction', ...a },
        ]);
        expect(await store.consumePrediction(c.id, 3500)).toBe(true);
        expect((await store.openTickets('s1', 1)).map((t) => t.id)).toEqual([b.id]);
        expect(await store.openTickets('s3', 10)).toEqual([]);
      });

      it('reports when a prediction for a call was last used, per (session, call digest)', async () => {
        expect(await store.lastConsumedAt('s1', 'd1')).toBeUndefined();
        const a = prediction('s1', 'd1', 1000);
        const b = prediction('s1', 'd1', 1100, predictionDoc('second'));
        await store.insertPrediction(a);
        await store.insertPrediction(b);
        expect(await store.lastConsumedAt('s1', 'd1')).toBeUndefined();
        await store.consumePrediction(a.id, 5000);
        await store.consumePrediction(b.id, 3000);
        expect(await store.lastConsumedAt('s1', 'd1')).toBe(5000);
        expect(
          await store.insertConsumedPrediction(prediction('s1', 'd1', 7000, predictionDoc('inline'))),
        ).toBe(true);
        expect(await store.lastConsumedAt('s1', 'd1')).toBe(7000);
        expect(await store.lastConsumedAt('s2', 'd1')).toBeUndefined();
        expect(await store.lastConsumedAt('s1', 'd2')).toBeUndefined();
        // Declines dispatch nothing: using one up is not a dispatch.
        const d = decline('s1', 'd3', 1000);
        await store.insertDecline(d);
        await store.consumeDecline(d.id, 9000);
        expect(await store.lastConsumedAt('s1', 'd3')).toBeUndefined();
      });

      it('consumes a prediction exactly once', async () => {
        const p = prediction('s1', 'd1', 1000);
        await store.insertPrediction(p);
        expect(await store.consumePrediction(p.id, 1100)).toBe(true);
        expect(await store.consumePrediction(p.id, 1200)).toBe(false);
        expect(await store.consumePrediction('UNKNOWN', 1200)).toBe(false);
        expect((await store.findLatestPrediction('s1', 'd1'))?.consumed_at).toBe(1100);
        expect(await store.findOpenPrediction('s1', 'd1')).toBeUndefined();
      });

      it('lets exactly one of many concurrent consumers win', async () => {
        const p = prediction('s1', 'd1', 1000);
        await store.insertPrediction(p);
        const wins = await Promise.all(
          Array.from({ length: 40 }, (_, i) => store.consumePrediction(p.id, 2000 + i)),
        );
        expect(wins.filter(Boolean)).toHaveLength(1);
        const d = decline('s1', 'd1', 1000);
        await store.insertDecline(d);
        const dwins = await Promise.all(
          Array.from({ length: 40 }, (_, i) => store.consumeDecline(d.id, 2000 + i)),
        );
        expect(dwins.filter(Boolean)).toHaveLength(1);
      });

      it('commits a decision: consumes the ticket and appends its row together, for one racer only', async () => {
        const p = prediction('s1', 'd1', 1000);
        await store.insertPrediction(p);
        const rows = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            store.commitDecision(
              { kind: 'prediction', id: p.id },
              2000 + i,
              draft('s1', { outcome: 'dispatch' }),
            ),
          ),
        );
        expect(rows.filter(Boolean)).toHaveLength(1);
        expect(await store.listAudit({ session: 's1' })).toHaveLength(1);
        expect((await store.findLatestPrediction('s1', 'd1'))?.consumed_at).toBeGreaterThanOrEqual(2000);
        expect((await store.verifyAudit()).ok).toBe(true);
      });

      it('commits an inline ticket once per document, and writes nothing for the loser', async () => {
        const d = decline('s1', 'd2', 1000);
        const first = await store.commitDecision(
          { kind: 'decline', insert: d },
          1500,
          draft('s1', { outcome: 'declined' }),
        );
        expect(first?.seq).toBe(1);
        const again = await store.commitDecision(
          { kind: 'decline', insert: { ...d, id: newId() } },
          1600,
          draft('s1'),
        );
        expect(again).toBeUndefined();
        expect(await store.listAudit({})).toHaveLength(1);
        expect(await store.findOpenDecline('s1', 'd2')).toBeUndefined();
      });

      it('keeps declines apart from predictions', async () => {
        const d = decline('s1', 'd1', 1000);
        await store.insertDecline(d);
        expect(await store.findOpenDecline('s1', 'd1')).toEqual(d);
        expect(await store.findOpenPrediction('s1', 'd1')).toBeUndefined();
        expect(await store.consumePrediction(d.id, 1100)).toBe(false);
        expect(await store.consumeDecline(d.id, 1100)).toBe(true);
        expect(await store.findOpenDecline('s1', 'd1')).toBeUndefined();
      });

      it('refuses filing the same document twice for the same call as a duplicate fault', async () => {
        await store.insertPrediction(prediction('s1', 'd1', 1000));
        const again = prediction('s1', 'd1', 2000);
        expect(await store.insertPrediction(again)).toBe(false);
        // The same document for the same call in another session is that session's own ticket.
        expect(await store.insertPrediction(prediction('s2', 'd1', 2000))).toBe(true);
      });

      it('inserts an inline ticket consumed, once per (call digest, document)', async () => {
        const p = prediction('s1', 'd1', 1000);
        expect(await store.insertConsumedPrediction(p)).toBe(true);
        expect(
          await store.insertConsumedPrediction({ ...prediction('s1', 'd1', 1100), doc_digest: p.doc_digest }),
        ).toBe(false);
        expect(await store.findOpenPrediction('s1', 'd1')).toBeUndefined();
        expect(await store.findLatestPrediction('s1', 'd1')).toEqual({ ...p, consumed_at: 1000 });
        // Another document for the same call, or the same document for another call, is new.
        expect(await store.insertConsumedPrediction(prediction('s1', 'd1', 1200, predictionDoc('x')))).toBe(
          true,
        );
        expect(
          await store.insertConsumedPrediction({ ...prediction('s1', 'd2', 1200), doc_digest: p.doc_digest }),
        ).toBe(true);
        // A filed ticket that was already used blocks the same document inline too.
        const filed = prediction('s1', 'd3', 1000);
        await store.insertPrediction(filed);
        expect(
          await store.insertConsumedPrediction({
            ...prediction('s1', 'd3', 1300),
            doc_digest: filed.doc_digest,
          }),
        ).toBe(false);
      });

      it('lets exactly one of many concurrent inline inserts of one document win', async () => {
        const doc = declineDoc('racing');
        const results = await Promise.all(
          Array.from({ length: 30 }, (_, i) =>
            store.insertConsumedDecline({ ...decline('s1', 'd1', 1000 + i, doc), consumed_at: 5 }),
          ),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
        expect(await store.findOpenDecline('s1', 'd1')).toBeUndefined();
      });
    });

    describe('audit', () => {
      it('chains rows from the genesis hash, in order, and returns them as stored', async () => {
        expect(await store.appendAudit([])).toEqual([]);
        const [r1] = await store.appendAudit([draft('s1')]);
        const [r2, r3] = await store.appendAudit([
          draft('s1'),
          draft('s2', { kind: 'outcome', ref: r1!.id }),
        ]);
        expect([r1?.seq, r2?.seq, r3?.seq]).toEqual([1, 2, 3]);
        expect(r1?.prev_hash).toBe(GENESIS_HASH);
        expect(r2?.prev_hash).toBe(r1?.hash);
        expect(r3?.prev_hash).toBe(r2?.hash);
        expect(await store.getAudit(r3!.id)).toEqual(r3);
        expect(await store.getAudit('NOPE')).toBeUndefined();
        expect(await store.listAudit({})).toEqual([r1, r2, r3]);
        expect(await store.verifyAudit()).toEqual({ ok: true, rows: 3 });
      });

      it('keeps the chain whole under concurrent appends', async () => {
        const batches = await Promise.all(
          Array.from({ length: 25 }, (_, i) =>
            store.appendAudit(i % 5 === 0 ? [draft('s1'), draft('s1')] : [draft('s1')]),
          ),
        );
        const seqs = batches.flat().map((r) => r.seq);
        expect(seqs.sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
        for (const batch of batches) {
          for (let i = 1; i < batch.length; i++) expect(batch[i]!.seq).toBe(batch[i - 1]!.seq + 1);
        }
        expect(await store.verifyAudit()).toEqual({ ok: true, rows: 30 });
      });

      it('refuses a duplicate row id without breaking the chain', async () => {
        const d = draft('s1');
        await store.appendAudit([d]);
        await expect(store.appendAudit([draft('s1'), d])).rejects.toMatchObject({ code: 'duplicate' });
        expect(await store.listAudit({})).toHaveLength(1);
        await store.appendAudit([draft('s1')]);
        expect(await store.verifyAudit()).toEqual({ ok: true, rows: 2 });
      });

      it('filters by session, agent, kind, ref and since; limit keeps the newest, oldest first', async () => {
        const t0 = Date.parse('2030-01-01T00:00:00.000Z');
        const at = (s: number) => new Date(t0 + s * 1000).toISOString();
        const rows = await store.appendAudit([
          draft('s1', { at: at(0), agent: 'a1' }),
          draft('s2', { at: at(1), agent: 'a2' }),
          draft('s1', { at: at(2), agent: 'a1' }),
          draft('s1', { at: at(3), agent: 'a2', kind: 'override' }),
        ]);
        const [d1, d2, d3, o4] = rows;
        const outcome = await store.appendAudit([draft('s1', { at: at(4), kind: 'outcome', ref: d3!.id })]);
        const ids = (list: { id: string }[]) => list.map((r) => r.id);
        expect(ids(await store.listAudit({ session: 's1' }))).toEqual(ids([d1!, d3!, o4!, ...outcome]));
        expect(ids(await store.listAudit({ agent: 'a2' }))).toEqual(ids([d2!, o4!]));
        expect(ids(await store.listAudit({ kind: 'override' }))).toEqual(ids([o4!]));
        expect(ids(await store.listAudit({ ref: d3!.id }))).toEqual(ids(outcome));
        expect(ids(await store.listAudit({ since: t0 + 2000 }))).toEqual(ids([d3!, o4!, ...outcome]));
        expect(ids(await store.listAudit({ limit: 2 }))).toEqual(ids([o4!, ...outcome]));
        expect(ids(await store.listAudit({ session: 's1', kind: 'decision', limit: 1 }))).toEqual(ids([d3!]));
        expect(await store.listAudit({ limit: 0 })).toEqual([]);
        expect(await store.listAudit({ session: 'nobody' })).toEqual([]);
      });

      it('keeps one outcome row per decision row', async () => {
        const [decision] = await store.appendAudit([draft('s1', { outcome: 'dispatch' })]);
        await store.appendAudit([draft('s1', { kind: 'outcome', ref: decision!.id })]);
        await expect(
          store.appendAudit([draft('s1', { kind: 'outcome', ref: decision!.id })]),
        ).rejects.toMatchObject({ code: 'duplicate' });
        // Other kinds may still refer to the same row.
        await store.appendAudit([draft('s1', { kind: 'override', ref: decision!.id })]);
        expect(await store.verifyAudit()).toEqual({ ok: true, rows: 3 });
      });

      it('verifies an empty chain', async () => {
        expect(await store.verifyAudit()).toEqual({ ok: true, rows: 0 });
      });

      it('refuses UPDATE and DELETE on audit rows at the database', async () => {
        await store.appendAudit([draft('s1')]);
        await expect(t.raw("UPDATE audit SET session = 'x' WHERE seq = 1")).rejects.toThrow(/append-only/);
        await expect(t.raw('DELETE FROM audit WHERE seq = 1')).rejects.toThrow(/append-only/);
        expect(await store.verifyAudit()).toEqual({ ok: true, rows: 1 });
      });

      describe('catches tampering through raw SQL', () => {
        beforeEach(async () => {
          for (let i = 0; i < 4; i++) await store.appendAudit([draft('s1', { outcome: 'pass' })]);
        });
        const brokenAt = async (seq: number, problem: RegExp) => {
          const check = await store.verifyAudit();
          expect(check.ok).toBe(false);
          if (!check.ok) {
            expect(check.broken_at.seq).toBe(seq);
            expect(check.broken_at.problem).toMatch(problem);
          }
        };

        it('a row edited', async () => {
          await t.tamper(
            `UPDATE audit SET doc = replace(doc, '"outcome":"pass"', '"outcome":"dispatch"') WHERE seq = 2`,
          );
          await brokenAt(2, /edited/);
        });

        it('a row edited and re-hashed by the editor', async () => {
          // Recomputing the edited row's own hash still leaves the next row pointing at the old one.
          const [, r2] = await store.listAudit({});
          const forged = { ...r2!, outcome: 'dispatch' as const };
          const { hash: _old, ...unhashed } = forged;
          const hash = rowHash(unhashed);
          const doc = JSON.stringify({ ...forged, hash }).replaceAll("'", "''");
          await t.tamper(`UPDATE audit SET doc = '${doc}', hash = '${hash}' WHERE seq = 2`);
          await brokenAt(3, /prev_hash/);
        });

        it('a row deleted', async () => {
          await t.tamper('DELETE FROM audit WHERE seq = 2');
          await brokenAt(3, /seq/);
        });

        it('the newest row deleted: the chain head still names it', async () => {
          await t.tamper('DELETE FROM audit WHERE seq = 4');
          await brokenAt(4, /newest rows were deleted \(the chain head says seq 4/);
          // New rows chain onto the head, so the gap stays visible.
          await store.appendAudit([draft('s1')]);
          expect((await store.verifyAudit()).ok).toBe(false);
        });

        it('every row deleted', async () => {
          await t.tamper('DELETE FROM audit');
          await brokenAt(1, /newest rows were deleted \(the chain head says seq 4/);
        });

        it('the indexed time column edited', async () => {
          await t.tamper('UPDATE audit SET at_ms = at_ms + 86400000 WHERE seq = 2');
          await brokenAt(2, /time column/);
        });

        it('two rows swapped', async () => {
          await t.tamper('UPDATE audit SET seq = -seq WHERE seq IN (2, 3)');
          await t.tamper('UPDATE audit SET seq = CASE WHEN seq = -2 THEN 3 ELSE 2 END WHERE seq < 0');
          await brokenAt(2, /reordered/);
        });

        it('an indexed column edited (a row moved to another session)', async () => {
          await t.tamper("UPDATE audit SET session = 'elsewhere' WHERE seq = 3");
          await brokenAt(3, /column/);
        });
      });
    });

    describe('identity and chain head (anchors outside the store)', () => {
      it('has one random store id that stays the same for the life of the store', async () => {
        const id = await store.storeId();
        expect(id).toMatch(/^[0-9a-f]{32}$/);
        await store.appendAudit([draft('s1')]);
        expect(await store.storeId()).toBe(id);
      });

      it('reports the head record and the stored rows, and reads a row by seq', async () => {
        expect(await store.auditHead()).toEqual({ seq: 0, hash: GENESIS_HASH, rows: 0, newest_seq: 0 });
        const rows = await store.appendAudit([draft('s1'), draft('s2'), draft('s1')]);
        const newest = rows[2]!;
        expect(await store.auditHead()).toEqual({ seq: 3, hash: newest.hash, rows: 3, newest_seq: 3 });
        expect(await store.getAuditBySeq(2)).toEqual(rows[1]);
        expect(await store.getAuditBySeq(4)).toBeUndefined();
        expect(await store.getAuditBySeq(0)).toBeUndefined();
      });

      it('finds the newest decisions of one call in one session, newest first', async () => {
        const [a, , c] = await store.appendAudit([
          draft('s1', { call_digest: 'd1' }),
          draft('s1', { call_digest: 'd2' }),
          draft('s1', { call_digest: 'd1', outcome: 'rejected' }),
          draft('s2', { call_digest: 'd1' }),
          draft('s1', { call_digest: 'd1', kind: 'override' }),
        ]);
        expect((await store.recentDecisions('s1', 'd1', 5)).map((r) => r.id)).toEqual([c?.id, a?.id]);
        expect((await store.recentDecisions('s1', 'd1', 1)).map((r) => r.id)).toEqual([c?.id]);
        expect(await store.recentDecisions('s1', 'd9', 5)).toEqual([]);
      });

      it('pairs a host post event with its tool-use id once: racing claims, one winner', async () => {
        const claims = await Promise.all(
          Array.from({ length: 8 }, (_, i) => store.claimHostPost('s1', 'toolu_1', 1_000 + i)),
        );
        expect(claims.filter(Boolean)).toHaveLength(1);
        expect(await store.claimHostPost('s1', 'toolu_1', 2_000)).toBe(false);
        // Another id, or the same id in another session, is a pairing of its own.
        expect(await store.claimHostPost('s1', 'toolu_2', 2_000)).toBe(true);
        expect(await store.claimHostPost('s2', 'toolu_1', 2_000)).toBe(true);
      });

      it('lists the calls a session dispatched, newest first, bounded by age and count', async () => {
        const at = (ms: number) => new Date(ms).toISOString();
        const call = (tool: string, args: Record<string, unknown>) => ({ tool, args });
        const [a, , , , e] = await store.appendAudit([
          draft('s1', { at: at(1_000), tool: 'w', call: call('w', { n: 1 }), outcome: 'pass' }),
          draft('s1', { at: at(2_000), tool: 'w', call: call('w', { n: 2 }), outcome: 'rejected' }),
          draft('s1', {
            at: at(3_000),
            tool: 'w',
            call: call('w', { n: 3 }),
            outcome: 'dispatch',
            dry_run: true,
          }),
          draft('s2', { at: at(4_000), tool: 'w', call: call('w', { n: 4 }), outcome: 'pass' }),
          draft('s1', {
            at: at(5_000),
            tool: 'x',
            call: { tool: 'x', action: 'mcp__srv__x', args: { q: "it's" } },
            outcome: 'dispatch',
          }),
          draft('s1', { at: at(6_000), kind: 'override' }),
          draft('s1', {
            at: at(7_000),
            tool: 'big',
            call: { tool: 'big', truncated: true, bytes: 9, preview: '{' },
          }),
        ]);
        const all = await recentDispatches(store, 's1', { since: 0, limit: 10 });
        expect(all.map((d) => d.tool)).toEqual(['big', 'x', 'w']);
        expect(all[1]).toEqual({
          id: e?.id,
          at: 5_000,
          tool: 'x',
          action: 'mcp__srv__x',
          args: { q: "it's" },
        });
        expect(all[2]).toEqual({ id: a?.id, at: 1_000, tool: 'w', args: { n: 1 } });
        expect(all[0]?.args).toBeUndefined();
        expect((await recentDispatches(store, 's1', { since: 2_000, limit: 10 })).map((d) => d.tool)).toEqual(
          ['big', 'x'],
        );
        expect((await recentDispatches(store, 's1', { since: 0, limit: 1 })).map((d) => d.tool)).toEqual([
          'big',
        ]);
        expect(await recentDispatches(store, 's9', { since: 0, limit: 10 })).toEqual([]);
        const ws = await recentDispatches(store, 's1', { since: 0, limit: 10, tools: ['w', 'nope'] });
        expect(ws.map((d) => d.id)).toEqual([a?.id]);
      });

      it("lists a session's observations newest first, bounded by age and count", async () => {
        const older = observation('s1', 'cat a', 1_000);
        const result = observation('s1', '{"args":{},"tool":"diag"}', 3_000, {
          source: { tool: 'diag', args: {} },
          kind: 'result',
          excerpt: '{"outcome":"CERTIFIED"}',
        });
        const newer = observation('s1', 'cat b', 2_000);
        const other = observation('s2', 'cat a', 4_000);
        for (const o of [older, result, newer, other]) await store.insertObservation(o);
        expect(await recentObservations(store, 's1', { since: 0, limit: 10 })).toEqual([
          result,
          newer,
          older,
        ]);
        expect(await recentObservations(store, 's1', { since: 2_000, limit: 10 })).toEqual([result, newer]);
        expect(await recentObservations(store, 's1', { since: 0, limit: 1 })).toEqual([result]);
        expect(await recentObservations(store, 's3', { since: 0, limit: 10 })).toEqual([]);
        // A tool filter reads the tool of the source key (a tool read's canonical JSON); a shell read
        // whose text ends like one is not a tool read. A shell filter is no filter.
        const lookalike = observation('s1', 'x,"tool":"diag"}', 3_500);
        await store.insertObservation(lookalike);
        const of = (tools: string[], since = 0, limit = 10) =>
          recentObservations(store, 's1', { since, limit, tools });
        expect(await of(['diag'])).toEqual([result]);
        expect(await of(['diag', 'x'], 0, 1)).toEqual([result]);
        expect(await of(['diag'], 3_100)).toEqual([]);
        expect(await of(['other'])).toEqual([]);
        expect((await of(['shell'])).length).toBe(4);
        // Several windows at once answer, in the order asked, what each would answer alone.
        await store.appendAudit([
          draft('s1', {
            at: new Date(5_000).toISOString(),
            tool: 'diag',
            call: { tool: 'diag', args: {} },
            outcome: 'pass',
          }),
        ]);
        const requests = [
          { kind: 'observed' as const, query: { since: 0, limit: 10, tools: ['diag'] } },
          { kind: 'dispatched' as const, query: { since: 0, limit: 10 } },
          { kind: 'observed' as const, query: { since: 2_000, limit: 2 } },
          { kind: 'dispatched' as const, query: { since: 0, limit: 10, tools: ['nope'] } },
        ];
        const windows = await store.ledgerWindows('s1', requests);
        expect(windows).toEqual([
          await of(['diag']),
          await recentDispatches(store, 's1', { since: 0, limit: 10 }),
          await recentObservations(store, 's1', { since: 2_000, limit: 2 }),
          [],
        ]);
        expect(windows[1]?.map((d) => (d as { tool: string }).tool)).toEqual(['diag']);
        expect(await store.ledgerWindows('s1', [])).toEqual([]);
      });

      it('answers a window read again with what another connection has just written', async () => {
        // Preconditions read the same windows on every check: whatever a store keeps between reads
        // must give way at once to a row another process or gate instance committed.
        const diag = observation('s1', '{"args":{},"tool":"diag"}', 1_000, {
          source: { tool: 'diag', args: {} },
        });
        await store.insertObservation(diag);
        const windows = [
          { kind: 'observed' as const, query: { since: 0, limit: 4, tools: ['diag'] } },
          { kind: 'observed' as const, query: { since: 0, limit: 4 } },
        ];
        expect(await store.ledgerWindows('s1', windows)).toEqual([[diag], [diag]]);
        expect(await store.ledgerWindows('s1', windows)).toEqual([[diag], [diag]]);
        const later = observation('s1', '{"args":{},"tool":"diag"}', 2_000, {
          source: { tool: 'diag', args: {} },
          excerpt: 'written elsewhere',
        });
        const doc = JSON.stringify(later).replaceAll("'", "''");
        await t.raw(
          `INSERT INTO observations (session, id, source_key, observed_ms, doc)
           VALUES ('s1', '${later.id}', '${later.source_key}', 2000, '${doc}')`,
        );
        expect(await store.ledgerWindows('s1', windows)).toEqual([
          [later, diag],
          [later, diag],
        ]);
      });

      it('shows a deleted tail as stored rows below the head record', async () => {
        await store.appendAudit([draft('s1'), draft('s1'), draft('s1')]);
        await t.tamper('DELETE FROM audit WHERE seq = 3');
        expect(await store.auditHead()).toMatchObject({ seq: 3, rows: 2, newest_seq: 2 });
        expect(await store.getAuditBySeq(3)).toBeUndefined();
      });
    });

    describe('rejection streaks', () => {
      it('counts per (session, call digest) and resets', async () => {
        expect(await store.getRejections('s1', 'd1')).toBe(0);
        expect(await store.bumpRejections('s1', 'd1')).toBe(1);
        expect(await store.bumpRejections('s1', 'd1')).toBe(2);
        expect(await store.bumpRejections('s1', 'd2')).toBe(1);
        expect(await store.bumpRejections('s2', 'd1')).toBe(1);
        expect(await store.getRejections('s1', 'd1')).toBe(2);
        await store.resetRejections('s1', 'd1');
        await store.resetRejections('s9', 'd9');
        expect(await store.getRejections('s1', 'd1')).toBe(0);
        expect(await store.bumpRejections('s1', 'd1')).toBe(1);
        expect(await store.getRejections('s1', 'd2')).toBe(1);
      });

      it('counts every one of many concurrent bumps', async () => {
        const counts = await Promise.all(Array.from({ length: 20 }, () => store.bumpRejections('s1', 'd1')));
        expect(counts.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      });
    });

    describe('files the session wrote and read', () => {
      it('a write counts until a later read of the same path in the same session', async () => {
        await store.recordFileEvents('s1', 'write', ['/p/s.sh', '/p/Makefile'], 1_000);
        await store.recordFileEvents('s2', 'write', ['/p/other.sh'], 1_000);
        expect(await store.writtenSinceRead('s1', ['/p/s.sh', '/p/Makefile', '/p/x'])).toEqual([
          '/p/Makefile',
          '/p/s.sh',
        ]);
        expect(await store.writtenSinceRead('s2', ['/p/s.sh'])).toEqual([]);
        await store.recordFileEvents('s1', 'read', ['/p/s.sh', '/p/never-written'], 2_000);
        expect(await store.writtenSinceRead('s1', ['/p/s.sh', '/p/Makefile'])).toEqual(['/p/Makefile']);
        // Written again after the read: it counts again.
        await store.recordFileEvents('s1', 'write', ['/p/s.sh'], 3_000);
        expect(await store.writtenSinceRead('s1', ['/p/s.sh'])).toEqual(['/p/s.sh']);
        expect(await store.writtenSinceRead('s1', ['/p/never-written'])).toEqual([]);
        expect(await store.writtenSinceRead('s1', [])).toEqual([]);
      });

      it('a tree written (a path ending in /) counts for every path below it, until that path is read', async () => {
        await store.recordFileEvents('s1', 'write', ['/p/.githooks', '/p/.githooks/'], 1_000);
        const hook = '/p/.githooks/pre-commit';
        expect(await store.writtenSinceRead('s1', [hook, '/p/.githooks', '/p/.githooksx/a', '/p/x'])).toEqual(
          ['/p/.githooks', hook],
        );
        expect(await store.writtenSinceRead('s1', ['/p/.githooks/deep/er/x.sh', hook, hook])).toEqual([
          '/p/.githooks/deep/er/x.sh',
          hook,
        ]);
        // Reading the file clears it alone; the tree still covers its other files.
        await store.recordFileEvents('s1', 'read', [hook, hook], 2_000);
        expect(await store.writtenSinceRead('s1', [hook, '/p/.githooks/post-merge'])).toEqual([
          '/p/.githooks/post-merge',
        ]);
        // The tree written again after that read: the file counts again.
        await store.recordFileEvents('s1', 'write', ['/p/.githooks/'], 3_000);
        expect(await store.writtenSinceRead('s1', [hook])).toEqual([hook]);
        expect(await store.writtenSinceRead('s2', [hook])).toEqual([]);
        // `%` and `_` in a tree's path are characters, not patterns.
        await store.recordFileEvents('s3', 'write', ['/p/a_%/'], 1_000);
        expect(await store.writtenSinceRead('s3', ['/p/a_%/x', '/p/ab%/x', '/p/a_x/y'])).toEqual([
          '/p/a_%/x',
        ]);
      });

      it('a pending write (a background job’s, that may land after any read) is never cleared by a read', async () => {
        await store.recordFileEvents('b1', 'pending', ['/p/s.sh', '/p/scripts/'], 1_000);
        await store.recordFileEvents('b1', 'read', ['/p/s.sh', '/p/scripts/run.sh'], 2_000);
        expect(await store.writtenSinceRead('b1', ['/p/s.sh', '/p/scripts/run.sh', '/p/x'])).toEqual([
          '/p/s.sh',
          '/p/scripts/run.sh',
        ]);
        // An ordinary write and a read after it do not undo the pending one.
        await store.recordFileEvents('b1', 'write', ['/p/s.sh'], 3_000);
        await store.recordFileEvents('b1', 'read', ['/p/s.sh'], 4_000);
        expect(await store.writtenSinceRead('b1', ['/p/s.sh'])).toEqual(['/p/s.sh']);
        expect(await store.writtenBySession('b1', ['/p/s.sh'])).toEqual(['/p/s.sh']);
        // A read recorded before the pending write, in another session: neither matters.
        await store.recordFileEvents('b2', 'read', ['/p/t.sh'], 500);
        await store.recordFileEvents('b2', 'pending', ['/p/t.sh'], 1_000);
        expect(await store.writtenSinceRead('b2', ['/p/t.sh'])).toEqual(['/p/t.sh']);
        expect(await store.writtenSinceRead('b3', ['/p/s.sh'])).toEqual([]);
        // An ordinary write older than a recorded one does not move the time back (a read between clears it).
        await store.recordFileEvents('b4', 'write', ['/p/u.sh'], 3_000);
        await store.recordFileEvents('b4', 'write', ['/p/u.sh'], 1_000);
        await store.recordFileEvents('b4', 'read', ['/p/u.sh'], 2_000);
        expect(await store.writtenSinceRead('b4', ['/p/u.sh'])).toEqual(['/p/u.sh']);
      });

      it('tells which paths the session wrote at any time, read since or not', async () => {
        await store.recordFileEvents('w1', 'write', ['/p/.gitignore', '/p/tree/'], 1_000);
        await store.recordFileEvents('w1', 'read', ['/p/.gitignore', '/p/other'], 2_000);
        expect(
          await store.writtenBySession('w1', ['/p/other', '/p/tree/a/.gitignore', '/p/.gitignore']),
        ).toEqual(['/p/.gitignore', '/p/tree/a/.gitignore']);
        expect(await store.writtenBySession('w2', ['/p/.gitignore'])).toEqual([]);
        // A tree asked about: written when the directory or anything below it was.
        await store.recordFileEvents('w3', 'write', ['/p/bin/notes', '/p/dist', '/p/a_/x'], 1_000);
        expect(
          await store.writtenBySession('w3', [
            '/p/bin/',
            '/p/dist/',
            '/p/bi/',
            '/p/binx/',
            '/p/ab/',
            '/p/a_/',
          ]),
        ).toEqual(['/p/a_/', '/p/bin/', '/p/dist/']);
        expect(await store.writtenBySession('w1', [])).toEqual([]);
      });

      it('lists what the session wrote below directories, newest first and bounded, pending ones said', async () => {
        const paths = async (session: string, dirs: string[], limit: number) =>
          (await store.writtenUnder(session, dirs, limit)).map((w) => w.path);
        await store.recordFileEvents('u1', 'write', ['/p/tests/test_a.py', '/p/src/'], 1_000);
        await store.recordFileEvents('u1', 'write', ['/p/src/m.py', '/q/x.py', 'created:/p/new.py'], 2_000);
        await store.recordFileEvents('u1', 'read', ['/p/tests/test_b.py', '/p/tests/test_a.py'], 3_000);
        await store.recordFileEvents('u2', 'write', ['/p/other.py'], 1_000);
        // Read since or not, a write is listed; a read alone is not, nor another session's write.
        expect(await paths('u1', ['/p'], 10)).toEqual(['/p/src/m.py', '/p/src/', '/p/tests/test_a.py']);
        expect(await paths('u1', ['/p/tests/', '/q'], 10)).toEqual(['/q/x.py', '/p/tests/test_a.py']);
        expect(await paths('u1', ['/p'], 1)).toEqual(['/p/src/m.py']);
        // `/` is everything; a sibling whose name begins the same is not below; `%` and `_` are characters.
        expect(await paths('u1', ['/'], 10)).toHaveLength(4);
        expect(await paths('u1', ['/p/src/m'], 10)).toEqual([]);
        await store.recordFileEvents('u3', 'write', ['/p/a_%/x.py', '/p/ab%/y.py'], 1_000);
        expect(await paths('u3', ['/p/a_%'], 10)).toEqual(['/p/a_%/x.py']);
        expect(await store.writtenUnder('u1', [], 10)).toEqual([]);
        // A background job's write, pending until the session ends, is said to be.
        await store.recordFileEvents('u4', 'write', ['/p/tests/test_c.py'], 1_000);
        await store.recordFileEvents('u4', 'pending', ['/p/tests/test_d.py'], 2_000);
        expect(await store.writtenUnder('u4', ['/p'], 10)).toEqual([
          { path: '/p/tests/test_d.py', pending: true },
          { path: '/p/tests/test_c.py', pending: false },
        ]);
      });

      it("tells when a session began: its first audit row's time, whatever came after", async () => {
        expect(await store.sessionStartedAt('begun')).toBeUndefined();
        await store.appendAudit([draft('begun', { at: '2026-11-27T10:00:00.000Z' })]);
        await store.appendAudit([
          draft('other', { at: '2026-11-27T09:00:00.000Z' }),
          draft('begun', { at: '2026-11-27T11:00:00.000Z' }),
        ]);
        expect(await store.sessionStartedAt('begun')).toBe(Date.parse('2026-11-27T10:00:00.000Z'));
        expect(await store.sessionStartedAt('other')).toBe(Date.parse('2026-11-27T09:00:00.000Z'));
        expect(await store.sessionStartedAt("be'gun")).toBeUndefined();
      });

      it('takes paths with quotes and unicode as data', async () => {
        const odd = ['/p/it\'s "q".sh', '/p/ünï €.sh', '/p/a,b'];
        await store.recordFileEvents('s1', 'write', odd, 5);
        expect((await store.writtenSinceRead('s1', odd)).length).toBe(3);
      });
    });

    describe('overrides', () => {
      it('matches by session, rule and digest scope; an unset scope field matches anything', async () => {
        const bySession = override({ session: 's1', expires_at: 10_000 });
        const byRule = override({ rule: 'git.force-push', expires_at: 10_000, created_at: 2_000 });
        const byDigest = override({
          session: 's1',
          call_digest: 'd1',
          expires_at: 10_000,
          created_at: 3_000,
        });
        const otherSession = override({ session: 's2', expires_at: 10_000 });
        const otherRule = override({ rule: 'rm.rf', expires_at: 10_000 });
        for (const o of [bySession, byRule, byDigest, otherSession, otherRule]) await store.insertOverride(o);
        const ids = async (session: string, rules: string[], digest: string) =>
          (await store.findOverrides(session, rules, digest, 5_000)).map((o) => o.id);
        expect(await ids('s1', ['git.force-push'], 'd1')).toEqual([byDigest.id, byRule.id, bySession.id]);
        expect(await ids('s1', [], 'd2')).toEqual([bySession.id]);
        expect(await ids('s3', ['git.force-push', 'x'], 'd1')).toEqual([byRule.id]);
        expect(await ids('s3', [], 'd1')).toEqual([]);
        expect(await store.findOverrides('s1', [], 'd2', 5_000)).toEqual([bySession]);
      });

      it('stops matching at expiry', async () => {
        const o = override({ session: 's1', rule: 'r', call_digest: 'd', expires_at: 5_000 });
        await store.insertOverride(o);
        expect(await store.findOverrides('s1', ['r'], 'd', 4_999)).toEqual([o]);
        expect(await store.findOverrides('s1', ['r'], 'd', 5_000)).toEqual([]);
      });
    });

    describe('lifecycle', () => {
      it('is healthy while open and reports a fault once closed', async () => {
        await expect(store.health()).resolves.toBeUndefined();
        await store.close();
        await store.close();
        await expect(store.health()).rejects.toMatchObject({ code: 'store_unavailable' });
        // The target's dispose closes again; closing twice is harmless.
      });
    });
  });
}
