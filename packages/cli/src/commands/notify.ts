// tollgate notify drain: posts the queued review notices (the outbox) to the config's webhooks, with
// bounded exponential back-off, recording every attempt, then exits once nothing is due within a
// minute. The gate starts it detached when it files a review request (notify.ts) and no drainer is
// live for the project (drain-lock.ts), so a hook process never waits on a webhook and a burst of
// filings forks one drainer; a person may run it by hand to push a retry along.
import { drainUntilIdle, systemClock } from '@tollgate/core';
import { flag, type ParsedArgs } from '../args.js';
import type { CommandIO } from '../command.js';
import { claimDrainLock, drainLockPath, ownDrainLock, readHolder, releaseDrainLock } from '../drain-lock.js';
import { UsageError } from '../errors.js';
import { logFailure, logLine, notifyLog, notifyTargets, postWebhook } from '../notify.js';
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
The gate starts this detached when it files a request and no drainer is live for the project (one
at most, by a lock file in the state directory); run by hand while one is live, it says so and
leaves the work to it. tollgate serve drains in-process.
`,
  },
  async (args: ParsedArgs, io: CommandIO) => {
    if (args.positionals[0] !== 'drain')
      throw new UsageError('tollgate notify needs drain', 'tollgate notify drain');
    const runtime = await openRuntime({ cwd: io.cwd, env: io.env, channel: 'cli' });
    const lock = drainLockPath(runtime.loaded.root, io.env);
    const pid = process.pid;
    try {
      const { config } = runtime.loaded;
      const targets = notifyTargets(config);
      const log = notifyLog(runtime.loaded, io.env);
      // Every drainer process that starts says so (a burst should show one).
      if (targets.length > 0) logLine(log, `drainer ${pid} started`);
      if (targets.length > 0 && !(await ownDrainLock(lock, pid, () => systemClock.now()))) {
        const holder = readHolder(lock);
        if (flag(args, 'json')) writeJson(io, { webhooks: targets.length, running: holder?.pid ?? null });
        else io.stdout.write(`another drainer (pid ${holder?.pid ?? '?'}) is delivering the notices\n`);
        return 0;
      }
      const deadline = systemClock.now() + LIFETIME_MS;
      const total = { attempted: 0, delivered: 0, failed: 0 };
      while (targets.length > 0) {
        const part = await drainUntilIdle({
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
          deadline,
        });
        total.attempted += part.attempted;
        total.delivered += part.delivered;
        total.failed += part.failed;
        // Released first, then the outbox once more: a filer that saw the lock held before the
        // release spawned nothing, and its notice (queued before it looked) is due now; a filer after
        // the release starts its own drainer, and this one then finds the lock taken and stops.
        releaseDrainLock(lock, pid);
        const next = await runtime.store.nextNotificationAt();
        if (next === undefined || next > systemClock.now()) break;
        if (!claimDrainLock(lock, pid, systemClock.now())) break;
      }
      if (flag(args, 'json')) writeJson(io, { webhooks: targets.length, ...total });
      else
        io.stdout.write(
          `notices: ${total.attempted} attempted, ${total.delivered} delivered, ${total.failed} failed (${targets.length} webhooks)\n`,
        );
      return 0;
    } finally {
      releaseDrainLock(lock, pid);
      await runtime.close();
    }
  },
);
