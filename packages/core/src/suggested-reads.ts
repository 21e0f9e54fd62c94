// Which of the reads the gating rules suggest for a call this session had made when it declined the
// call: the audit row records them, and the report's "declined while queryable" flag is a decline
// with a suggested read to make and none made (a state the agent could have looked at and did not).
import type { Source, SuggestedRead } from '@tollgate/contracts';
import { sourceKey } from './call.js';
import type { Store } from './ports.js';

/** As many as the audit row's schema holds (audit-row.json `suggested_reads.maxItems`). */
const MAX_SUGGESTED = 32;

export async function suggestedReadsMade(
  store: Store,
  session: string,
  reads: readonly Source[],
): Promise<SuggestedRead[]> {
  return Promise.all(
    reads.slice(0, MAX_SUGGESTED).map(async (source) => ({
      source,
      attempted: (await store.findObservationsBySource(session, sourceKey(source), 1)).length > 0,
    })),
  );
}
