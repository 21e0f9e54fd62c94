// Public surface of @tollgate/http. Any new export here becomes public API.
export { type AppOptions, createApp } from './app.js';
export { type Principal, type TokenTable, tokenTable } from './auth.js';
export { assertBindable, isLoopback } from './bind.js';
export { serviceLogger } from './logger.js';
export { createMetrics, type Metrics } from './metrics.js';
export { openApiDocument } from './openapi.js';
export { HTTP_PROBLEMS, type Problem, type ProblemCode } from './problem.js';
export type { HttpRate } from './rate-limit.js';
export type { HookOptions } from './routes/hooks.js';
export { type RunningServer, type ServeOptions, startServer } from './server.js';
export { FAULT_STATUS, REASON_STATUS } from './status.js';
