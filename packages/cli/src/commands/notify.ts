// tollgate notify drain: posts the queued review notices (the outbox) to the config's webhooks, with
// bounded exponential back-off, recording every attempt, then exits once nothing is due within a
// minute. The gate starts it detached whenever it files a review request (notify.ts), so a hook
// process never waits on a webhook; a person may run it by hand to push a retry along.
import { drainUntilIdle, systemClock } from '@tollgate/core';
import { flag, type ParsedArgs } from '../args.js';
import type { CommandIO } from '../command.js';
import { UsageError } from '../errors.js';
import { logFailure, notifyLog, notifyTargets, postWebhook } from '../notify.js';
import { openRuntime } from '../runtime.js';
import { defineCommand, writeJson } from '../support.js';

/** A drainer waits at most this long for the next retry before leaving it to the next one. */
const MAX_WAIT_MS = 65_000;
/** And lives at most this long. */
const LIFETIME_MS = 10 * 60_000;

export const command = defineCommand(
  {
    name: 'notify',
    summary: 'deliver the queued review notices to the configured webhooks',
    options: {},
    usage: `
Usage: tollgate notify drain [--json]

Posts each queued review notice (one per review request and webhook in notify.webhooks of the
config) and records the attempt on the request (tollgate review show). A failed POST (an error
status, a refused connection, a time-out) is retried after 1 s, 2 s, 4 s, ... (at most 60 s apart)
up to the webhook's retries, then given up; failures are also logged to notify.log in the project's
state directory, naming the webhook, never its URL or headers. A notice never changes a decision.
The gate starts this detached whenever it files a request; tollgate serve drains in-process.
`,
  },
  async (args: ParsedArgs, io: CommandIO) => {
    if (args.positionals[0] !== 'drain')
      throw new UsageError('tollgate notify needs drain', 'tollgate notify drain');
    const runtime = await openRuntime({ cwd: io.cwd, env: io.env, channel: 'cli' });
    try {
      const { config } = runtime.loaded;
      const targets = notifyTargets(config);
      const log = notifyLog(runtime.loaded, io.env);
      const now = systemClock.now();
      const total =
        targets.length === 0
          ? { attempted: 0, delivered: 0, failed: 0 }
          : await drainUntilIdle({
              store: runtime.store,
              clock: systemClock,
              targets,
              post: postWebhook,
              ...(config.notify?.dashboard_url !== undefined
                ? { dashboardUrl: config.notify.dashboard_url }
                : {}),
              onFailure: (n, error, final) => logFailure(log, n, error, final),
              sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
              maxWaitMs: MAX_WAIT_MS,
              deadline: now + LIFETIME_MS,
            });
      if (flag(args, 'json')) writeJson(io, { webhooks: targets.length, ...total });
      else
        io.stdout.write(
          `notices: ${total.attempted} attempted, ${total.delivered} delivered, ${total.failed} failed (${targets.length} webhooks)\n`,
        );
      return 0;
    } finally {
      await runtime.close();
    }
  },
);
