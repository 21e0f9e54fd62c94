// GET /v1/rules (the loaded rules, as written) and POST /v1/overrides (operators only: a scoped,
// expiring, audited way past the gate — never a silent one).
import type { Hono } from 'hono';
import { readJson } from '../body.js';
import type { Deps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { requireOperator } from '../operator.js';
import { shapeProblem } from '../problem.js';
import { checkShape } from '../request-shape.js';

interface OverrideRequest {
  reason: string;
  ttl_s: number;
  session?: string;
  rule?: string;
  call_digest?: string;
}

export function policyRoutes(app: Hono<AppEnv>, deps: Deps): void {
  app.get('/v1/rules', (c) => c.json({ rules: deps.gate.policy.rules.map((r) => r.rule) }));

  app.post('/v1/overrides', async (c) => {
    const operator = requireOperator(c, 'overrides', 'tollgate override');
    if (!operator.ok) return operator.response;
    const body = await readJson(c, deps.maxBodyBytes);
    if (!body.ok) return body.response;
    const shape = checkShape<OverrideRequest>('OverrideRequest', body.value);
    if (!shape.ok) return shapeProblem(c, shape.problems);
    const { reason, ttl_s, session, rule, call_digest } = shape.value;
    const record = await deps.gate.override({
      operator: operator.operator,
      reason,
      ttlS: ttl_s,
      ...(session !== undefined ? { session } : {}),
      ...(rule !== undefined ? { rule } : {}),
      ...(call_digest !== undefined ? { callDigest: call_digest } : {}),
    });
    // The wire shape is the audit row's override (ISO expiry), not the store record.
    const { created_at: _created, expires_at, ...scope } = record;
    return c.json({ ...scope, expires_at: new Date(expires_at).toISOString() }, 201);
  });
}
