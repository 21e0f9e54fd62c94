// The node server around an app, with graceful shutdown: close() stops accepting, lets in-flight
// requests finish (their responses say Connection: close), then runs onDrained (flush the gate's
// write-behind rows, close the store). A request the server acknowledged has its rows stored.

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer, type HttpBindings } from '@hono/node-server';
import { assertBindable } from './bind.js';

export interface ServeOptions {
  fetch: (request: Request, env: HttpBindings) => Response | Promise<Response>;
  host?: string;
  port?: number;
  tokensConfigured: boolean;
  /** Runs once every connection has closed: flush and close the store here. */
  onDrained?: () => Promise<void>;
  /** After this long, connections still open are cut (default 10 s). */
  drainTimeoutMs?: number;
}

export interface RunningServer {
  url: string;
  host: string;
  port: number;
  /** Drains and closes; safe to call more than once. */
  close(): Promise<void>;
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  assertBindable(host, options.tokensConfigured);
  let draining = false;
  const server = createAdaptorServer({
    fetch: (request, env) => {
      if (draining) (env as HttpBindings).outgoing.setHeader('connection', 'close');
      return options.fetch(request, env as HttpBindings);
    },
  }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8787, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= drain(server, options.drainTimeoutMs ?? 10_000, () => {
      draining = true;
    }).then(() => options.onDrained?.());
    return closing;
  };
  const shown = host.includes(':') ? `[${host}]` : host;
  return { url: `http://${shown}:${port}`, host, port, close };
}

function drain(server: Server, timeoutMs: number, start: () => void): Promise<void> {
  start();
  return new Promise((resolve) => {
    const idle = setInterval(() => server.closeIdleConnections(), 50);
    const cut = setTimeout(() => server.closeAllConnections(), timeoutMs);
    server.close(() => {
      clearInterval(idle);
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
  });
}
