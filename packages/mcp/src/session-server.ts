// One MCP Server per downstream connection (stdio has one; Streamable HTTP one per session), all
// sharing the proxy context. tools/list decorates the upstream's page; tools/call goes to handleCall.

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  type ListToolsResult,
} from '@modelcontextprotocol/sdk/types.js';
import { classifyTool } from '@tollgate/core';
import { hintsOf } from './catalogue.js';
import type { ProxyContext } from './context.js';
import { decorateTool, RULES_TOOL } from './decorate.js';
import { ProtocolError } from './errors.js';
import { handleCall } from './handle-call.js';
import { PROXY_NAME, PROXY_VERSION } from './identity.js';
import { rulesTool } from './rules-tool.js';
import { messageOf } from './upstream.js';

const NOTE = `Tollgate guards this server: irreversible tools take a "tollgate" argument (a prediction backed by reads made through this server, or a decline). Call ${RULES_TOOL} to see what is gated.`;

export function createSessionServer(ctx: ProxyContext, connection: string): Server {
  const upstreamNote = ctx.upstream.instructions;
  const server = new Server(
    { name: PROXY_NAME, version: PROXY_VERSION },
    {
      capabilities: { tools: { listChanged: true } },
      instructions: upstreamNote ? `${upstreamNote}\n\n${NOTE}` : NOTE,
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, (req) => listTools(ctx, req.params?.cursor));
  server.setRequestHandler(CallToolRequestSchema, (req, extra) =>
    handleCall(ctx, req, { extra, connection, agent: server.getClientVersion()?.name }),
  );
  return server;
}

async function listTools(ctx: ProxyContext, cursor: string | undefined): Promise<ListToolsResult> {
  let page: ListToolsResult;
  try {
    page = await ctx.catalogue.page(cursor);
  } catch (error) {
    // A list has no isError form; the client sees a protocol error that names the cause.
    throw new ProtocolError(
      ErrorCode.InternalError,
      `the upstream server cannot list its tools: ${messageOf(error)}`,
    );
  }
  const tools = page.tools
    .filter((tool) => tool.name !== RULES_TOOL)
    .map((tool) => decorateTool(tool, classifyTool(ctx.gate.policy, tool.name, hintsOf(tool))));
  if (cursor === undefined) tools.push(rulesTool);
  return { ...page, tools };
}
