// Test data builders for the store suites: valid observations, tickets and audit drafts with unique
// ids, so tests sharing a database never collide.
import { createHash, randomBytes } from 'node:crypto';
import type { Decline, Observation, Prediction } from '@tollgate/contracts';
import type { AuditDraft, DeclineRecord, OverrideRecord, PredictionRecord } from '@tollgate/core';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
let counter = 0;

/** A ULID-shaped id, increasing within this process. */
export function newId(): string {
  const time = Date.now().toString(32).toUpperCase().padStart(10, '0');
  const seq = (counter++).toString(32).toUpperCase().padStart(6, '0');
  const rand = Array.from(randomBytes(10), (b) => CROCKFORD[b % 32]).join('');
  return `${time}${seq}${rand}`.slice(0, 26).replace(/[ILOU]/g, 'X');
}

export function hex64(seed: string): string {
  return createHash('sha256').update(seed).digest('hex');
}

export function observation(
  session: string,
  sourceKey: string,
  at: number,
  patch: Partial<Observation> = {},
): Observation {
  return {
    id: newId(),
    session,
    source: sourceKey,
    source_key: sourceKey,
    output_digest: hex64(`${sourceKey}${at}`),
    excerpt: `output of ${sourceKey}`,
    output_bytes: 20,
    observed_at: new Date(at).toISOString(),
    recorded_by: 'test',
    attested: true,
    ...patch,
  };
}

export const predictionDoc = (quote = '3f2a9c1'): Prediction => ({
  claims: [{ subject: 'git ls-remote origin refs/heads/main', op: 'contains', value: quote }],
  evidence: [{ source: 'git rev-parse HEAD', quote }],
});

export const declineDoc = (why = 'cannot tell'): Decline => ({
  irreducible: why,
  would_change_my_mind: ['a fresh fetch'],
  attempted_observations: [{ source: 'git fetch origin' }],
});

export function prediction(
  session: string,
  callDigest: string,
  createdAt: number,
  doc = predictionDoc(),
): PredictionRecord {
  return envelopeRecord(session, callDigest, createdAt, doc);
}

export function decline(
  session: string,
  callDigest: string,
  createdAt: number,
  doc = declineDoc(),
): DeclineRecord {
  return envelopeRecord(session, callDigest, createdAt, doc);
}

/** A stored envelope (prediction or decline) for one call: a fresh id, the document and its digest. */
function envelopeRecord<D>(session: string, callDigest: string, createdAt: number, doc: D) {
  return {
    id: newId(),
    session,
    call_digest: callDigest,
    doc_digest: hex64(JSON.stringify(doc)),
    doc,
    created_at: createdAt,
  };
}

export function draft(session: string, patch: Partial<AuditDraft> = {}): AuditDraft {
  return { id: newId(), at: new Date().toISOString(), kind: 'decision', session, outcome: 'pass', ...patch };
}

export function override(patch: Partial<OverrideRecord> & { expires_at: number }): OverrideRecord {
  return { id: newId(), operator: 'ops@example', reason: 'incident 42', created_at: 1_000, ...patch };
}
