// Problem objects (RFC 9457, application/problem+json): every error the service returns. Codes are
// core's reason codes, core's fault codes, or the few that only HTTP has (catalogued here). The detail
// is a text a client (often a model) reads: it passes core's outgoing sanitiser, and the body is
// escaped JSON (the same values, no invisible or line-breaking character on the wire).
import type { Reason } from '@tollgate/contracts';
import {
  escapedJson,
  type FaultCode,
  isFault,
  REASONS,
  type ReasonCode,
  sanitiseOutgoing,
  sanitiseText,
} from '@tollgate/core';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from './env.js';
import { FAULT_STATUS, FAULT_TITLE, statusForReasons } from './status.js';

/** Codes for refusals that exist only at the HTTP layer, each with its status and meaning. */
export const HTTP_PROBLEMS = {
  unauthorized: [401, 'No valid bearer token was presented.'],
  forbidden: [
    403,
    'The token is valid but may not do this (another agent, a session outside its list, or not an operator).',
  ],
  route_not_found: [404, 'No route has this path.'],
  method_not_allowed: [405, 'The path exists, but not with this method.'],
  unsupported_media_type: [415, 'The body must be application/json.'],
  rate_limited: [
    429,
    'This token sent more requests than limits.http_rate allows; retry after Retry-After seconds.',
  ],
  request_invalid: [422, 'The request body or query does not have the shape this route takes.'],
  invalid_id: [400, 'The id in the path is not a ULID.'],
  internal_error: [500, 'The server failed in an unexpected way; the request id finds it in the log.'],
} as const satisfies Record<string, readonly [number, string]>;

export type HttpProblemCode = keyof typeof HTTP_PROBLEMS;
export type ProblemCode = HttpProblemCode | FaultCode | ReasonCode;

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ProblemCode;
  reasons?: Reason[];
  request_id?: string;
  [extra: string]: unknown;
}

const TYPE_BASE = 'https://tollgate.dev/problems/';

export function problemFor(
  code: ProblemCode,
  status: number,
  detail: string,
  extra: Record<string, unknown> = {},
): Problem {
  const clean = sanitiseOutgoing(detail, 2000);
  return { type: `${TYPE_BASE}${code}`, title: titleOf(code), status, detail: clean, code, ...extra };
}

function titleOf(code: ProblemCode): string {
  if (code in HTTP_PROBLEMS) return HTTP_PROBLEMS[code as HttpProblemCode][1];
  if (code in REASONS) return REASONS[code as ReasonCode];
  return FAULT_TITLE[code as FaultCode];
}

export function sendProblem(
  c: Context<AppEnv>,
  problem: Problem,
  headers: Record<string, string> = {},
): Response {
  const requestId = c.get('requestId');
  const body = requestId ? { ...problem, request_id: requestId } : problem;
  return c.body(escapedJson(body), problem.status as ContentfulStatusCode, {
    'content-type': 'application/problem+json',
    ...headers,
  });
}

export function httpProblem(
  c: Context<AppEnv>,
  code: HttpProblemCode,
  detail: string,
  headers?: Record<string, string>,
) {
  return sendProblem(c, problemFor(code, HTTP_PROBLEMS[code][0], detail), headers);
}

/** A refusal carrying core reasons (a prediction that did not verify, say). */
export function reasonsProblem(c: Context<AppEnv>, reasons: Reason[]): Response {
  const first = reasons[0];
  const code: ReasonCode = first?.code ?? 'schema_invalid';
  const status = statusForReasons(reasons.map((r) => r.code));
  return sendProblem(c, problemFor(code, status, first?.message ?? 'refused', { reasons }));
}

/** A thrown error: a core fault keeps its code and status; anything else is a 500 that says little. */
export function errorProblem(c: Context<AppEnv>, error: unknown): Response {
  if (isFault(error)) {
    const { position, limit } = error.details as { position?: unknown; limit?: unknown };
    const extra = {
      ...(typeof position === 'number' ? { position } : {}),
      ...(typeof limit === 'string' ? { limit } : {}),
    };
    return sendProblem(c, problemFor(error.code, FAULT_STATUS[error.code], error.message, extra));
  }
  // The store's own fault class (not imported: the app only knows the Store port) means "cannot serve".
  if (error instanceof Error && error.name === 'StoreFault') {
    return sendProblem(
      c,
      problemFor('store_unavailable', 503, `the store failed: ${error.message.slice(0, 300)}`),
    );
  }
  return httpProblem(c, 'internal_error', 'internal error; see the server log for this request id');
}

/** A body or query that does not have the route's shape; every problem listed with its path. */
export function shapeProblem(c: Context<AppEnv>, problems: { path: string; message: string }[]): Response {
  // Paths name the client's own keys: each problem is one sanitised line.
  const clean = problems.map((p) => ({
    path: sanitiseText(p.path, 200),
    message: sanitiseText(p.message, 400),
  }));
  const first = clean[0];
  const detail = first ? `${first.path || '/'}: ${first.message}` : 'invalid request';
  return sendProblem(c, problemFor('request_invalid', 422, detail, { problems: clean }));
}
