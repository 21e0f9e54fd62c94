// POST /v1/observations: a client posts a read it made. The gate did not see it happen, so it is
// recorded with attested: false, and rules that want attested reads refuse it as evidence.
import type { ObservationInput } from '@tollgate/contracts';
import { validate } from '@tollgate/contracts';
import { isFault } from '@tollgate/core';
import type { Hono } from 'hono';
import { readJson } from '../body.js';
import type { Deps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { errorProblem, httpProblem, shapeProblem } from '../problem.js';
import { scopeSession } from '../sessions.js';

export function observationRoutes(app: Hono<AppEnv>, deps: Deps): void {
  app.post('/v1/observations', async (c) => {
    const body = await readJson(c, deps.maxBodyBytes);
    if (!body.ok) return body.response;
    const input = validate<ObservationInput>('observation-input', body.value);
    if (!input.valid) return shapeProblem(c, input.problems);
    const principal = c.get('principal');
    const { session, agent, source, output, exit_code } = input.data;
    if (principal.agent !== undefined && agent !== undefined && agent !== principal.agent)
      return httpProblem(c, 'forbidden', `this token acts for agent ${JSON.stringify(principal.agent)}`);
    const scoped = scopeSession(principal, session);
    if (!scoped.ok) return httpProblem(c, 'forbidden', scoped.detail);
    const actor = principal.agent ?? agent;
    try {
      const observation = await deps.gate.recordObservation({
        session: scoped.session,
        source,
        output,
        recordedBy: 'http',
        attested: false,
        ...(actor !== undefined ? { agent: actor } : {}),
        ...(exit_code !== undefined ? { exit_code } : {}),
      });
      return c.json(observation, 201);
    } catch (error) {
      if (!isFault(error)) deps.metrics.ledgerError();
      return errorProblem(c, error);
    }
  });
}
