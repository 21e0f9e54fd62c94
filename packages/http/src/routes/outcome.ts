// POST /v1/calls/{audit_id}/outcome: what happened after a dispatched call, and the observed values
// of its claim subjects; core evaluates the claims and appends the outcome row.
import type { Outcome } from '@tollgate/contracts';
import { validate } from '@tollgate/contracts';
import type { Hono } from 'hono';
import { readJson } from '../body.js';
import type { Deps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { errorProblem, httpProblem, problemFor, sendProblem, shapeProblem } from '../problem.js';
import { isUlid } from '../query.js';
import { owns } from '../sessions.js';

export function outcomeRoutes(app: Hono<AppEnv>, deps: Deps): void {
  app.post('/v1/calls/:audit_id/outcome', async (c) => {
    const id = c.req.param('audit_id');
    if (!isUlid(id)) return httpProblem(c, 'invalid_id', `${JSON.stringify(id.slice(0, 64))} is not a ULID`);
    const body = await readJson(c, deps.maxBodyBytes);
    if (!body.ok) return body.response;
    const outcome = validate<Outcome>('outcome', body.value);
    if (!outcome.valid) return shapeProblem(c, outcome.problems);
    const row = await deps.store.getAudit(id);
    if (!row || !owns(c.get('principal'), row.agent))
      return sendProblem(c, problemFor('not_found', 404, `no decision row ${id}`));
    try {
      const result = await deps.gate.recordOutcome(id, outcome.data);
      return c.json(result, 201);
    } catch (error) {
      return errorProblem(c, error);
    }
  });
}
