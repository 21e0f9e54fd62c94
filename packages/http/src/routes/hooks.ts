// POST /v1/hooks/claude-code: Claude Code's `http` hook type. The translation is the one the CLI hook
// uses; this route only decodes the body and scopes the session. An http hook blocks only through a
// 2xx JSON decision, so the route answers 200 with the hook's JSON whenever it decided.
import type { Hono } from 'hono';
import { readJson } from '../body.js';
import type { Deps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { httpProblem } from '../problem.js';
import { scopeSession } from '../sessions.js';

export function hookRoutes(app: Hono<AppEnv>, deps: Deps): void {
  app.post('/v1/hooks/claude-code', async (c) => {
    const { hook } = deps;
    if (!hook) return c.json({ type: 'about:blank', title: 'not configured', status: 501 }, 501);
    const body = await readJson(c, deps.maxBodyBytes);
    if (!body.ok) return body.response;
    const principal = c.get('principal');
    const answer = await hook(deps.gate, body.value, {
      session: (session) => scopeSession(principal, session),
      ...(principal.agent !== undefined ? { agent: principal.agent } : {}),
    });
    if (answer === undefined) return httpProblem(c, 'forbidden', 'session not allowed for this token');
    return c.json(answer as object);
  });
}
