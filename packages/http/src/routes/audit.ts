// GET /v1/audit (rows oldest first), GET /v1/audit/verify (the hash chain), GET /v1/audit/{id} (a
// decision merged with its outcomes), GET /v1/report (calibration). Agents read their own rows only.
import { auditView, buildReport } from '@tollgate/core';
import type { Hono } from 'hono';
import type { Deps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { httpProblem, problemFor, sendProblem, shapeProblem } from '../problem.js';
import { isUlid, parseAuditQuery } from '../query.js';
import { mayRead, scopeQuery } from '../sessions.js';

export function auditRoutes(app: Hono<AppEnv>, deps: Deps): void {
  app.get('/v1/audit', async (c) => {
    const parsed = parseAuditQuery(c.req.query(), true);
    if (!parsed.ok) return shapeProblem(c, parsed.problems);
    const scoped = scopeQuery(c.get('principal'), parsed.query);
    if (!scoped.ok) return httpProblem(c, 'forbidden', scoped.detail);
    return c.json(await deps.store.listAudit(scoped.query));
  });

  app.get('/v1/audit/verify', async (c) => {
    if (!c.get('principal').operator)
      return httpProblem(c, 'forbidden', 'verifying the whole chain is for operators');
    return c.json(await deps.store.verifyAudit());
  });

  app.get('/v1/audit/:id', async (c) => {
    const id = c.req.param('id');
    if (!isUlid(id)) return httpProblem(c, 'invalid_id', `${JSON.stringify(id.slice(0, 64))} is not a ULID`);
    const view = await auditView(deps.store, id);
    if (!view || !mayRead(c.get('principal'), view.agent))
      return sendProblem(c, problemFor('not_found', 404, `no audit row ${id}`));
    return c.json(view);
  });

  app.get('/v1/report', async (c) => {
    const parsed = parseAuditQuery(c.req.query(), false);
    if (!parsed.ok) return shapeProblem(c, parsed.problems);
    const scoped = scopeQuery(c.get('principal'), parsed.query);
    if (!scoped.ok) return httpProblem(c, 'forbidden', scoped.detail);
    return c.json(await buildReport(deps.store, scoped.query, deps.clock.now()));
  });
}
