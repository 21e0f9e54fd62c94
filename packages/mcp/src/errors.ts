// The proxy's own error codes, for results that are not a gate verdict (those carry core's reason
// codes). Each appears in the machine-readable block of an isError result, with its meaning here.
export type ProxyErrorCode =
  | 'invalid_arguments'
  | 'invalid_session'
  | 'upstream_unavailable'
  | 'upstream_timeout'
  | 'upstream_failed'
  | 'cancelled';

export const PROXY_ERRORS: Record<ProxyErrorCode, string> = {
  invalid_arguments:
    "The arguments do not match the tool's input schema, or the tollgate argument is not JSON.",
  invalid_session: 'The _meta "tollgate/session" value is not a string of 1 to 256 characters.',
  upstream_unavailable: 'The upstream server cannot be started or reached; nothing was forwarded.',
  upstream_timeout:
    'The upstream server did not answer within the call deadline; the call may have taken effect.',
  upstream_failed: 'The upstream server closed the connection or failed during the call.',
  cancelled: 'The client cancelled the call; the upstream was told to stop.',
};

/**
 * A JSON-RPC error for the client, carrying the message once. The SDK sends an error's `message` as
 * it is, and McpError's message already starts "MCP error <code>: ", which the client's McpError
 * prefixes again ("MCP error -32602: MCP error -32602: …"); this error has the bare message.
 */
export class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'ProtocolError';
  }
}
