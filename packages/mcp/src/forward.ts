// A call the gate let through, forwarded to the upstream (tollgate stripped, progress and
// cancellation relayed, under the deadline), then recorded: a read becomes an attested observation;
// any other call's result is recorded against it (kind result, for preconditions); a dispatched
// irreversible call gets its outcome row, with read-only claim subjects probed first.

import type { CallToolRequest, CallToolResult, ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import type { Call, Verdict } from '@tollgate/contracts';
import { isGated } from '@tollgate/core';
import type { ProxyContext } from './context.js';
import { DIRECTIVE_META_KEY } from './directive-meta.js';
import { failureOf } from './failure.js';
import { resultText } from './output-text.js';
import { probeAndRecord } from './probe.js';
import { errorResult } from './results.js';
import { SESSION_META_KEY } from './session.js';

export interface Forwarding {
  call: Call;
  verdict: Verdict;
  meta: CallToolRequest['params']['_meta'];
  signal: AbortSignal;
  sendNotification: (notification: ServerNotification) => Promise<void>;
}

export async function forward(ctx: ProxyContext, f: Forwarding): Promise<CallToolResult> {
  const { call, verdict } = f;
  const progressToken = f.meta?.progressToken;
  const meta = forwardedMeta(f.meta);
  let result: CallToolResult;
  try {
    result = await ctx.upstream.callTool(
      { name: call.tool, arguments: call.args, ...(meta ? { _meta: meta } : {}) },
      {
        signal: f.signal,
        timeoutMs: ctx.callTimeoutMs,
        ...(progressToken !== undefined
          ? {
              onprogress: (p) => {
                f.sendNotification({
                  method: 'notifications/progress',
                  params: { ...p, progressToken },
                }).catch(() => {});
              },
            }
          : {}),
      },
    );
  } catch (error) {
    const failure = failureOf(error, ctx.callTimeoutMs, f.signal.aborted);
    const auditId = await recordFailure(ctx, verdict, failure.status, `upstream failed: ${failure.message}`);
    return errorResult(failure.code, `Tollgate: ${call.tool} failed upstream: ${failure.message}`, {
      ...(auditId ? { audit_id: auditId } : {}),
    });
  }
  const output = resultText(result);
  try {
    // A read's output is an observation a prediction may cite. Any other call's output is recorded
    // against it as its result: a precondition can read a tool's verdict from it (a diagnostic's
    // outcome); it is never evidence for a prediction.
    const isRead = verdict.class === 'read-only';
    await ctx.gate.recordObservation({
      session: call.session,
      ...(call.agent !== undefined ? { agent: call.agent } : {}),
      source: { tool: call.tool, args: call.args },
      output,
      exit_code: result.isError ? 1 : 0,
      recordedBy: 'mcp-proxy',
      attested: true,
      ...(isRead ? {} : { kind: 'result' as const }),
    });
    if (!isRead && tracked(verdict) && verdict.audit_id)
      await probeAndRecord(ctx, call, verdict.audit_id, result, output);
  } catch (error) {
    // The call already ran upstream; its result still goes back, the lost record is logged.
    ctx.log(`could not record ${call.tool} for session ${call.session}: ${(error as Error).message}`);
  }
  return result;
}

// The client's _meta goes upstream too (tool-use ids and the like), minus what is the proxy's own:
// its session key, and the progress token (the SDK client issues its own towards the upstream).
function forwardedMeta(meta: CallToolRequest['params']['_meta']): Record<string, unknown> | undefined {
  if (!meta) return undefined;
  const { progressToken: _token, [SESSION_META_KEY]: _session, [DIRECTIVE_META_KEY]: _told, ...rest } = meta;
  return Object.keys(rest).length > 0 ? rest : undefined;
}

/** Calls whose decision row takes an outcome: dispatched, or passed in observe mode though gated. */
function tracked(verdict: Verdict): boolean {
  return verdict.outcome === 'dispatch' || (verdict.outcome === 'pass' && isGated(verdict.class));
}

async function recordFailure(
  ctx: ProxyContext,
  verdict: Verdict,
  status: 'error' | 'timeout' | 'unknown',
  summary: string,
): Promise<string | undefined> {
  const id = verdict.audit_id;
  if (!id || verdict.class === 'unmatched') {
    ctx.log(summary);
    return id;
  }
  try {
    // Pass rows are written behind; the outcome row refers to its decision row, so flush first.
    await ctx.gate.flush();
    await ctx.gate.recordOutcome(id, { status, summary: summary.slice(0, 4096) });
  } catch (error) {
    ctx.log(`could not record the outcome of ${id}: ${(error as Error).message}`);
  }
  return id;
}
