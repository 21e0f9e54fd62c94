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
  const observed: {
    subject: { tool: string; args: Record<string, unknown> };
    output: string;
    exit_code: number;
  }[] = [];
  // A call that failed changed nothing we can predict about; its claims stay unverifiable.
  if (!result.isError) {
    for (const subject of await ctx.gate.probesFor(auditId)) {
      if (typeof subject === 'string') continue; // a shell read; not this proxy's to run
      const args = subject.args ?? {};
      try {
        const seen = await ctx.upstream.callTool(
          { name: subject.tool, arguments: args },
          { timeoutMs: ctx.callTimeoutMs },
        );
        const text = resultText(seen);
        const exit_code = seen.isError ? 1 : 0;
        await ctx.gate.recordObservation({
          session: call.session,
          source: { tool: subject.tool, args },
          output: text,
          exit_code,
          recordedBy: 'probe',
          attested: true,
        });
        observed.push({ subject: { tool: subject.tool, args }, output: text, exit_code });
      } catch (error) {
        ctx.log(`probe ${subject.tool} after ${call.tool} failed: ${messageOf(error)}`);
      }
    }
  }
  await ctx.gate.recordOutcome(auditId, {
    status: result.isError ? 'error' : 'ok',
    summary: output.slice(0, 200),
    observed,
  });
}
