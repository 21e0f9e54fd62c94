// What went wrong with an upstream call, in the proxy's error codes and the outcome statuses of the
// audit row: a deadline, a cancellation, or a dead or failing upstream.
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ProxyErrorCode } from './errors.js';
import { messageOf, UpstreamUnavailable } from './upstream.js';

export interface Failure {
  code: ProxyErrorCode;
  status: 'error' | 'timeout' | 'unknown';
  message: string;
}

export function failureOf(error: unknown, timeoutMs: number, cancelled: boolean): Failure {
  if (cancelled) {
    return {
      code: 'cancelled',
      status: 'unknown',
      message: 'the client cancelled the call; the upstream was told to stop',
    };
  }
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return {
      code: 'upstream_timeout',
      status: 'timeout',
      message: `no answer within ${timeoutMs} ms; the upstream was told to stop, but the call may have taken effect`,
    };
  }
  if (error instanceof UpstreamUnavailable)
    return { code: 'upstream_unavailable', status: 'error', message: error.message };
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
    return {
      code: 'upstream_failed',
      status: 'error',
      message:
        'the upstream server closed the connection during the call (it exited or crashed); it is restarted on the next call',
    };
  }
  return { code: 'upstream_failed', status: 'error', message: messageOf(error).slice(0, 1000) };
}
