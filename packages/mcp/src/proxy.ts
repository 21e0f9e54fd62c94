// startProxy: the MCP predict-or-decline proxy. It connects the upstream, builds (or takes) the gate
// with the upstream's annotations as hints, and serves the client over stdio or Streamable HTTP.
import type { Readable, Writable } from 'node:stream';
import type { Gate, ToolHints } from '@tollgate/core';
import { ArgsValidator } from './args-validator.js';
import { ToolCatalogue } from './catalogue.js';
import { DEFAULT_CALL_TIMEOUT_MS, type ProxyContext } from './context.js';
import { serveHttp } from './downstream-http.js';
import { type Downstream, serveStdio } from './downstream-stdio.js';
import { Upstream, type UpstreamSpec } from './upstream.js';

export type GateFactory = (toolHints: (tool: string) => ToolHints | undefined) => Gate | Promise<Gate>;

export interface ProxyOptions {
  /** The upstream MCP server: a command to spawn, a Streamable HTTP URL, or a connected Upstream. */
  upstream: UpstreamSpec | Upstream;
  /** A gate, or a function that builds one from the upstream's annotations (so probes of
   * annotation-only reads work). Build it with channel 'mcp' for MCP-worded rails. */
  gate: Gate | GateFactory;
  /** 'stdio' (process stdin/stdout unless `stdio` is given) or Streamable HTTP on 127.0.0.1. */
  downstream: 'stdio' | { listen: number; host?: string };
  stdio?: { stdin: Readable; stdout: Writable };
  /** Pins every call to this session (otherwise the connection, split by _meta ids; see session.ts). */
  session?: string;
  /** Deadline for one upstream call, reset by progress (default 60 s). */
  callTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface RunningProxy {
  gate: Gate;
  upstream: Upstream;
  /** The Streamable HTTP endpoint, when listening. */
  url?: string;
  port?: number;
  /** Resolves when the downstream has gone (stdin closed) or the listener closed. */
  closed: Promise<void>;
  close(): Promise<void>;
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const log = options.log ?? (() => {});
  let downstream: Downstream | undefined;
  let catalogue: ToolCatalogue | undefined;
  const onToolsChanged = () => {
    catalogue?.invalidate();
    downstream?.toolsChanged();
  };
  const upstream =
    options.upstream instanceof Upstream
      ? options.upstream
      : await Upstream.connect(options.upstream, { onToolsChanged, log });
  upstream.onToolsChanged = onToolsChanged;
  catalogue = new ToolCatalogue(upstream);
  try {
    const gate = typeof options.gate === 'function' ? await options.gate(catalogue.hints) : options.gate;
    const ctx: ProxyContext = {
      gate,
      upstream,
      catalogue,
      validator: new ArgsValidator(log),
      callTimeoutMs: options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
      pinnedSession: options.session,
      log,
    };
    const d = options.downstream;
    const http = d === 'stdio' ? undefined : await serveHttp(ctx, d.listen, d.host);
    const running =
      http ??
      (await serveStdio(ctx, options.stdio?.stdin ?? process.stdin, options.stdio?.stdout ?? process.stdout));
    downstream = running;
    return {
      gate,
      upstream,
      ...(http ? { url: http.url, port: http.port } : {}),
      closed: running.closed,
      async close() {
        await running.close();
        await upstream.close();
        await gate.flush();
      },
    };
  } catch (error) {
    await upstream.close();
    throw error;
  }
}
