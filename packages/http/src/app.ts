// createApp: the hono app for one gate. Everything it uses is injected (gate with its policy, store,
// clock, tokens, logger, metrics); two apps in one process share nothing.
import type { Token } from '@tollgate/contracts';
import { type Clock, DEFAULT_MAX_INPUT_BYTES, type Gate, type Store, systemClock } from '@tollgate/core';
import { Hono } from 'hono';
import { type Logger, pino } from 'pino';
import { tokenTable } from './auth.js';
import type { Deps } from './deps.js';
import type { AppEnv } from './env.js';
import { createMetrics, type Metrics } from './metrics.js';
import { authenticate, rateLimit, requestContext } from './middleware.js';
import { notFoundHandler } from './not-found.js';
import { errorProblem } from './problem.js';
import { type HttpRate, rateLimiter } from './rate-limit.js';
import { auditRoutes } from './routes/audit.js';
import { checkRoutes } from './routes/check.js';
import { dashboardRoutes } from './routes/dashboard.js';
import { type HookOptions, hookRoutes } from './routes/hooks.js';
import { metaRoutes } from './routes/meta.js';
import { observationRoutes } from './routes/observations.js';
import { outcomeRoutes } from './routes/outcome.js';
import { policyRoutes } from './routes/policy.js';
import { reviewRoutes } from './routes/reviews.js';
import { ticketRoutes } from './routes/tickets.js';

export interface AppOptions {
  gate: Gate;
  store: Store;
  tokens?: readonly Token[];
  logger?: Logger;
  /** Build with createMetrics() and hand its onDecision/onAuditError to createGate. */
  metrics?: Metrics;
  clock?: Clock;
  /** Request body limit in bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /** How the Claude Code hook rewrites `tollgate predict` and re-reads claim subjects. */
  hook?: HookOptions;
  /** Requests per token (limits.http_rate); none when absent. */
  rateLimit?: HttpRate;
}

export function createApp(options: AppOptions): Hono<AppEnv> {
  const deps: Deps = {
    gate: options.gate,
    store: options.store,
    tokens: tokenTable(options.tokens),
    logger: options.logger ?? pino({ level: 'silent' }),
    metrics: options.metrics ?? createMetrics(),
    clock: options.clock ?? systemClock,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_INPUT_BYTES,
    hook: options.hook ?? {},
  };
  const app = new Hono<AppEnv>();
  app.use('*', requestContext(deps.logger, deps.metrics));
  app.use('/v1/*', authenticate(deps.tokens));
  if (options.rateLimit !== undefined) {
    app.use('/v1/*', rateLimit(rateLimiter(options.rateLimit, deps.clock), deps.metrics));
    deps.metrics.limits({ http_rate: options.rateLimit.per_s });
  }
  checkRoutes(app, deps);
  observationRoutes(app, deps);
  ticketRoutes(app, deps);
  outcomeRoutes(app, deps);
  auditRoutes(app, deps);
  policyRoutes(app, deps);
  reviewRoutes(app, deps);
  hookRoutes(app, deps);
  metaRoutes(app, deps);
  dashboardRoutes(app);
  app.notFound(notFoundHandler(app));
  app.onError((error, c) => {
    deps.logger.error({ req_id: c.get('requestId'), err: error }, 'unhandled error');
    return errorProblem(c, error);
  });
  return app;
}
