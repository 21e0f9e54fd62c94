// The field rules every query parser shares (audit, report, reviews): a whole number within bounds,
// a date-time, a short text filter. Each takes the parameter as sent and either returns the value or
// records the problem under /query/<key>, so one parser reports every bad field at once.

export interface QueryProblem {
  path: string;
  message: string;
}

const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** An ISO 8601 date-time or epoch milliseconds as epoch ms; undefined when it is neither. */
export function parseWhen(text: string): number | undefined {
  const ms = /^\d+$/.test(text) ? Number(text) : ISO.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(ms) ? undefined : ms;
}

/** Digits only, from `min` to `max`; otherwise the problem is recorded and undefined returned. */
export function wholeNumber(
  key: string,
  text: string,
  min: number,
  max: number,
  problems: QueryProblem[],
): number | undefined {
  const n = Number(text);
  if (/^\d+$/.test(text) && n >= min && n <= max) return n;
  problems.push({ path: `/query/${key}`, message: `${key} must be an integer from ${min} to ${max}` });
  return undefined;
}

/** A date-time (see parseWhen); otherwise the problem is recorded and undefined returned. */
export function dateTime(key: string, text: string, problems: QueryProblem[]): number | undefined {
  const ms = parseWhen(text);
  if (ms === undefined)
    problems.push({
      path: `/query/${key}`,
      message: `${key} must be an ISO 8601 date-time or epoch milliseconds`,
    });
  return ms;
}

/** Copies each of `keys` present in `params` into `query` when it is 1 to 256 characters. */
export function textFilters<K extends string>(
  params: Record<string, string>,
  keys: readonly K[],
  query: { [key in K]?: string },
  problems: QueryProblem[],
): void {
  for (const key of keys) {
    const value = params[key];
    if (value === undefined) continue;
    if (value === '' || value.length > 256)
      problems.push({ path: `/query/${key}`, message: `${key} must be 1 to 256 characters` });
    else query[key] = value;
  }
}
