// After a dispatched call: re-read each claim subject the gate may re-read (read-only tool calls),
// through the upstream, record each read as a probe observation, and store predicted vs observed.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Call } from '@tollgate/contracts';
import type { ProxyContext } from './context.js';
import { resultText } from './output-text.js';
import { messageOf } from './upstream.js';

export async function probeAndRecord(
  ctx: ProxyContext,
  call: Call,
  auditId: string,
  result: CallToolResult,
  output: string,
): Promise<void> {
  await ctx.gate.settle(auditId, call.session, {
    status: result.isError ? 'error' : 'ok',
    summary: output.slice(0, 200),
    observe: async (subject) => {
      if (typeof subject === 'string') return undefined; // a shell read; not this proxy's to run
      const seen = await ctx.upstream.callTool(
        { name: subject.tool, arguments: subject.args ?? {} },
        { timeoutMs: ctx.callTimeoutMs },
      );
      return { output: resultText(seen), exit_code: seen.isError ? 1 : 0 };
    },
    onProbeError: (subject, error) =>
      ctx.log(
        `probe ${typeof subject === 'string' ? subject : subject.tool} after ${call.tool} failed: ${messageOf(error)}`,
      ),
  });
}
