// Write-behind for pass decisions: routine, non-gated calls must cost microseconds, so their audit
// rows are batched into one transaction on the next turn of the event loop. Gated decisions never
// go through here: they are appended, and acknowledged, before their verdict returns.
import type { AuditDraft, Store } from './ports.js';

export class AuditWriter {
  private queue: (() => AuditDraft)[] = [];
  private scheduled = false;
  private inFlight: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly onError: (error: unknown, lost: number) => void,
  ) {}

  /** Takes a thunk so building the row (copying the call, shaping the JSON) happens off the hot path. */
  enqueue(draft: () => AuditDraft): void {
    this.queue.push(draft);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        void this.flush();
      });
    }
  }

  /** Writes everything queued so far; resolves when it is stored (or reported lost). */
  flush(): Promise<void> {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (batch.length > 0) {
      this.inFlight = this.inFlight.then(() =>
        Promise.resolve()
          .then(() => this.store.appendAudit(batch.map((build) => build())))
          .then(
            () => undefined,
            (error: unknown) => this.onError(error, batch.length),
          ),
      );
    }
    return this.inFlight;
  }
}
