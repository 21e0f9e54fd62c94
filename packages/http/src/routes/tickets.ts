// POST /v1/predictions and /v1/declines: file a document for a call ahead of it. Checked now so the
// agent hears about problems at once (422/409 with core's reasons), and again when the call arrives.
import { isFault } from '@tollgate/core';
import type { Hono } from 'hono';
import { bindCall } from '../bind-call.js';
import { readJson } from '../body.js';
import type { Deps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { errorProblem, httpProblem, reasonsProblem, shapeProblem } from '../problem.js';
import { checkShape } from '../request-shape.js';

const KINDS = [
  { path: '/v1/predictions', shape: 'PredictionRequest', field: 'prediction' },
  { path: '/v1/declines', shape: 'DeclineRequest', field: 'decline' },
] as const;

export function ticketRoutes(app: Hono<AppEnv>, deps: Deps): void {
  for (const kind of KINDS) {
    app.post(kind.path, async (c) => {
      const body = await readJson(c, deps.maxBodyBytes);
      if (!body.ok) return body.response;
      const shape = checkShape<Record<string, unknown>>(kind.shape, body.value);
      if (!shape.ok) return shapeProblem(c, shape.problems);
      const bound = bindCall(c.get('principal'), shape.value.call);
      if (!bound.ok) return httpProblem(c, 'forbidden', bound.detail);
      const doc = shape.value[kind.field];
      try {
        const result =
          kind.field === 'prediction'
            ? await deps.gate.recordPrediction(bound.call, doc)
            : await deps.gate.recordDecline(bound.call, doc);
        if (!result.ok) return reasonsProblem(c, result.reasons);
        return c.json(result, result.id === undefined ? 200 : 201);
      } catch (error) {
        if (!isFault(error)) deps.metrics.ledgerError();
        return errorProblem(c, error);
      }
    });
  }
}
