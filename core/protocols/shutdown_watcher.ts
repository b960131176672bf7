import type { EventStore } from "../../events/store.ts";
import { waitForEvent } from "../loop/wait_for_event.ts";
import type { State } from "../state/state.ts";
import { expireShutdown, recordStop } from "./protocol_deciders.ts";
import { sessionProtocols } from "./protocols_of.ts";

/** The environment variable that sets how long the lead waits for a shutdown answer (ms). */
export const SHUTDOWN_TIMEOUT_ENV = "REIN_SHUTDOWN_TIMEOUT_MS";

/** How long the lead waits for a teammate's answer to a shutdown request by default. */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 30_000;

/**
 * The shutdown timeout `REIN_SHUTDOWN_TIMEOUT_MS` gives (a whole number of milliseconds), else
 * {@link DEFAULT_SHUTDOWN_TIMEOUT_MS}. Pure.
 */
export function shutdownTimeoutMs(value: string | undefined): number {
  const ms = value === undefined ? NaN : Number(value.trim());
  return Number.isInteger(ms) && ms >= 0 ? ms : DEFAULT_SHUTDOWN_TIMEOUT_MS;
}

/** What a shutdown watcher is wired with: live effects only (replay never runs one). */
export interface ShutdownWatcherOptions {
  /** The log, appended to under its lock. */
  log: () => EventStore;
  /** The state folded from the log by the process (caught up under the lock before deciding). */
  view: () => State;
  /** The wall clock, whose reading is recorded with the expiry. */
  clock: () => Date;
  /** How long to wait for an answer, in ms (see {@link shutdownTimeoutMs}). */
  timeoutMs: number;
}

/** How a watched shutdown request ended. */
export type ShutdownOutcome = "answered" | "expired" | "closed";

/**
 * The lead's side of a shutdown's timeout (s16), live only: `watch` waits for the teammate's
 * answer to a request for at most `timeoutMs`; past it, it appends, under the log's lock and
 * only while the request is still pending (`expireShutdown`), `protocol.expired` (forced, with
 * the timeout and the clock reading) and the teammate's `agent.stopped`, which the supervisor
 * acts on (it ends the teammate's process). An answer that lands first wins: a refusal appends
 * nothing; an approval appends the teammate's `agent.stopped` once its turn has ended. Replay never runs it: `protocol.expired` is fed from the log where it was recorded.
 * The lead never waits on it: `watch` runs beside the lead's loop.
 */
export class ShutdownWatcher {
  readonly #options: ShutdownWatcherOptions;
  readonly #closed = new AbortController();
  readonly #watched = new Map<string, Promise<ShutdownOutcome>>();

  constructor(options: ShutdownWatcherOptions) {
    this.#options = options;
  }

  /** Watch request `id` of `session` (once: watching it again returns the same outcome). */
  watch(session: string, id: string): Promise<ShutdownOutcome> {
    const key = `${session}/${id}`;
    let watched = this.#watched.get(key);
    if (watched === undefined) {
      watched = this.#watch(session, id);
      this.#watched.set(key, watched);
    }
    return watched;
  }

  /** Every watch still under way, settled (what `-p` waits for before it exits). */
  async settled(): Promise<void> {
    await Promise.all(this.#watched.values());
  }

  /** Stop watching: nothing more is appended. */
  close(): void {
    this.#closed.abort(new Error("Shutdown watcher closed"));
  }

  async #watch(session: string, id: string): Promise<ShutdownOutcome> {
    const { log, view, clock, timeoutMs } = this.#options;
    const request = sessionProtocols(view(), session).byId[id];
    if (request === undefined) return "answered";
    // Approved already (a resumed lead): its answer is read back below, and the teammate's stop
    // waits for the end of the turn that answered, not of one that ended before the answer.
    if (request.status !== "pending" && request.status !== "approved") return "answered";
    const timeout = AbortSignal.timeout(timeoutMs);
    try {
      const answer = await waitForEvent(
        log(),
        request.seq,
        "protocol.answered",
        (event) => event.session === session && event.data.id === id,
        AbortSignal.any([timeout, this.#closed.signal]),
      );
      return answer.data.approve
        ? await this.#stopAfterTurn(session, request.to, answer.seq)
        : "answered";
    } catch (error) {
      if (this.#closed.signal.aborted) return "closed";
      if (!timeout.aborted) throw error;
    }
    const appended = await log().appendDecided(
      () => expireShutdown(view(), session, id, { timeoutMs, at: clock().toISOString() }),
      { sync: true },
    );
    return appended.length > 0 ? "expired" : "answered";
  }

  /**
   * Teammate `agent` approved its shutdown (at `afterSeq`): once its turn has ended (it finishes
   * the call that answered), record its `agent.stopped`, which ends its process; past the
   * timeout without that end, record it forced.
   */
  async #stopAfterTurn(session: string, agent: string, afterSeq: number): Promise<ShutdownOutcome> {
    const { log, view, timeoutMs } = this.#options;
    if (sessionProtocols(view(), session).stopRecorded[agent]) return "answered";
    const timeout = AbortSignal.timeout(timeoutMs);
    let forced = false;
    try {
      await waitForEvent(
        log(),
        afterSeq,
        "turn.ended",
        (event) => event.session === session && event.agent === agent,
        AbortSignal.any([timeout, this.#closed.signal]),
      );
    } catch (error) {
      if (this.#closed.signal.aborted) return "closed";
      if (!timeout.aborted) throw error;
      forced = true;
    }
    await log().appendDecided(() => recordStop(view(), session, agent, forced), { sync: true });
    return "answered";
  }
}
