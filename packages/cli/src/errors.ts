// How a CLI failure is reported: a usage error (bad flags, missing command) or a fault from core or
// the store, each with what went wrong and how to fix it, as text on stderr or as JSON on stdout.
import type { CommandIO } from './command.js';

export class UsageError extends Error {
  readonly fix: string;
  constructor(message: string, fix: string) {
    super(message);
    this.name = 'UsageError';
    this.fix = fix;
  }
}

export interface ErrorReport {
  code: string;
  message: string;
  fix?: string;
}

// What to do about each fault code the CLI can meet (core's TollgateFault, the store's StoreFault).
const FIXES: Record<string, string> = {
  config_invalid: 'fix tollgate.config.yaml (or the file TOLLGATE_CONFIG names)',
  policy_invalid: 'fix the named rule in the policy file, then run tollgate rules list',
  policy_unreadable: 'check the policies listed in tollgate.config.yaml',
  input_too_large: 'send a smaller document (the limit is 1 MiB)',
  input_invalid_utf8: 'send UTF-8 text',
  input_malformed_json: 'send one valid JSON document',
  input_too_deep: 'flatten the document',
  not_found: 'check the id with tollgate audit list',
  store_unavailable: 'check TOLLGATE_DB (a file path or postgres:// URL) and that the store is reachable',
};

export function errorReport(error: unknown): ErrorReport {
  if (error instanceof UsageError) return { code: 'usage', message: error.message, fix: error.fix };
  const code = (error as { code?: unknown })?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof code === 'string' && /^[a-z_]+$/.test(code)) {
    // A fault may name its own fix (a vanished store: reset it, not "check TOLLGATE_DB").
    const own = (error as { details?: { fix?: unknown } }).details?.fix;
    const fix =
      (typeof own === 'string' ? own : undefined) ??
      FIXES[code] ??
      (code.startsWith('store_') || code.startsWith('migration') ? FIXES.store_unavailable : undefined);
    return fix === undefined ? { code, message } : { code, message, fix };
  }
  return { code: 'internal', message };
}

/** Prints the failure and returns exit code 1. */
export function fail(io: CommandIO, error: unknown, json: boolean): number {
  const report = errorReport(error);
  if (json) io.stdout.write(`${JSON.stringify({ error: report })}\n`);
  else io.stderr.write(`tollgate: ${report.message}${report.fix ? `\n  fix: ${report.fix}` : ''}\n`);
  return 1;
}
