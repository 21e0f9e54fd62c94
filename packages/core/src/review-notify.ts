// Announcing review requests to people (issue 13): each new request is queued in the store for every
// configured webhook (the outbox) and posted by a drainer with bounded exponential back-off. The
// bodies are built here from the stored request, every text sanitised; the POST itself is a port
// the adapter supplies (a fetch with a time-out). A failed notice is recorded on the request and
// changes nothing else: the call it is about stays refused until a person answers.

import type { Clock, NotificationRecord, ReviewRecord, Store } from './ports.js';
import { approveHint } from './review.js';
import { sanitiseText } from './sanitise.js';

export interface NotifyTarget {
  /** Stored and logged in place of the URL (which may carry a secret). */
  name: string;
  url: string;
  format: 'json' | 'slack';
  /** Sent, never stored or logged. */
  headers: Readonly<Record<string, string>>;
  timeout_ms: number;
  /** Attempts after the first. */
  retries: number;
}

export type PostResult = { ok: true } | { ok: false; error: string };
/** Posts one JSON body; never throws (an error is a result). */
export type PostWebhook = (target: NotifyTarget, body: unknown) => Promise<PostResult>;

/** Back-off before attempt n+1 after n failed attempts: 1 s, 2 s, 4 s, ... at most 60 s. */
export function backoffMs(failedAttempts: number): number {
  return Math.min(60_000, 1000 * 2 ** Math.max(0, failedAttempts - 1));
}

/** A target's name as stored: its own, or webhook-<n>@host (the host alone says no secret). */
export function targetName(index: number, url: string, name?: string): string {
  if (name) return name;
  let host = 'invalid-url';
  try {
    host = new URL(url).host;
  } catch {
    // the schema checked the scheme; a URL that does not parse fails at its first POST
  }
  return `webhook-${index + 1}@${host}`;
}

/** What a notice says about a request, for both formats. */
export interface ReviewNotice {
  schema: 'tollgate.review-request/v1';
  id: string;
  rule: string;
  call: { tool: string; action?: string; summary: string };
  session: string;
  agent?: string;
  reasons: { code: string; message: string }[];
  created_at: string;
  expires_at: string;
  approve: string;
  link?: string;
}

const TEXT = 300;

export function reviewNotice(record: ReviewRecord, dashboardUrl?: string): ReviewNotice {
  const call = (record.call ?? {}) as { tool?: unknown; action?: unknown; args?: unknown };
  const tool = sanitiseText(String(call.tool ?? '?'), 128);
  const args = call.args as Record<string, unknown> | undefined;
  const summary =
    tool === 'shell' && typeof args?.command === 'string'
      ? sanitiseText(args.command, TEXT)
      : sanitiseText(JSON.stringify(args ?? {}) ?? '', TEXT);
  const rails = Array.isArray(record.rails) ? (record.rails as { code?: unknown; message?: unknown }[]) : [];
  return {
    schema: 'tollgate.review-request/v1',
    id: record.id,
    rule: sanitiseText(record.rule, 128),
    call: {
      tool,
      ...(typeof call.action === 'string' ? { action: sanitiseText(call.action, 128) } : {}),
      summary,
    },
    session: sanitiseText(record.session, 128),
    ...(record.agent !== undefined ? { agent: sanitiseText(record.agent, 128) } : {}),
    reasons: rails.slice(0, 8).map((r) => ({
      code: sanitiseText(String(r.code ?? ''), 64),
      message: sanitiseText(String(r.message ?? ''), TEXT),
    })),
    created_at: new Date(record.created_at).toISOString(),
    expires_at: new Date(record.expires_at).toISOString(),
    approve: `tollgate review approve ${record.id} --reason …`,
    ...(dashboardUrl ? { link: `${dashboardUrl.replace(/\/+$/, '')}/#review-${record.id}` } : {}),
  };
}

/**
 * Text the agent chose (its command, session name, the reasons quoting it) as Slack mrkdwn shows it
 * literally: `&`, `<` and `>` escaped, so no `<!channel>` mention, `<url|label>` link or user ping can
 * be formed; backticks and formatting marks turned harmless, so it stays inside its code span.
 */
