// The downstream over stdio: one connection for the life of the process. The SDK transport does not
// notice the client going away, so the end of stdin closes the connection (and with it the proxy).
import { randomUUID } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { ProxyContext } from './context.js';
import { createSessionServer } from './session-server.js';
import { guardedStdin } from './stdin-guard.js';

export interface Downstream {
  /** Resolves when the last client has gone (stdio) or the listener closed (HTTP). */
  closed: Promise<void>;
  /** Tells every connected client that the tool list changed. */
  toolsChanged(): void;
  close(): Promise<void>;
}

export async function serveStdio(ctx: ProxyContext, raw: Readable, stdout: Writable): Promise<Downstream> {
  const stdin = guardedStdin(raw, stdout);
  const server = createSessionServer(ctx, `mcp-stdio-${randomUUID()}`);
  const transport = new StdioServerTransport(stdin, stdout);
  let finish: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    finish = resolve;
  });
  server.onclose = () => finish();
  const close = async () => {
    await server.close().catch(() => {});
    finish();
  };
  stdin.once('end', () => void close());
  stdin.once('close', () => void close());
  await server.connect(transport);
  return {
    closed,
    toolsChanged: () => void server.sendToolListChanged().catch(() => {}),
    close,
  };
}
