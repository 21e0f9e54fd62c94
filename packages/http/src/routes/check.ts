// POST /v1/check: {call, envelope?, dry_run?} → the verdict. A verdict is the answer, never an HTTP
// error: rejected and declined come back 200 with their reasons and rails, as from the library.
import type { Hono } from 'hono';
import { bindCall } from '../bind-call.js';
import { readJson } from '../body.js';
import type { Deps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { httpProblem, shapeProblem } from '../problem.js';
import { checkShape } from '../request-shape.js';

interface CheckRequest {
  call: unknown;
  envelope?: unknown;
  dry_run?: boolean;
}

export function checkRoutes(app: Hono<AppEnv>, deps: Deps): void {
  app.post('/v1/check', async (c) => {
    const body = await readJson(c, deps.maxBodyBytes);
    if (!body.ok) return body.response;
    const shape = checkShape<CheckRequest>('CheckRequest', body.value);
    if (!shape.ok) return shapeProblem(c, shape.problems);
    const bound = bindCall(c.get('principal'), shape.value.call);
    if (!bound.ok) return httpProblem(c, 'forbidden', bound.detail);
    const { envelope, dry_run } = shape.value;
    const verdict = await deps.gate.check(bound.call, {
      channel: 'http',
      ...(envelope !== undefined ? { envelope } : {}),
      ...(dry_run === true ? { dryRun: true } : {}),
    });
    return c.json(verdict);
  });
}
