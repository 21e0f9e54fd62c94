// Test support: the app over a real SQLite file with the tests' rule file and a hand-moved clock,
// served on an ephemeral 127.0.0.1 port. Only the clock is fake.
import type { Token } from '@tollgate/contracts';
import type { Gate, SessionLimits, Store } from '@tollgate/core';
import { pino } from 'pino';
import { type ManualClock, openTestGate } from '../../../../test/support/gate.js';
import { createApp } from '../app.js';
import { createMetrics, type Metrics } from '../metrics.js';
import type { HttpRate } from '../rate-limit.js';
import type { HookOptions } from '../routes/hooks.js';
import { startServer } from '../server.js';

export interface TestServer {
  url: string;
  gate: Gate;
  store: Store;
  clock: ManualClock;
  metrics: Metrics;
  dbPath: string;
  /** fetch against the server with JSON in and the parsed body out. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  close(): Promise<void>;
}

export interface Reply {
  status: number;
  type: string;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read reply fields directly and assert on them
  body: any;
}

export interface TestServerOptions {
  tokens?: Token[];
  hook?: HookOptions;
  policies?: string[];
  maxBodyBytes?: number;
  logs?: string[];
  rateLimit?: HttpRate;
  limits?: Partial<SessionLimits>;
}

export async function serveTestApp(options: TestServerOptions = {}): Promise<TestServer> {
  const metrics = createMetrics();
  const tg = await openTestGate({
    onDecision: metrics.onDecision,
    onAuditError: metrics.onAuditError,
    channel: 'http',
    onLimit: metrics.limitRefused,
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.policies ? { policies: options.policies } : {}),
  });
  const logs = options.logs;
  const logger = logs
    ? pino({ level: 'debug' }, { write: (line: string) => void logs.push(line) })
    : pino({ level: 'silent' });
  const app = createApp({
    gate: tg.gate,
    store: tg.store,
    clock: tg.clock,
    logger,
    metrics,
    ...(options.tokens ? { tokens: options.tokens } : {}),
    ...(options.hook ? { hook: options.hook } : {}),
    ...(options.maxBodyBytes ? { maxBodyBytes: options.maxBodyBytes } : {}),
    ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
  });
  const server = await startServer({
    fetch: app.fetch,
    port: 0,
    tokensConfigured: (options.tokens ?? []).length > 0,
    onDrained: () => tg.close(),
  });
  return {
    url: server.url,
    gate: tg.gate,
    store: tg.store,
    clock: tg.clock,
    metrics,
    dbPath: tg.dbPath,
    async call(method, path, body, headers = {}) {
      const init: RequestInit = { method, headers: { ...headers } };
      if (body !== undefined) {
        init.body = typeof body === 'string' ? body : JSON.stringify(body);
        (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
      }
      const res = await fetch(`${server.url}${path}`, init);
      const text = await res.text();
      const type = res.headers.get('content-type') ?? '';
      return {
        status: res.status,
        type,
        headers: res.headers,
        body: type.includes('json') && text ? JSON.parse(text) : text,
      };
    },
    close: () => server.close(),
  };
}