export function slackText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function slackCode(text: string): string {
  return slackText(text).replace(/`/g, 'ʼ');
}

/** A Slack-compatible message: `text` for notifications, `blocks` for the channel. */
export function slackBody(n: ReviewNotice): { text: string; blocks: unknown[] } {
  const who = n.agent
    ? `${slackText(n.agent)}, session ${slackText(n.session)}`
    : `session ${slackText(n.session)}`;
  const text = `Tollgate review ${n.id} [${slackText(n.rule)}]: ${slackText(n.call.tool)} \`${slackCode(n.call.summary)}\` (${who}) waits for a person until ${n.expires_at}`;
  const why = n.reasons.map((r) => `• ${slackText(r.code)}: \`${slackCode(r.message)}\``).join('\n');
  return {
    text,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text } },
      ...(why ? [{ type: 'section', text: { type: 'mrkdwn', text: why.slice(0, 2900) } }] : []),
      {
        type: 'context',
        elements: [
          {
            type: 'mrkdwn',
            text: `${slackText(approveHint(n.id))}${n.link ? ` — <${n.link}|open in the dashboard>` : ''}`,
          },
        ],
      },
    ],
  };
}

export function noticeBody(record: ReviewRecord, format: NotifyTarget['format'], dashboardUrl?: string) {
  const notice = reviewNotice(record, dashboardUrl);
  return format === 'slack' ? slackBody(notice) : notice;
}

export interface DrainOptions {
  store: Store;
  clock: Clock;
  targets: readonly NotifyTarget[];
  post: PostWebhook;
  dashboardUrl?: string;
  /** Told of each failed attempt (the adapter's log); names the target, never its URL or headers. */
  onFailure?: (n: NotificationRecord, error: string, final: boolean) => void;
  /** Deliveries taken per round. */
  batch?: number;
}

export interface DrainResult {
  attempted: number;
  delivered: number;
  failed: number;
}

/**
 * One round: claims the deliveries due now and posts each once, recording the result. A target no
 * longer configured is recorded as failed and dropped; so is a request that no longer exists.
 */
export async function drainNotifications(options: DrainOptions): Promise<DrainResult> {
  const { store, clock } = options;
  const now = clock.now();
  const byName = new Map(options.targets.map((t) => [t.name, t]));
  // A claim lasts longer than the slowest POST, so a crashed drainer's delivery is retried later.
  const lease = now + Math.max(...options.targets.map((t) => t.timeout_ms), 5000) + 30_000;
  const claimed = await store.claimNotifications(now, lease, options.batch ?? 16);
  const result: DrainResult = { attempted: claimed.length, delivered: 0, failed: 0 };
  await Promise.all(
    claimed.map(async (n) => {
      const target = byName.get(n.target);
      const review = target ? await store.getReview(n.review_id) : undefined;
      const outcome: PostResult =
        target === undefined
          ? { ok: false, error: 'the webhook is no longer configured' }
          : review === undefined
            ? { ok: false, error: 'the review request no longer exists' }
            : await options.post(target, noticeBody(review, target.format, options.dashboardUrl));
      const at = clock.now();
      if (outcome.ok) {
        result.delivered++;
        await store.recordNotification({ review_id: n.review_id, target: n.target, at, delivered: true });
        return;
      }
      result.failed++;
      const attempts = n.attempts + 1;
      const final = target === undefined || review === undefined || attempts > target.retries;
      const error = sanitiseText(outcome.error, 300);
      await store.recordNotification({
        review_id: n.review_id,
        target: n.target,
        at,
        delivered: false,
        error,
        ...(final ? {} : { next_at: at + backoffMs(attempts) }),
      });
      options.onFailure?.({ ...n, attempts }, error, final);
    }),
  );
  return result;
}

/**
 * Drains until nothing is due within `maxWaitMs` of now (a retry due later is left to the next
 * drainer or to tollgate serve), waiting between rounds with `sleep`. Returns the totals.
 */
export async function drainUntilIdle(
  options: DrainOptions & { sleep: (ms: number) => Promise<void>; maxWaitMs: number; deadline: number },
): Promise<DrainResult> {
  const total: DrainResult = { attempted: 0, delivered: 0, failed: 0 };
  for (;;) {
    const round = await drainNotifications(options);
    total.attempted += round.attempted;
    total.delivered += round.delivered;
    total.failed += round.failed;
    if (round.attempted > 0) continue;
    const next = await options.store.nextNotificationAt();
    const now = options.clock.now();
    if (next === undefined || next - now > options.maxWaitMs || next > options.deadline) return total;
    await options.sleep(Math.max(0, next - now) + 10);
  }
}
