// Public surface of @tollgate/mcp: the predict-or-decline proxy for MCP servers. Any new export here
// becomes public API.
export { RULES_TOOL } from './decorate.js';
export { MCP_PATH } from './downstream-http.js';
export { PROXY_ERRORS, type ProxyErrorCode } from './errors.js';
export { type GateFactory, type ProxyOptions, type RunningProxy, startProxy } from './proxy.js';
export { SESSION_META_KEY } from './session.js';
export { TOLLGATE_ARG } from './tollgate-argument.js';
export { Upstream, type UpstreamSpec, UpstreamUnavailable } from './upstream.js';
export { type UpstreamRules, upstreamPolicySources } from './upstream-policy.js';
