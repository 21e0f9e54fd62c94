// The ledger cache alone: what it answers, how its own writes keep a window exact, when it gives a
// window up (ties at the edge, another connection's commit), and its bounds.
import type { Observation } from '@tollgate/contracts';
import { describe, expect, it } from 'vitest';
import { observation } from './fixtures.js';
import { LedgerCache } from './ledger-cache.js';

const stored = (o: Observation) => ({
  session: o.session,
  id: o.id,
  observed_ms: Date.parse(o.observed_at),
  doc: JSON.stringify(o),
});
const at = (ms: number, id: string, session = 's1') => observation(session, `cat f${id}`, ms, { id });
const ids = (list: Observation[] | undefined) => list?.map((o) => o.id);
const tool = () => 'x';

describe('LedgerCache', () => {
  it('answers only the query it holds, in the order the query gave', () => {
    const cache = new LedgerCache();
    cache.validate(1);
    const kept = cache.keepObservations('s1', null, 0, 4, [stored(at(2_000, 'b')), stored(at(1_000, 'a'))]);
    expect(ids(kept)).toEqual(['b', 'a']);
    expect(ids(cache.observations('s1', null, 0, 4))).toEqual(['b', 'a']);
    expect(cache.observations('s1', null, 0, 5)).toBeUndefined();
    expect(cache.observations('s1', null, 1, 4)).toBeUndefined();
    expect(cache.observations('s1', 'x', 0, 4)).toBeUndefined();
    expect(cache.observations('s2', null, 0, 4)).toBeUndefined();
    expect(cache.dispatches('s1', null, 0, 4)).toBeUndefined();
  });

  it('drops everything when another connection has committed (a new data_version)', () => {
    const cache = new LedgerCache();
    expect(cache.validate(7)).toBe(false);
    cache.keepObservations('s1', null, 0, 4, [stored(at(1_000, 'a'))]);
    expect(cache.validate(7)).toBe(true);
    expect(cache.validate(8)).toBe(false);
    expect(cache.observations('s1', null, 0, 4)).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });

  it("takes its own connection's observations in place: newest first, the oldest pushed out", () => {
    const cache = new LedgerCache();
    cache.validate(1);
    cache.keepObservations('s1', null, 0, 3, [stored(at(3_000, 'c')), stored(at(2_000, 'b'))]);
    cache.inserted(stored(at(2_500, 'bb')), tool);
    expect(ids(cache.observations('s1', null, 0, 3))).toEqual(['c', 'bb', 'b']);
    cache.inserted(stored(at(4_000, 'd')), tool);
    expect(ids(cache.observations('s1', null, 0, 3))).toEqual(['d', 'c', 'bb']);
    // Older than a full window: not in it.
    cache.inserted(stored(at(1_000, 'a')), tool);
    expect(ids(cache.observations('s1', null, 0, 3))).toEqual(['d', 'c', 'bb']);
    // Another session's window is untouched.
    cache.inserted(stored(at(5_000, 'e', 's2')), tool);
    expect(ids(cache.observations('s1', null, 0, 3))).toEqual(['d', 'c', 'bb']);
  });

  it('keeps the newest time first and the greater id first among equal times, when the window is not full', () => {
    const cache = new LedgerCache();
    cache.validate(1);
    cache.keepObservations('s1', null, 0, 10, [stored(at(2_000, 'm'))]);
    cache.inserted(stored(at(2_000, 'z')), tool);
    cache.inserted(stored(at(2_000, 'a')), tool);
    expect(ids(cache.observations('s1', null, 0, 10))).toEqual(['z', 'm', 'a']);
  });

  it('gives a full window up at a tie in time at its edge, where the database chooses', () => {
    const cache = new LedgerCache();
    cache.validate(1);
    cache.keepObservations('s1', null, 0, 2, [stored(at(3_000, 'c')), stored(at(2_000, 'b'))]);
    cache.inserted(stored(at(2_000, 'bb')), tool);
    expect(cache.observations('s1', null, 0, 2)).toBeUndefined();
    // Pushing out a row that ties with the one left last is as ambiguous.
    cache.keepObservations('s1', null, 0, 2, [stored(at(3_000, 'c')), stored(at(3_000, 'b'))]);
    cache.inserted(stored(at(4_000, 'd')), tool);
    expect(cache.observations('s1', null, 0, 2)).toBeUndefined();
  });

  it('leaves out of a window what is older than its since', () => {
    const cache = new LedgerCache();
    cache.validate(1);
    cache.keepObservations('s1', null, 2_000, 4, [stored(at(3_000, 'c'))]);
    cache.inserted(stored(at(1_000, 'a')), tool);
    cache.inserted(stored(at(2_000, 'b')), tool);
    expect(ids(cache.observations('s1', null, 2_000, 4))).toEqual(['c', 'b']);
  });

  it("files an observation under a tool window only when its key's tool is that tool", () => {
    const cache = new LedgerCache();
    cache.validate(1);
    cache.keepObservations('s1', 'x', 0, 4, []);
    cache.keepObservations('s1', 'y', 0, 4, []);
    let asked = 0;
    cache.inserted(stored(at(1_000, 'a')), () => {
      asked++;
      return 'x';
    });
    expect(asked).toBe(1);
    expect(ids(cache.observations('s1', 'x', 0, 4))).toEqual(['a']);
    expect(ids(cache.observations('s1', 'y', 0, 4))).toEqual([]);
  });

  it("drops a session's dispatch windows of the dispatched tool, and those of every tool", () => {
    const cache = new LedgerCache();
    cache.validate(1);
    for (const t of ['w', 'v', null]) cache.keepDispatches('s1', t, 0, 4, []);
    cache.keepObservations('s1', 'w', 0, 4, []);
    cache.dispatched('s1', 'w');
    expect(cache.dispatches('s1', 'w', 0, 4)).toBeUndefined();
    expect(cache.dispatches('s1', null, 0, 4)).toBeUndefined();
    expect(cache.dispatches('s1', 'v', 0, 4)).toEqual([]);
    expect(cache.observations('s1', 'w', 0, 4)).toEqual([]);
  });

  it('parses dispatch rows as the store did, leaving out a call that does not parse', () => {
    const cache = new LedgerCache();
    cache.validate(1);
    const rows = [
      { id: 'b', at_ms: 2_000, call: '{"tool":"w","args":{"n":2}}' },
      { id: 'x', at_ms: 1_500, call: '{not json' },
      { id: 'a', at_ms: 1_000, call: '{"tool":"w","args":{"n":1}}' },
    ];
    const kept = cache.keepDispatches('s1', 'w', 0, 4, rows);
    expect(kept).toEqual([
      { id: 'b', at: 2_000, tool: 'w', args: { n: 2 } },
      { id: 'a', at: 1_000, tool: 'w', args: { n: 1 } },
    ]);
    expect(cache.dispatches('s1', 'w', 0, 4)).toEqual(kept);
  });

  it('hands out rows nobody can change', () => {
    const cache = new LedgerCache();
    cache.validate(1);
    const [o] = cache.keepObservations('s1', null, 0, 4, [stored(at(1_000, 'a'))]);
    expect(() => {
      (o as { excerpt: string }).excerpt = 'forged';
    }).toThrow(TypeError);
    expect(cache.observations('s1', null, 0, 4)?.[0]?.excerpt).toBe('output of cat fa');
  });

  it('holds at most its sessions and bytes, dropping the least recently used session first', () => {
    // Every row below has the same size: two-character ids, one-character sessions' suffixes.
    const one = JSON.stringify(at(1_000, 'a0')).length + 128;
    const cache = new LedgerCache({ sessions: 3, bytes: one * 10, windowBytes: one * 4 });
    cache.validate(1);
    for (const s of ['s1', 's2', 's3']) cache.keepObservations(s, null, 0, 4, [stored(at(1_000, 'a0', s))]);
    cache.observations('s1', null, 0, 4); // s1 used: s2 is now the least recently used
    cache.keepObservations('s4', null, 0, 4, [stored(at(1_000, 'a0', 's4'))]);
    expect(cache.sessions).toBe(3);
    expect(cache.observations('s2', null, 0, 4)).toBeUndefined();
    expect(cache.observations('s1', null, 0, 4)).toHaveLength(1);
    // A window over its own bound is not kept; the byte bound drops whole sessions.
    const many = Array.from({ length: 5 }, (_, i) => stored(at(1_000 + i, `m${i}`, 's5')));
    cache.keepObservations('s5', null, 0, 8, many);
    expect(cache.observations('s5', null, 0, 8)).toBeUndefined();
    const four = many.slice(0, 4).map((r) => ({ ...r, session: 's6' }));
    cache.keepObservations('s6', null, 0, 4, four);
    cache.keepObservations('s7', null, 0, 4, four);
    expect(cache.bytes).toBeLessThanOrEqual(one * 10);
    expect(cache.observations('s7', null, 0, 4)).toHaveLength(4);
    // A window that grows past its bound by its own writes is given up.
    cache.keepObservations('s8', null, 0, 10, four.slice(0, 3));
    cache.inserted(stored(at(9_000, 'n1', 's8')), tool);
    expect(cache.observations('s8', null, 0, 10)).toHaveLength(4);
    cache.inserted(stored(at(9_001, 'n2', 's8')), tool);
    expect(cache.observations('s8', null, 0, 10)).toBeUndefined();
  });
});
