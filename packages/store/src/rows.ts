// Conversions between the port's records and table rows, shared by both dialects. Optional fields
// are omitted rather than set to undefined (exactOptionalPropertyTypes).
import type { AuditRow, Observation } from '@tollgate/contracts';
import type { OverrideRecord, TicketRecord } from '@tollgate/core';
import type { AuditTable, ObservationTable, OverrideTable, TicketTable } from './schema.js';

export function observationRow(o: Observation): ObservationTable {
  return {
    session: o.session,
    id: o.id,
    source_key: o.source_key,
    observed_ms: epochMs(o.observed_at) ?? 0,
    doc: JSON.stringify(o),
  };
}

export function ticketRow<T>(r: TicketRecord<T>): TicketTable {
  return {
    id: r.id,
    session: r.session,
    agent: r.agent ?? null,
    call_digest: r.call_digest,
    doc_digest: r.doc_digest,
    doc: JSON.stringify(r.doc),
    created_at: r.created_at,
    consumed_at: r.consumed_at ?? null,
  };
}

export function ticketRecord<T>(row: TicketTable): TicketRecord<T> {
  const record: TicketRecord<T> = {
    id: row.id,
    session: row.session,
    call_digest: row.call_digest,
    doc_digest: row.doc_digest,
    doc: JSON.parse(row.doc) as T,
    created_at: Number(row.created_at),
  };
  if (row.agent !== null) record.agent = row.agent;
  if (row.consumed_at !== null) record.consumed_at = Number(row.consumed_at);
  return record;
}

export function auditRow(row: AuditRow): AuditTable {
  return {
    seq: row.seq,
    id: row.id,
    session: row.session,
    agent: row.agent ?? null,
    kind: row.kind,
    ref: row.ref ?? null,
    at: row.at,
    at_ms: epochMs(row.at),
    call_digest: row.call_digest ?? null,
    hash: row.hash,
    doc: JSON.stringify(row),
  };
}

export function overrideRow(o: OverrideRecord): OverrideTable {
  return {
    id: o.id,
    operator: o.operator,
    reason: o.reason,
    session: o.session ?? null,
    rule: o.rule ?? null,
    call_digest: o.call_digest ?? null,
    created_at: o.created_at,
    expires_at: o.expires_at,
  };
}

export function overrideRecord(row: OverrideTable): OverrideRecord {
  const record: OverrideRecord = {
    id: row.id,
    operator: row.operator,
    reason: row.reason,
    created_at: Number(row.created_at),
    expires_at: Number(row.expires_at),
  };
  if (row.session !== null) record.session = row.session;
  if (row.rule !== null) record.rule = row.rule;
  if (row.call_digest !== null) record.call_digest = row.call_digest;
  return record;
}

function epochMs(iso: string): number | null {
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? ms : null;
}
