// The downstream over Streamable HTTP at http://127.0.0.1:PORT/mcp: one transport and one Server per
// MCP session, created on an initialize request. Only loopback Host and Origin headers are accepted
// (DNS rebinding), bodies are bounded, and every bad request gets a JSON-RPC error body.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { ProxyContext } from './context.js';
import type { Downstream } from './downstream-stdio.js';
import { readJsonBody } from './http-body.js';
import { createSessionServer } from './session-server.js';

export const MCP_PATH = '/mcp';
const MAX_SESSIONS = 1000;

export interface HttpDownstream extends Downstream {
  port: number;
  url: string;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  close(): Promise<void>;
  toolsChanged(): void;
}

export async function serveHttp(
  ctx: ProxyContext,
  port: number,
  host = '127.0.0.1',
): Promise<HttpDownstream> {
  const sessions = new Map<string, Session>();
  let bound = port;
  const http = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      ctx.log(`HTTP ${req.method} ${req.url}: ${(error as Error).message}`);
      if (!res.headersSent) rpcError(res, 500, -32603, 'internal error in the proxy');
      else res.end();
    });
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== MCP_PATH) return rpcError(res, 404, -32600, `not found: the MCP endpoint is ${MCP_PATH}`);
    if (
      !loopback(req.headers.host, bound) ||
      (req.headers.origin && !loopback(originHost(req.headers.origin), bound))
    ) {
      return rpcError(res, 403, -32600, 'forbidden: only loopback Host and Origin headers are accepted');
    }
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const session = sessions.get(id);
      if (!session)
        return rpcError(
          res,
          404,
          -32001,
          `unknown or closed MCP session ${id.slice(0, 80)}; initialize again`,
        );
      return session.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST')
      return rpcError(res, 400, -32600, 'no mcp-session-id header: start with an initialize POST');
    const body = await readJsonBody(req);
    if (!body.ok) return rpcError(res, body.status, -32700, body.message);
    if (!isInitializeRequest(body.value)) {
      return rpcError(res, 400, -32600, 'no mcp-session-id header: the first request must be initialize');
    }
    if (sessions.size >= MAX_SESSIONS)
      return rpcError(res, 503, -32603, 'too many open MCP sessions; close some');
    const server = createSessionServer(ctx, `mcp-http-${randomUUID()}`);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => {
        sessions.set(sid, {
          transport,
          close: () => server.close().catch(() => {}),
          toolsChanged: () => void server.sendToolListChanged().catch(() => {}),
        });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body.value);
  }

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  bound = (http.address() as AddressInfo).port;
  const closed = new Promise<void>((resolve) => http.once('close', () => resolve()));
  return {
    port: bound,
    url: `http://${host}:${bound}${MCP_PATH}`,
    closed,
    toolsChanged: () => {
      for (const session of sessions.values()) session.toolsChanged();
    },
    async close() {
      await Promise.all([...sessions.values()].map((s) => s.close()));
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function loopback(hostHeader: string | undefined, port: number): boolean {
  if (!hostHeader) return false;
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`].includes(hostHeader.toLowerCase());
}

function originHost(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

function rpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
