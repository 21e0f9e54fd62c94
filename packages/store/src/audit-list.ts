// listAudit and getAudit through kysely, for both dialects: filters map to indexed columns; `limit`
// takes the newest rows and returns them oldest first.
import type { AuditRow } from '@tollgate/contracts';
import type { AuditQuery } from '@tollgate/core';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export async function listAudit(db: Kysely<Database>, q: AuditQuery): Promise<AuditRow[]> {
  let query = db.selectFrom('audit').select('doc');
  if (q.session !== undefined) query = query.where('session', '=', q.session);
  if (q.agent !== undefined) query = query.where('agent', '=', q.agent);
  if (q.kind !== undefined) query = query.where('kind', '=', q.kind);
  if (q.ref !== undefined) query = query.where('ref', '=', q.ref);
  if (q.since !== undefined) query = query.where('at_ms', '>=', q.since);
  const rows =
    q.limit === undefined
      ? await query.orderBy('seq', 'asc').execute()
      : (
          await query
            .orderBy('seq', 'desc')
            .limit(Math.max(0, Math.floor(q.limit)))
            .execute()
        ).reverse();
  return rows.map((r) => JSON.parse(r.doc) as AuditRow);
}

export async function getAudit(db: Kysely<Database>, id: string): Promise<AuditRow | undefined> {
  const row = await db.selectFrom('audit').select('doc').where('id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : (JSON.parse(row.doc) as AuditRow);
}
