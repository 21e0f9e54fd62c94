// Prometheus metrics on a registry of their own (no global state): decisions by outcome, rule and
// reason, check latency, and lost writes. onDecision/onAuditError plug into createGate.
import type { Verdict } from '@tollgate/contracts';
import type { LimitName } from '@tollgate/core';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

export interface Metrics {
  readonly registry: Registry;
  /** Pass to createGate({ onDecision }). */
  onDecision(verdict: Verdict, elapsedMs: number): void;
  /** Pass to createGate({ onAuditError }). */
  onAuditError(error: unknown, lostRows: number): void;
  ledgerError(): void;
  request(method: string, route: string, status: number, seconds: number): void;
  /** Pass to createGate({ onLimit }); the HTTP rate limit calls it too. */
  limitRefused(limit: LimitName): void;
  /** The configured value of each limit, exported as tollgate_limit{limit}. */
  limits(values: Partial<Record<LimitName, number>>): void;
}

export function createMetrics(options: { defaults?: boolean } = {}): Metrics {
  const registry = new Registry();
  const registers = [registry];
  const decisions = new Counter({
    name: 'tollgate_decisions_total',
    help: 'Decisions by outcome and matched rule ("none" when no rule matched).',
    labelNames: ['outcome', 'rule'] as const,
    registers,
  });
  const reasons = new Counter({
    name: 'tollgate_decision_reasons_total',
    help: 'Reason codes carried by decisions, by outcome.',
    labelNames: ['outcome', 'reason'] as const,
    registers,
  });
  const latency = new Histogram({
    name: 'tollgate_check_duration_seconds',
    help: 'Time core took to decide one call.',
    labelNames: ['outcome'] as const,
    buckets: [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers,
  });
  const auditErrors = new Counter({
    name: 'tollgate_audit_write_errors_total',
    help: 'Failed write-behind audit batches.',
    registers,
  });
  const auditLost = new Counter({
    name: 'tollgate_audit_rows_lost_total',
    help: 'Audit rows in failed write-behind batches.',
    registers,
  });
  const ledgerErrors = new Counter({
    name: 'tollgate_ledger_write_errors_total',
    help: 'Observations, predictions or declines the store failed to record.',
    registers,
  });
  const requests = new Histogram({
    name: 'tollgate_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
    registers,
  });
  const limitRefusals = new Counter({
    name: 'tollgate_limit_refusals_total',
    help: 'Requests a configured limit refused, by limit (http_rate, session_observations, session_excerpt_bytes, session_pending_tickets).',
    labelNames: ['limit'] as const,
    registers,
  });
  const limitValues = new Gauge({
    name: 'tollgate_limit',
    help: 'The configured value of each limit (http_rate in requests per second).',
    labelNames: ['limit'] as const,
    registers,
  });
  if (options.defaults) collectDefaultMetrics({ register: registry });
  // prom-client hashes a label object on every call; children looked up once per label set are cheap.
  const decisionOf = memo((outcome: string, rule: string) => decisions.labels(outcome, rule));
  const reasonOf = memo((outcome: string, reason: string) => reasons.labels(outcome, reason));
  const latencyOf = memo((outcome: string) => latency.labels(outcome));
  const requestOf = memo((method: string, route: string, status: string) =>
    requests.labels(method, route, status),
  );
  return {
    registry,
    onDecision(verdict, elapsedMs) {
      const rules = verdict.rules.length > 0 ? verdict.rules : ['none'];
      for (const rule of rules) decisionOf(verdict.outcome, rule).inc();
      for (const r of verdict.reasons) reasonOf(verdict.outcome, r.code).inc();
      latencyOf(verdict.outcome).observe(elapsedMs / 1000);
    },
    onAuditError(_error, lostRows) {
      auditErrors.inc();
      auditLost.inc(lostRows);
    },
    ledgerError: () => ledgerErrors.inc(),
    request(method, route, status, seconds) {
      requestOf(method, route, String(status)).observe(seconds);
    },
    limitRefused: (limit) => limitRefusals.labels(limit).inc(),
    limits(values) {
      for (const [limit, value] of Object.entries(values)) {
        if (value !== undefined) limitValues.labels(limit).set(value);
      }
    },
  };
}

function memo<A extends string[], R>(make: (...args: A) => R): (...args: A) => R {
  const cache = new Map<string, R>();
  return (...args) => {
    const key = args.join('\u0000');
    let value = cache.get(key);
    if (value === undefined) {
      value = make(...args);
      cache.set(key, value);
    }
    return value;
  };
}
