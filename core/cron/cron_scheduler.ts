import type { Envelope, NewEvent } from "../../events/event_types.ts";
import type { EventStore } from "../../events/store.ts";
import { sliceOf, type State } from "../state/state.ts";
import { cronProjection, type PendingFiring, sessionCronIn } from "./cron_projection.ts";
import { type DueFiring, dueFirings, firedData } from "./due_firings.ts";
import { hasFeature } from "../settings/session_features.ts";
import { cronTableOf } from "./cron_read.ts";

/** What a scheduler fires for, and with what. */
export interface CronSchedulerOptions {
  /** The log: firings are appended under its lock. */
  store: EventStore;
  /** The harness's state (its catalog holds the workspace's jobs), kept current by the store. */
  state: State;
  /** The wall clock: each reading that finds a job due is recorded with its firing. */
  clock: () => Date;
  /** The session and agent this process runs: firings are theirs. */
  session: () => { session: string; agent: string };
}

/**
 * The live side of cron in one process: it reads the clock, and fires what {@link dueFirings}
 * finds due for the session it runs. A firing is appended with the log's lock held, decided on
 * the state caught up with every other writer (`appendDecided`): a job whose minute another
 * process fired meanwhile is not due any more, so no two processes fire the same time of a job
 * (append-if-absent under the lock; the table's fold also ignores a repeated minute). Nothing
 * fires while no process runs: the first tick after a start fires each job whose times were
 * missed once, marked late. A session recorded by a rein without cron gets no firings.
 */
export class CronScheduler {
  readonly #options: CronSchedulerOptions;

  constructor(options: CronSchedulerOptions) {
    this.#options = options;
  }

  /**
   * Read the clock once and fire every job due then. Resolves with the firings this process
   * appended (none when nothing was due or another process fired first). Throws what the store
   * throws.
   */
  async tick(): Promise<Envelope[]> {
    const { state, store } = this.#options;
    const now = this.#options.clock();
    const { session } = this.#options.session();
    if (!hasFeature(state, session, "cron")) return [];
    // Most ticks find nothing due: they cost a plan, not the log's lock.
    if (this.#due(now).length === 0) return [];
    return await store.appendDecided(() => this.#firings(now), { sync: true });
  }

  /** Firings of this process's session waiting for `agent` (its main agent), oldest first. */
  pending(): PendingFiring[] {
    const { session, agent } = this.#options.session();
    const slice = sliceOf(this.#options.state, cronProjection);
    return sessionCronIn(slice, session).pending.filter((firing) => firing.agent === agent);
  }

  /**
   * The firings due at `now` that are this process's agent's: a session's job fires for the agent
   * that scheduled it (a teammate's process never fires the lead's, nor the lead's a teammate's),
   * a durable job for a session's main agent only.
   */
  #due(now: Date): DueFiring[] {
    const { session, agent } = this.#options.session();
    const state = this.#options.state;
    const main = state.sessions.byId[session]?.mainAgent === agent;
    return dueFirings(cronTableOf(state), now, session).filter((due) =>
      due.job.durable ? main : due.job.agent === agent
    );
  }

  #firings(now: Date): NewEvent[] {
    const { session, agent } = this.#options.session();
    if (!hasFeature(this.#options.state, session, "cron")) return [];
    return this.#due(now).map((due) => ({
      type: "cron.fired",
      data: firedData(due, now),
      session,
      agent,
    }));
  }
}
