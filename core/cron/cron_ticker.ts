import type { CronScheduler } from "./cron_scheduler.ts";

/**
 * A scheduler run on a timer, for a live process (the REPL, `rein daemon`, through cron's wake
 * source): it ticks every `everyMs` while started (during turns too: a firing then joins the
 * running turn's next request). A firing it appends while the agent is idle wakes it (the
 * runner, see `cronWake`).
 */
export class CronTicker {
  readonly #scheduler: CronScheduler;
  readonly #everyMs: number;
  readonly #onError: (error: unknown) => void;
  #timer: ReturnType<typeof setInterval> | undefined;
  #ticking = false;

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

  /** Fire what is due now (once at a time). Never throws. */
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
  }

  /** Stop ticking. */
  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
