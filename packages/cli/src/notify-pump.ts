// The in-process drain of review notices for a long-lived process (tollgate serve): a round right
// after a request is filed (kick), and one every few seconds for retries and for notices queued by
// other processes. One round at a time; failures are recorded in the store and logged by name.
import {
  drainNotifications,
  type NotificationRecord,
  type NotifyTarget,
  type Store,
  systemClock,
} from '@tollgate/core';
import { postWebhook } from './notify.js';

export interface NotifyPump {
  kick(): void;
  stop(): Promise<void>;
}

export function notifyPump(options: {
  store: () => Store;
  targets: readonly NotifyTarget[];
  dashboardUrl?: string;
  onFailure: (n: NotificationRecord, error: string, final: boolean) => void;
  everyMs?: number;
}): NotifyPump {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const round = async (): Promise<void> => {
    do {
      again = false;
      try {
        await drainNotifications({
          store: options.store(),
          clock: systemClock,
          targets: options.targets,
          post: postWebhook,
          onFailure: options.onFailure,
          ...(options.dashboardUrl !== undefined ? { dashboardUrl: options.dashboardUrl } : {}),
        });
      } catch {
        // the store is down: the next round tries again
      }
    } while (again && !stopped);
  };
  const kick = () => {
    if (stopped || options.targets.length === 0) return;
    if (running) {
      again = true;
      return;
    }
    running = round().finally(() => {
      running = undefined;
    });
  };
  const timer = setInterval(kick, options.everyMs ?? 2000);
  timer.unref();
  return {
    kick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
