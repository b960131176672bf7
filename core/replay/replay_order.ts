/**
 * The one total order of a session's recorded events, as replay reproduces it: `progress` is the
 * index of the last event such that every event up to it has been reproduced (or fed). Agents
 * that ran at once wait here until the events the log has before theirs are in, so each sees the
 * state it saw when it was recorded.
 */
export class ReplayOrder {
  /** Events reproduced after `progress`, with some before them not yet. */
  readonly #ahead = new Set<number>();
  #progress = -1;
  #waiters: { index: number; resolve: () => void; reject: (error: Error) => void }[] = [];
  #watchers: (() => void)[] = [];
  #stopped: Error | undefined;

  /** Index of the last event of the unbroken reproduced prefix; -1 when none. */
  get progress(): number {
    return this.#progress;
  }

  /** The event at `index` was reproduced. */
  done(index: number): void {
    if (index !== this.#progress + 1) {
      if (index > this.#progress) this.#ahead.add(index);
      return;
    }
    this.#progress = index;
    while (this.#ahead.delete(this.#progress + 1)) this.#progress += 1;
    this.#wake();
  }

  /** Resolves once every event before `index` is reproduced; rejects once stopped. */
  before(index: number): Promise<void> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    if (this.#progress >= index - 1) return Promise.resolve();
    return new Promise((resolve, reject) => this.#waiters.push({ index, resolve, reject }));
  }

  /** Resolves at the next change: progress moved, {@link nudge} was called, or it stopped. */
  changed(): Promise<void> {
    return new Promise((resolve) => this.#watchers.push(resolve));
  }

  /** Wake whoever waits for a change (a run ended). */
  nudge(): void {
    if (this.#watchers.length === 0) return;
    const watchers = this.#watchers;
    this.#watchers = [];
    for (const watcher of watchers) watcher();
  }

  /** Reject every waiter, now and later, with `error`. */
  stop(error: Error): void {
    this.#stopped ??= error;
    for (const waiter of this.#waiters) waiter.reject(error);
    this.#waiters = [];
    this.nudge();
  }

  #wake(): void {
    // Runs for every event reproduced: nothing is allocated when nobody waits.
    if (this.#waiters.length > 0) {
      const ready = this.#waiters.filter((w) => this.#progress >= w.index - 1);
      this.#waiters = this.#waiters.filter((w) => this.#progress < w.index - 1);
      for (const waiter of ready) waiter.resolve();
    }
    this.nudge();
  }
}
