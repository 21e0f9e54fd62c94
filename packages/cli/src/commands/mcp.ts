// tollgate mcp: the predict-or-decline proxy in front of one MCP server (spawned, or at a URL), serving
// the client over stdio or over Streamable HTTP on 127.0.0.1. Policy is the config's plus what the
// config says about this upstream (mcp.upstreams.NAME); runs until the client goes or a signal comes.
import { compilePolicy } from '@tollgate/core';
import { startProxy, Upstream, type UpstreamSpec, upstreamPolicySources } from '@tollgate/mcp';
import { intOption, option, type ParsedArgs } from '../args.js';
import type { CommandIO } from '../command.js';
import { UsageError } from '../errors.js';
import { ruleSource } from '../policy-loader.js';
import { findConfig, openRuntime, policyFiles, type Runtime } from '../runtime.js';
import { defineCommand } from '../support.js';

export const command = defineCommand(
  {
    name: 'mcp',
    summary: 'a predict-or-decline proxy in front of an MCP server',
    options: {
      config: 'string',
      session: 'string',
      name: 'string',
      'upstream-url': 'string',
      listen: 'string',
      'call-timeout-ms': 'string',
    },
    usage: `
Usage: tollgate mcp [options] -- UPSTREAM_COMMAND [ARGS...]
       tollgate mcp [options] --upstream-url http://HOST:PORT/mcp

Serves the upstream MCP server's tools to an MCP client. Irreversible tools gain a "tollgate"
argument (a prediction or a decline) and are refused with instructions without one; reads are
forwarded and recorded as evidence; the proxy's own tool tollgate_rules explains what is gated.

Options:
  --config F             the config file (else TOLLGATE_CONFIG, else tollgate.config.yaml upward)
  --session S            pin every call to session S (else TOLLGATE_SESSION; else each client
                         connection is its own session, split by its _meta "tollgate/session";
                         a client that reconnects starts an empty ledger unless pinned)
  --name NAME            the upstream's name for mcp.upstreams.NAME in the config
                         (default: the name the upstream server gives itself)
  --listen PORT          serve Streamable HTTP on http://127.0.0.1:PORT/mcp instead of stdio (0: any port)
  --call-timeout-ms MS   deadline for one upstream call (else mcp.call_timeout_ms, else 60000)

The upstream gets this process's environment. Diagnostics go to stderr; in stdio mode stdout is
the MCP channel.
`,
  },
  async (args: ParsedArgs, io: CommandIO) => {
    const spec = upstreamSpec(args, io);
    const env = { ...io.env, ...(option(args, 'config') ? { TOLLGATE_CONFIG: option(args, 'config') } : {}) };
    const loaded = findConfig(io.cwd, env);
    const listen = intOption(args, 'listen', 0);
    if (listen !== undefined && listen > 65535)
      throw new UsageError(`--listen must be at most 65535`, 'e.g. --listen 8788');
    const log = (line: string) => io.stderr.write(`tollgate mcp: ${line}\n`);
    const upstream = await Upstream.connect(spec, { log });
    const name = option(args, 'name') ?? upstream.serverName ?? 'upstream';
    const known = Object.keys(loaded.config.mcp?.upstreams ?? {});
    if (known.length > 0 && !known.includes(name)) {
      log(`the config has no mcp.upstreams.${name} (it has: ${known.join(', ')}); pass --name to pick one`);
    }
    let runtime: Runtime | undefined;
    try {
      const own = upstreamPolicySources(name, loaded.config.mcp?.upstreams?.[name], loaded.root);
      const policy = compilePolicy([
        ...[...policyFiles(loaded), ...own.files].map((file) => ruleSource(file, loaded.ruleTexts)),
        ...own.sources,
      ]);
      const session = option(args, 'session') || io.env.TOLLGATE_SESSION || undefined;
      const proxy = await startProxy({
        upstream,
        gate: async (toolHints) => {
          runtime = await openRuntime({ cwd: io.cwd, env, channel: 'mcp', gate: { policy, toolHints } });
          return runtime.gate;
        },
        downstream: listen === undefined ? 'stdio' : { listen },
        stdio: { stdin: io.stdin, stdout: io.stdout },
        callTimeoutMs: intOption(args, 'call-timeout-ms', 1) ?? loaded.config.mcp?.call_timeout_ms ?? 60_000,
        ...(session ? { session } : {}),
        log,
      });
      if (proxy.url) log(`listening on ${proxy.url} (upstream ${name})`);
      await untilClosedOrSignal(proxy.closed);
      await proxy.close();
      return 0;
    } finally {
      await upstream.close();
      await runtime?.close();
    }
  },
);

function upstreamSpec(args: ParsedArgs, io: CommandIO): UpstreamSpec {
  const url = option(args, 'upstream-url');
  const rest = args.rest ?? [];
  if (url !== undefined && rest.length > 0) {
    throw new UsageError(
      'give the upstream once: either --upstream-url URL or -- COMMAND...',
      'drop one of them',
    );
  }
  if (url !== undefined) {
    if (!/^https?:\/\//.test(url))
      throw new UsageError(
        `--upstream-url must be an http(s) URL, got ${JSON.stringify(url)}`,
        'e.g. --upstream-url http://127.0.0.1:3001/mcp',
      );
    return { url };
  }
  const [command, ...commandArgs] = rest;
  if (command === undefined) {
    throw new UsageError(
      'no upstream given',
      'e.g. tollgate mcp -- npx -y @modelcontextprotocol/server-memory',
    );
  }
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(io.env)) if (value !== undefined) env[key] = value;
  return { command, args: commandArgs, env, cwd: io.cwd };
}

async function untilClosedOrSignal(closed: Promise<void>): Promise<void> {
  let stop: () => void = () => {};
  const signalled = new Promise<void>((resolve) => {
    stop = resolve;
  });
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    await Promise.race([closed, signalled]);
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}
