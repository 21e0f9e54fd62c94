// The MCP client side: one connection to the upstream server (a child over stdio, or a Streamable
// HTTP URL), reconnected on demand after it dies, so a crashed upstream costs one failed call and
// never the proxy. No client capabilities are declared: declaring `roots` would let this proxy's
// (empty) roots replace the directories a filesystem server was started with.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type CallToolRequest,
  type CallToolResult,
  CallToolResultSchema,
  type ListToolsResult,
  type Progress,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { PROXY_NAME, PROXY_VERSION } from './identity.js';

export type UpstreamSpec =
  | { command: string; args?: string[]; env?: Record<string, string>; cwd?: string }
  | { url: string; headers?: Record<string, string> };

export interface UpstreamOptions {
  /** The upstream's tool list changed (it said so, or it was restarted). */
  onToolsChanged?: (() => void) | undefined;
  log?: (line: string) => void;
  connectTimeoutMs?: number;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs: number;
  onprogress?: (progress: Progress) => void;
}

export class UpstreamUnavailable extends Error {
  override name = 'UpstreamUnavailable';
}

export class Upstream {
  private client: Client | undefined;
  private connecting: Promise<Client> | undefined;
  private closed = false;
  private everConnected = false;

  private constructor(
    readonly spec: UpstreamSpec,
    private readonly options: UpstreamOptions,
  ) {}

  static async connect(spec: UpstreamSpec, options: UpstreamOptions = {}): Promise<Upstream> {
    const upstream = new Upstream(spec, options);
    await upstream.ready();
    return upstream;
  }

  /** The upstream's own name, as it introduced itself. */
  get serverName(): string | undefined {
    return this.client?.getServerVersion()?.name;
  }

  get instructions(): string | undefined {
    return this.client?.getInstructions();
  }

  set onToolsChanged(handler: (() => void) | undefined) {
    this.options.onToolsChanged = handler;
  }

  async listTools(cursor?: string): Promise<ListToolsResult> {
    const client = await this.ready();
    return client.listTools(cursor === undefined ? {} : { cursor });
  }

  /** Forwards a call verbatim: no client-side output validation, the downstream client judges. */
  async callTool(params: CallToolRequest['params'], options: CallOptions): Promise<CallToolResult> {
    const client = await this.ready();
    return client.request({ method: 'tools/call', params }, CallToolResultSchema, {
      timeout: options.timeoutMs,
      // A call that reports progress is alive; the hard cap still ends one that never finishes.
      resetTimeoutOnProgress: true,
      maxTotalTimeout: options.timeoutMs * 10,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onprogress ? { onprogress: options.onprogress } : {}),
    }) as Promise<CallToolResult>;
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => {});
  }

  private ready(): Promise<Client> {
    if (this.closed) return Promise.reject(new UpstreamUnavailable('the proxy is shutting down'));
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async open(): Promise<Client> {
    const client = new Client({ name: PROXY_NAME, version: PROXY_VERSION }, { capabilities: {} });
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () =>
      this.options.onToolsChanged?.(),
    );
    client.onclose = () => {
      if (this.client !== client) return;
      this.client = undefined;
      if (!this.closed) this.options.log?.('upstream closed the connection; the next call reconnects');
    };
    const timeout = this.options.connectTimeoutMs ?? 30_000;
    try {
      await client.connect(await this.transport(), { timeout });
    } catch (error) {
      await client.close().catch(() => {});
      throw new UpstreamUnavailable(`cannot start or reach the upstream server: ${messageOf(error)}`);
    }
    const restarted = this.everConnected;
    this.everConnected = true;
    this.client = client;
    // A restarted server may list other tools than the one that died.
    if (restarted) this.options.onToolsChanged?.();
    return client;
  }

  private async transport(): Promise<Transport> {
    const spec = this.spec;
    if ('url' in spec) {
      // Loaded only for URL upstreams: its SSE parser dependency publishes a "source" export
      // condition (TypeScript files) that collides with this repository's own condition name.
      const { StreamableHTTPClientTransport } = await import(
        '@modelcontextprotocol/sdk/client/streamableHttp.js'
      );
      return new StreamableHTTPClientTransport(new URL(spec.url), {
        ...(spec.headers ? { requestInit: { headers: spec.headers } } : {}),
      });
    }
    // The SDK hands a child only HOME, PATH and a few more unless told; servers need their own
    // variables (MEMORY_FILE_PATH, tokens), so the proxy's whole environment is forwarded.
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
    return new StdioClientTransport({
      command: spec.command,
      args: spec.args ?? [],
      env: { ...env, ...spec.env },
      stderr: 'inherit',
      ...(spec.cwd !== undefined ? { cwd: spec.cwd } : {}),
    });
  }
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
