// Conformance cases for the session caps (Store.insertObservationWithin, countOpenTickets): run by
// runStoreConformance on every store, so SQLite and PostgreSQL count the same way.
import type { Store } from '@tollgate/core';
import { describe, expect, it } from 'vitest';
import { decline, observation, prediction, predictionDoc } from './fixtures.js';

export function usageConformance(store: () => Store): void {
  describe('session caps', () => {
    const caps = { observations: 3, excerptBytes: 1000 };

    it('appends within the caps, counting each read, and refuses the one past the count (nothing written)', async () => {
      const s = store();
      for (let i = 1; i <= 3; i++) {
        const o = observation('cap-1', `ls ${i}`, 1000 + i);
        expect(await s.insertObservationWithin(o, caps)).toEqual({
          ok: true,
          usage: { observations: i, excerptBytes: i * o.excerpt.length },
        });
      }
      const fourth = observation('cap-1', 'ls 4', 1004);
      expect(await s.insertObservationWithin(fourth, caps)).toEqual({
        ok: false,
        cap: 'observations',
        usage: { observations: 3, excerptBytes: 3 * fourth.excerpt.length },
      });
      expect(await s.getObservation('cap-1', fourth.id)).toBeUndefined();
      // Another session has a ledger of its own.
      expect((await s.insertObservationWithin(observation('cap-2', 'ls', 1), caps)).ok).toBe(true);
    });

    it('counts excerpt bytes in UTF-8 and refuses the read that would pass them', async () => {
      const s = store();
      const big = observation('cap-3', 'cat a', 1, { excerpt: 'é'.repeat(300) }); // 600 bytes
      expect(await s.insertObservationWithin(big, caps)).toMatchObject({
        ok: true,
        usage: { observations: 1, excerptBytes: 600 },
      });
      const again = observation('cap-3', 'cat b', 2, { excerpt: 'x'.repeat(401) });
      expect(await s.insertObservationWithin(again, caps)).toEqual({
        ok: false,
        cap: 'excerpt_bytes',
        usage: { observations: 1, excerptBytes: 600 },
      });
      const fits = observation('cap-3', 'cat c', 3, { excerpt: 'x'.repeat(400) });
      expect((await s.insertObservationWithin(fits, caps)).ok).toBe(true);
      // A first read larger than the whole cap is refused too.
      const huge = observation('cap-4', 'cat d', 1, { excerpt: 'x'.repeat(1001) });
      expect(await s.insertObservationWithin(huge, caps)).toMatchObject({ ok: false, cap: 'excerpt_bytes' });
      expect(await s.getObservation('cap-4', huge.id)).toBeUndefined();
    });

    it('lets exactly the cap through when appends race', async () => {
      const s = store();
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          s.insertObservationWithin(observation('cap-race', `ls ${i}`, i), { ...caps, observations: 5 }),
        ),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(5);
      expect(await s.findObservationsBySource('cap-race', 'ls 0', 10)).toBeDefined();
    });

    it('counts the open predictions and declines of a session, not used or other sessions', async () => {
      const s = store();
      expect(await s.countOpenTickets('t-1')).toBe(0);
      const p1 = prediction('t-1', 'd1', 1);
      await s.insertPrediction(p1);
      await s.insertPrediction(prediction('t-1', 'd2', 2, predictionDoc('other')));
      await s.insertDecline(decline('t-1', 'd3', 3));
      await s.insertPrediction(prediction('t-2', 'd1', 4));
      expect(await s.countOpenTickets('t-1')).toBe(3);
      expect(await s.consumePrediction(p1.id, 10)).toBe(true);
      expect(await s.countOpenTickets('t-1')).toBe(2);
    });
  });
}
