// How the proxy introduces itself on both sides of the wire.
export const PROXY_NAME = 'tollgate-mcp';
export const PROXY_VERSION = '0.1.0';
