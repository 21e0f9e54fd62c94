// tollgate serve: the HTTP service and dashboard over this directory's config, policy and store.
// Runs until SIGTERM or SIGINT, then drains in-flight requests, flushes and closes the store.
import { DEFAULT_SESSION_LIMITS } from '@tollgate/core';
import { shellProbe } from '@tollgate/hooks';
import { assertBindable, createApp, createMetrics, serviceLogger, startServer } from '@tollgate/http';
import { intOption, option, type ParsedArgs } from '../args.js';
import type { CommandIO } from '../command.js';
import { UsageError } from '../errors.js';
import { notifyTargets } from '../notify.js';
import { type NotifyPump, notifyPump } from '../notify-pump.js';
import { findConfig, openRuntime, sessionLimitsOf, storeEnv } from '../runtime.js';
import { defineCommand } from '../support.js';

export const command = defineCommand(
  {
    name: 'serve',
    summary: 'the HTTP service and dashboard',
    options: { host: 'string', port: 'string' },
    usage: `
Usage: tollgate serve [--host 127.0.0.1] [--port 8787]

Serves the gate over HTTP (/v1/..., /openapi.json, /metrics, /healthz) and the dashboard at /.
Logs are JSON lines on stdout (TOLLGATE_LOG_LEVEL, default info); the first says where it listens.

With no tokens in tollgate.config.yaml the service is open and only binds to loopback; to bind
elsewhere, configure tokens: [{token, agent, sessions?, operator?, hook?}]. Claude Code's http hook
(POST /v1/hooks/claude-code) records PostToolUse reads as attested observations only when it
presents a token with hook: true; such a token may call nothing else. Any other token's (or open
mode's) hook reads are recorded as not attested: its holder could post a made-up tool_response.
A sessions grant is an exact name or a specific prefix ("release-*"); "*", empty grants, short or
hex-only prefixes and the MCP proxy's mcp-stdio-/mcp-http- names are refused at start, and the agent
names claude-code, tollgate-mcp and tollgate are reserved for the adapters.
SIGTERM/SIGINT: stop accepting, finish in-flight requests, flush audit rows, close the store.
`,
  },
  async (args: ParsedArgs, io: CommandIO) => {
    const host = option(args, 'host') ?? '127.0.0.1';
    const port = intOption(args, 'port', 0) ?? 8787;
    if (port > 65535) throw new UsageError(`--port must be at most 65535, got ${port}`, 'e.g. --port 8787');
    const config = findConfig(io.cwd, io.env).config;
    const tokens = config.tokens ?? [];
    assertBindable(host, tokens.length > 0);
    const metrics = createMetrics({ defaults: true });
    let pump: NotifyPump | undefined;
    const runtime = await openRuntime({
      cwd: io.cwd,
      env: io.env,
      channel: 'http',
      kickNotify: () => pump?.kick(),
      gate: {
        onDecision: metrics.onDecision,
        onAuditError: metrics.onAuditError,
        onLimit: metrics.limitRefused,
      },
    });
    const limits = { ...DEFAULT_SESSION_LIMITS, ...sessionLimitsOf(runtime.loaded.config.limits) };
    metrics.limits({
      session_observations: limits.observations,
      session_excerpt_bytes: limits.excerptBytes,
      session_pending_tickets: limits.pendingTickets,
    });
    const logger = serviceLogger(io.stdout, io.env.TOLLGATE_LOG_LEVEL || 'info');
    // Review notices queued here or by hook processes: delivered and retried in-process (notify.ts).
    const dashboardUrl = runtime.loaded.config.notify?.dashboard_url;
    pump = notifyPump({
      store: () => runtime.store,
      targets: notifyTargets(runtime.loaded.config),
      ...(dashboardUrl !== undefined ? { dashboardUrl } : {}),
      onFailure: (n, error, final) =>
        logger.warn(
          { review: n.review_id, webhook: n.target, attempts: n.attempts, error, gave_up: final },
          'review notice failed',
        ),
    });
    const app = createApp({
      gate: runtime.gate,
      store: runtime.store,
      tokens,
      logger,
      metrics,
      ...(config.limits?.http_rate !== undefined ? { rateLimit: config.limits.http_rate } : {}),
      hook: {
        self: [process.execPath, process.argv[1] ?? 'tollgate'],
        storeEnv: storeEnv(runtime.loaded, io.env),
        cwd: io.cwd,
        // Re-reading claim subjects runs commands on this host: only for the local, open service.
        ...(tokens.length === 0 ? { probe: shellProbe } : {}),
      },
    });
    let server: Awaited<ReturnType<typeof startServer>>;
    try {
      server = await startServer({
        fetch: app.fetch,
        host,
        port,
        tokensConfigured: tokens.length > 0,
        onDrained: async () => {
          await pump?.stop();
          await runtime.close();
        },
      });
    } catch (error) {
      await pump.stop();
      await runtime.close();
      throw error;
    }
    logger.info({ url: server.url, tokens: tokens.length, mode: runtime.gate.mode }, 'listening');
    const signal = await new Promise<string>((resolve) => {
      process.once('SIGTERM', () => resolve('SIGTERM'));
      process.once('SIGINT', () => resolve('SIGINT'));
    });
    logger.info({ signal }, 'draining');
    await server.close();
    logger.info('stopped');
    return 0;
  },
);
