// Who may act as an operator over HTTP: someone an operator token names, in every mode. In open mode
// (no tokens) every loopback caller, the agent included, would otherwise be one and could let itself
// through its own gate (an override, an approval of its own review).
import type { Context } from 'hono';
import type { AppEnv } from './env.js';
import { httpProblem } from './problem.js';

/**
 * The operator's name, or the 403 to send. `doing` completes "… need an operator token"; `command` is
 * what a person runs in their own terminal instead.
 */
export function requireOperator(
  c: Context<AppEnv>,
  doing: string,
  command: string,
): { ok: true; operator: string } | { ok: false; response: Response } {
  const principal = c.get('principal');
  if (principal.agent === undefined)
    return {
      ok: false,
      response: httpProblem(
        c,
        'forbidden',
        `${doing} over HTTP need an operator token, and this server runs in open mode (no tokens configured), so it grants none. To configure one: add to tollgate.config.yaml \`tokens: [{ token: "<a long random secret>", agent: ops, operator: true }]\`, accept that change at a terminal (\`tollgate config accept\`), restart tollgate serve, and send \`Authorization: Bearer <that secret>\`; or let a person run \`${command}\` in their own terminal`,
      ),
    };
  if (!principal.operator)
    return { ok: false, response: httpProblem(c, 'forbidden', `${doing} need an operator token`) };
  return { ok: true, operator: principal.agent };
}
