// listAudit and getAudit through kysely, for both dialects: filters map to indexed columns; `limit`
// takes the newest rows and returns them oldest first. exportPages streams a window for export and replay.
import type { AuditRow } from '@tollgate/contracts';
import type { AuditQuery, ExportQuery } from '@tollgate/core';
import { type Kysely, PostgresAdapter, sql } from 'kysely';
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

const EXPORT_PAGE = 5000;

/**
 * Rows matching `q` oldest first, as stored JSON text, one page at a time: each page is a keyset seek
 * (seq > the last one sent), so memory stays one page and no page re-reads the ones before it.
 */
export async function* exportPages(db: Kysely<Database>, q: ExportQuery): AsyncGenerator<string[]> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (let after = 0; ; ) {
    let query = db.selectFrom('audit').select(['seq', 'doc']).where('seq', '>', after);
    if (q.session !== undefined) query = query.where('session', '=', q.session);
    if (q.agent !== undefined) query = query.where('agent', '=', q.agent);
    if (q.kind !== undefined) query = query.where('kind', '=', q.kind);
    // Unary plus: compare at_ms without its index, so the scan follows seq (the order sent).
    if (q.since !== undefined) query = query.where(sql`+at_ms`, '>=', q.since);
    if (q.until !== undefined) query = query.where(sql`+at_ms`, '<', q.until);
    const ordered = query.orderBy('seq').limit(EXPORT_PAGE);
    let docs: string[];
    let last: number | undefined;
    if (postgres) {
      // The server joins the page into one text: one row over the wire instead of thousands, each
      // parsed by the client. Stored docs are JSON, so they hold no raw newline to split on wrongly.
      const { rows } = await sql<{ n: number | string; last: number | string | null; docs: string | null }>`
        select count(*) as n, max(seq) as last, string_agg(doc, ${'\n'} order by seq) as docs
        from (${ordered}) page`.execute(db);
      const row = rows[0];
      docs = row?.docs ? row.docs.split('\n') : [];
      last = row?.last === null || row?.last === undefined ? undefined : Number(row.last);
    } else {
      const page = await ordered.execute();
      docs = page.map((r) => r.doc);
      last = page.length === 0 ? undefined : Number(page[page.length - 1]?.seq);
    }
    if (docs.length > 0) yield docs;
    if (last === undefined || docs.length < EXPORT_PAGE) return;
    after = last;
  }
}
