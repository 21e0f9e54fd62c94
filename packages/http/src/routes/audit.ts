// GET /v1/audit (rows oldest first), GET /v1/audit/verify (the hash chain), GET /v1/audit/{id} (a
// decision merged with its outcomes), GET /v1/report (calibration), POST /v1/audit/replay (what-if,
// operators). Agents read their own rows only.
import {
  auditView,
  buildReport,
  classify,
  compilePolicy,
  type Policy,
  readPolicySource,
  replayAudit,
  TollgateFault,
} from '@tollgate/core';
import type { Hono } from 'hono';
import { readJson } from '../body.js';
import type { Deps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { httpProblem, problemFor, sendProblem, shapeProblem } from '../problem.js';
import { isUlid, parseAuditQuery } from '../query.js';
import { parseWhen } from '../query-fields.js';
import { parseReportQuery } from '../report-query.js';
import { checkShape } from '../request-shape.js';
import { mayRead, scopeQuery } from '../sessions.js';

interface ReplayRequest {
  policy: string;
  since?: string | number;
  until?: string | number;
  limit?: number;
}

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
    const parsed = parseReportQuery(c.req.query());
    if (!parsed.ok) return shapeProblem(c, parsed.problems);
    const scoped = scopeQuery(c.get('principal'), parsed.query);
    if (!scoped.ok) return httpProblem(c, 'forbidden', scoped.detail);
    return c.json(
      await buildReport(deps.store, scoped.query, {
        now: deps.clock.now(),
        ruleIds: deps.gate.policy.rules.map((r) => r.rule.id),
      }),
    );
  });

  app.post('/v1/audit/replay', async (c) => {
    const principal = c.get('principal');
    // Every agent's recorded calls: for operators (and open mode, where every caller reads everything).
    if (principal.agent !== undefined && !principal.operator)
      return httpProblem(c, 'forbidden', 'replaying the audit under another policy is for operators');
    const body = await readJson(c, deps.maxBodyBytes);
    if (!body.ok) return body.response;
    const shape = checkShape<ReplayRequest>('ReplayRequest', body.value);
    if (!shape.ok) return shapeProblem(c, shape.problems);
    const { policy: text, since, until, limit } = shape.value;
    const window: { since?: number; until?: number } = {};
    for (const [key, value] of [
      ['since', since],
      ['until', until],
    ] as const) {
      if (value === undefined) continue;
      const ms = typeof value === 'number' ? value : parseWhen(value);
      if (ms === undefined)
        return shapeProblem(c, [
          { path: `/${key}`, message: `${key} must be an ISO 8601 date-time or epoch milliseconds` },
        ]);
      window[key] = ms;
    }
    let policy: Policy;
    try {
      policy = compilePolicy([readPolicySource('builtin:files'), { file: 'replay-policy.yaml', text }]);
    } catch (error) {
      if (error instanceof TollgateFault) return sendProblem(c, problemFor(error.code, 422, error.message));
      throw error;
    }
    const result = await replayAudit(
      deps.store.exportAudit({ ...window, kind: 'decision' }),
      (call) => classify(policy, call),
      { ...window, ...(limit !== undefined ? { limit } : {}) },
    );
    return c.json(result);
  });
}
