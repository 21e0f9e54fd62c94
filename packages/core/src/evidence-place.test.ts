// A shell read's output depends on where it ran: cited for a call in another repository it is no
// evidence (a scratch clone's `git log` says nothing of the project's remote); in the same repository,
// from any directory of it, it is. Tool reads (absolute arguments) and reads with no directory count
// wherever the call runs.
import type { Observation } from '@tollgate/contracts';
import { describe, expect, it } from 'vitest';
import { type EvidenceContext, verifyCitations } from './evidence.js';
import { observationFrom } from './observations.js';
import type { Store } from './ports.js';

const NOW = Date.parse('2026-11-27T12:00:00Z');
const read = (
  id: string,
  cwd: string | undefined,
  output: string,
  source: Observation['source'] = 'git log -1',
) => ({
  ...observationFrom(
    { session: 's', source, output, recordedBy: 'hook:test', attested: true, ...(cwd ? { cwd } : {}) },
    id,
    NOW - 1000,
    4096,
  ),
});

function context(observations: Observation[], here: string): EvidenceContext {
  const store = {
    findObservationsBySource: async (_s: string, key: string) =>
      observations.filter((o) => o.source_key === key),
    getObservation: async (_s: string, id: string) => observations.find((o) => o.id === id),
  } as unknown as Store;
  // Two repositories: /repo and /tmp/clone; anything else is its own place.
  const of = (dir: string) =>
    dir.startsWith('/repo') ? '/repo' : dir.startsWith('/tmp/clone') ? '/tmp/clone' : dir;
  return {
    store,
    session: 's',
    now: NOW,
    maxAgeS: 300,
    requireAttested: false,
    place: { here: of(here), of },
  };
}

const ID = (n: number) => `01J${String(n).padStart(23, '0')}`;

describe('evidence is a read made where the call runs', () => {
  it('keeps the directory of a shell read only', () => {
    expect(read(ID(1), '/repo/src', 'x').cwd).toBe('/repo/src');
    expect(read(ID(2), '/repo', 'x', { tool: 'Read', args: { file_path: '/repo/a' } }).cwd).toBeUndefined();
    expect(read(ID(3), 'relative/dir', 'x').cwd).toBeUndefined();
  });

  it('a read in another repository is refused, by source and by id', async () => {
    const elsewhere = read(ID(4), '/tmp/clone', 'commit 9f9f9f9f');
    for (const citation of [
      { source: 'git log -1', quote: '9f9f9f9f' },
      { observation: ID(4), quote: '9f9f9f9f' },
    ]) {
      const result = await verifyCitations([citation], '/prediction/evidence', context([elsewhere], '/repo'));
      expect(result.verified).toEqual([]);
      expect(result.problems[0]?.code).toBe('evidence_not_accepted');
      expect(result.problems[0]?.message).toContain('not where this call runs');
    }
  });

  it('a read in the same repository counts from any of its directories; the one made here wins', async () => {
    const sub = read(ID(5), '/repo/src', 'commit 1a1a1a1a');
    expect(
      (await verifyCitations([{ source: 'git log -1', quote: '1a1a1a1a' }], '/e', context([sub], '/repo')))
        .verified,
    ).toHaveLength(1);
    // A newer read elsewhere does not shadow the one made here.
    const newer = {
      ...read(ID(6), '/tmp/clone', 'commit 2b2b2b2b'),
      observed_at: new Date(NOW - 10).toISOString(),
    };
    const result = await verifyCitations(
      [{ source: 'git log -1', quote: '1a1a1a1a' }],
      '/e',
      context([newer, sub], '/repo/docs'),
    );
    expect(result.problems).toEqual([]);
    expect(result.verified[0]?.observation).toBe(ID(5));
  });

  it('a read with no directory, and a call with no place, are not checked', async () => {
    const unplaced = read(ID(7), undefined, 'commit 3c3c3c3c');
    expect(
      (
        await verifyCitations(
          [{ source: 'git log -1', quote: '3c3c3c3c' }],
          '/e',
          context([unplaced], '/repo'),
        )
      ).verified,
    ).toHaveLength(1);
    const { place: _place, ...anywhere } = context([read(ID(8), '/tmp/clone', 'commit 4d4d4d4d')], '/repo');
    expect(
      (await verifyCitations([{ source: 'git log -1', quote: '4d4d4d4d' }], '/e', anywhere)).verified,
    ).toHaveLength(1);
  });
});
