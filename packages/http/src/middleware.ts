// Request-wide middleware: a request id and one log line for every request (method, route, status,
// time — never headers, query strings or bodies), then bearer authentication for /v1.
import { randomBytes } from 'node:crypto';
import { HOST_NAMES } from '@tollgate/hooks';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { Logger } from 'pino';
import type { TokenTable } from './auth.js';
import type { AppEnv } from './env.js';
import type { Metrics } from './metrics.js';
import { httpProblem } from './problem.js';
import type { RateLimiter } from './rate-limit.js';

export const HOOK_PATH = '/v1/hooks/claude-code';
/** Every host's hook route: each answers its refusals as that host's decision, so each authenticates itself. */
export const HOOK_PATHS: ReadonlySet<string> = new Set(
  ['claude-code', ...HOST_NAMES].map((host) => `/v1/hooks/${host}`),
);

const REQUEST_ID = /^[\w.:-]{1,64}$/;

export function requestContext(logger: Logger, metrics: Metrics): MiddlewareHandler<AppEnv> {
  // Ids are this app's random prefix plus a counter: unique per process, and no entropy per request.
  const prefix = randomBytes(6).toString('hex');
  let seq = 0;
  return async (c, next) => {
    const started = performance.now();
    const given = c.req.header('x-request-id');
    const id = given !== undefined && REQUEST_ID.test(given) ? given : `${prefix}-${(seq++).toString(36)}`;
    c.set('requestId', id);
    // Set before the handler builds its response: setting it after would make the node adapter
    // materialise a full web Response just to add one header.
    c.header('x-request-id', id);
    await next();
    const seconds = (performance.now() - started) / 1000;
    const route = routePath(c, -1);
    const status = c.res.status;
    metrics.request(c.req.method, route === '/*' || route === '*' ? '(unmatched)' : route, status, seconds);
    const entry = {
      method: c.req.method,
      route,
      path: c.req.path.slice(0, 200),
      status,
      ms: Math.round(seconds * 1e5) / 100,
    };
    if (status >= 500) logger.error({ req_id: id, ...entry }, 'request failed');
    else logger.info({ req_id: id, ...entry }, 'request');
  };
}

export function authenticate(tokens: TokenTable): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // The hook route answers every refusal as a hook decision, so it authenticates itself.
    if (HOOK_PATHS.has(c.req.path)) return next();
    const principal = tokens.authenticate(c.req.header('authorization'));
    if (!principal) {
      const detail =
        c.req.header('authorization') === undefined
          ? 'send Authorization: Bearer <token>'
          : 'the bearer token is not valid';
      return httpProblem(c, 'unauthorized', detail, { 'www-authenticate': 'Bearer realm="tollgate"' });
    }
    if (principal.hook === true)
      return httpProblem(
        c,
        'forbidden',
        'this token is a hook credential (hook: true): it may only call POST /v1/hooks/<host> (claude-code, codex, gemini, cursor, copilot)',
      );
    c.set('principal', principal);
    await next();
  };
}

/**
 * limits.http_rate: after authentication, one bucket per agent (the open principal shares one). The
 * hook route answers as hook decisions and is left to its own authentication.
 */
export function rateLimit(limiter: RateLimiter, metrics: Metrics): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (HOOK_PATHS.has(c.req.path)) return next();
    const admitted = limiter.take(c.get('principal')?.agent ?? '(open)');
    if (admitted.ok) return next();
    metrics.limitRefused('http_rate');
    const seconds = String(admitted.retryAfterS);
    return httpProblem(
      c,
      'rate_limited',
      `this token sent more requests than limits.http_rate allows; retry in ${seconds} s`,
      { 'retry-after': seconds },
    );
  };
}
