import type { PendingFiring } from "./cron_projection.ts";
import type { CronScheduler } from "./cron_scheduler.ts";

/**
 * A scheduler run on a timer, for a live process (the REPL, `rein daemon`): it ticks every
 * `everyMs` while started (during turns too: a firing then joins the running turn's next
 * request), and tells whoever waits when a firing is waiting for the agent, to run it as a
 * prompt of its own.
 */
export class CronTicker {
  readonly #scheduler: CronScheduler;
  readonly #everyMs: number;
  readonly #onError: (error: unknown) => void;
  #timer: ReturnType<typeof setInterval> | undefined;
  #ticking = false;
  #waiters = new Set<() => void>();

  constructor(
    scheduler: CronScheduler,
    options: { everyMs: number; onError: (error: unknown) => void },
  ) {
    this.#scheduler = scheduler;
    this.#everyMs = options.everyMs;
    this.#onError = options.onError;
  }

  /** Tick now, then every `everyMs`, until {@link stop}. */
  start(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => void this.tick(), this.#everyMs);
    void this.tick();
  }

  /** Fire what is due now (once at a time) and wake the waiters. Never throws. */
  async tick(): Promise<void> {
    if (this.#ticking) return;
    this.#ticking = true;
    try {
      await this.#scheduler.tick();
    } catch (error) {
      this.#onError(error);
    } finally {
      this.#ticking = false;
    }
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const wake of waiters) wake();
  }

  /**
   * The oldest firing waiting for the agent: at once when there is one, else after the tick
   * that brings one. Rejects with `signal.reason` when `signal` aborts first.
   */
  async waitForFiring(signal: AbortSignal): Promise<PendingFiring> {
    while (true) {
      signal.throwIfAborted();
      const [firing] = this.#scheduler.pending();
      if (firing !== undefined) return firing;
      await new Promise<void>((resolve, reject) => {
        const wake = () => {
          signal.removeEventListener("abort", abort);
          resolve();
        };
        const abort = () => {
          this.#waiters.delete(wake);
          reject(signal.reason);
        };
        this.#waiters.add(wake);
        signal.addEventListener("abort", abort, { once: true });
      });
    }
  }

  /** Stop ticking. Waiters stay until their signals abort. */
  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
