import type { EventStore } from "../../events/store.ts";
import type { AgentLoop } from "../loop/agent_loop.ts";
import type { RunOptions, TurnResult } from "../loop/run_turn.ts";
import type { Awaited, Wake, WakeLive } from "../loop/wake_source.ts";
import {
  awaitedWakes,
  pendingWakes,
  runWake,
  startWakeSources,
  untilFolded,
  waitForWake,
  waitingLine,
  type WakeHost,
  wakeSourcesOf,
  wokenBy,
} from "./wake.ts";

/** A run the runner is driving: whose it is, and how to stop it. */
export interface ActiveRun {
  session: string;
  agent: string;
  cancel(): void;
  done: Promise<TurnResult | null>;
}

/**
 * The live agents of a process and their runs. Every run goes through {@link Runner.run}: one
 * run per agent at a time (a second one is refused, naming the agent), each with its own cancel,
 * so the REPL's Ctrl-C, `-p` and several agents running at once share one way of starting and
 * stopping work. Wake-ups beyond user input (cron, background jobs, next mail and idle polling)
 * start runs through the same method: the mechanisms declare them (`Mechanism.wake`), the runner
 * waits for them as the log's events are folded ({@link Runner.nextWake}) and runs the turn each starts; `rein -p`
 * waits for what its own run started ({@link Runner.settle}).
 */
export class Runner {
  readonly #active = new Map<string, ActiveRun>();
  readonly #host: WakeHost | undefined;

  /** `host`: the harness whose mechanisms' wake sources wake its idle agents. */
  constructor(host?: WakeHost) {
    this.#host = host;
  }

  #wakeHost(): WakeHost {
    if (this.#host === undefined) throw new Error("This runner was made without a harness to wake");
    return this.#host;
  }

  /**
   * Run `work` (a prompt or a resume of `loop`) with a fresh abort signal. Throws if the agent
   * is already running.
   */
  run(
    loop: AgentLoop,
    work: (options: Pick<RunOptions, "signal">) => Promise<TurnResult | null>,
  ): ActiveRun {
    const key = `${loop.id}/${loop.agent}`;
    if (this.#active.has(key)) {
      throw new Error(`Agent "${loop.agent}" of session ${loop.id} is already running`);
    }
    const controller = new AbortController();
    const done = work({ signal: controller.signal }).finally(() => this.#active.delete(key));
    const active: ActiveRun = {
      session: loop.id,
      agent: loop.agent,
      cancel: () => controller.abort(),
      done,
    };
    this.#active.set(key, active);
    return active;
  }

  /** The runs under way, in the order they started. */
  get active(): readonly ActiveRun[] {
    return [...this.#active.values()];
  }

  /** Cancel every run under way; each ends with `turn.ended` "cancelled". */
  cancelAll(): void {
    for (const run of this.#active.values()) run.cancel();
  }

  /**
   * Start the live side of the wake sources (cron's clock) for the agent `live.scope()` names,
   * while a process drives it (the REPL, `rein daemon`). Returns how to stop them.
   */
  startWakeSources(live: Omit<WakeLive, "store" | "state">): { stop(): void } {
    return startWakeSources(this.#wakeHost(), live);
  }

  /**
   * What wakes `loop`'s idle agent next (a cron firing, a job's end): at once when something is
   * waiting, else after the append that brings it. Rejects with `signal.reason` when `signal`
   * aborts (the person typed, the process is stopping).
   */
  nextWake(loop: AgentLoop, signal: AbortSignal): Promise<Wake> {
    return waitForWake(this.#wakeHost(), { session: loop.id, agent: loop.agent }, signal);
  }

  /** What woke `loop`'s agent, for a person (see {@link wokenBy}): a prompt, or `jobs <id>`. */
  wokenBy(loop: AgentLoop, wake: Wake): string {
    return wokenBy(this.#wakeHost(), { session: loop.id, agent: loop.agent }, wake);
  }

  /** Run the turn `wake` starts for `loop`'s agent (see {@link runWake}), as any run. */
  wake(loop: AgentLoop, wake: Wake, options: Omit<RunOptions, "signal">): ActiveRun {
    return this.run(loop, ({ signal }) => runWake(loop, wake, { ...options, signal }));
  }

  /**
   * What `rein -p` does once its turn has ended (`last`): while something the run started since
   * `afterSeq` will still wake the agent (a background job still running; each ends by its
   * timeout at the latest), say what it waits for (`say`) and run the turn that takes it up, as
   * the REPL would. Ctrl-C ({@link cancelAll}) cancels the wait as it cancels a turn. Resolves to
   * the last turn's result.
   */
  async settle(
    loop: AgentLoop,
    afterSeq: number,
    last: TurnResult | null,
    optionsFor: (signal: AbortSignal) => RunOptions,
    say: (line: string) => void,
  ): Promise<TurnResult | null> {
    const host = this.#wakeHost();
    const scope = { session: loop.id, agent: loop.agent };
    const sources = wakeSourcesOf(host.mechanisms);
    const own = (wake: Wake) => wake.seq > afterSeq;
    /**
     * The run's next wake, once there is one; null once nothing will wake the agent. While it
     * waits, what other processes append (a teammate's turn ending) is read in as it comes.
     */
    const next = async (signal: AbortSignal): Promise<Wake | null> => {
      const found = new AbortController();
      void followLog(host.store, AbortSignal.any([signal, found.signal]));
      try {
        return await untilFolded(host, () => {
          const wake = pendingWakes(sources, host.state, scope).find(own);
          if (wake !== undefined) return wake;
          return awaitedWakes(host, scope, afterSeq).length === 0 ? null : undefined;
        }, signal);
      } finally {
        found.abort();
      }
    };
    /**
     * What the run still waits for, on the log as it is now: what other processes appended since
     * this one last read it (another machine's teammate completing the task that unblocks one an
     * idle teammate here will claim) is read in before nothing is found. Null when a wake is
     * already pending.
     */
    const stillAwaited = async (): Promise<Awaited[] | null> => {
      for (let caughtUp = false;; caughtUp = true) {
        if (pendingWakes(sources, host.state, scope).some(own)) return null;
        const awaited = awaitedWakes(host, scope, afterSeq);
        if (awaited.length > 0 || caughtUp) return awaited;
        await host.store.catchUp();
      }
    };
    let result = last;
    while (result?.reason === "completed") {
      const awaited = await stillAwaited();
      if (awaited !== null) {
        if (awaited.length === 0) break;
        say(waitingLine(awaited));
      }
      const woken = this.run(loop, async ({ signal }) => {
        let wake: Wake | null;
        try {
          wake = await next(signal);
        } catch (error) {
          if (!signal.aborted) throw error;
          return { reason: "cancelled", rounds: 0, message: "Cancelled by the user" };
        }
        return wake === null ? null : await runWake(loop, wake, optionsFor(signal));
      });
      const ran = await woken.done;
      if (ran === null) break;
      result = ran;
    }
    return result;
  }

  /** Wait until no run is under way. */
  async idle(): Promise<void> {
    while (this.#active.size > 0) {
      await Promise.allSettled([...this.#active.values()].map((run) => run.done));
    }
  }
}

/** How often a waiting `rein -p` looks for what other processes appended, in milliseconds. */
const FOLLOW_MS = 100;

/**
 * Read in what other writers append to `store` (one `stat` a poll) until `signal` aborts; a
 * failure ends the following quietly (the wait goes on, as before it followed the log).
 */
async function followLog(store: EventStore, signal: AbortSignal): Promise<void> {
  try {
    while (!signal.aborted) await store.waitForAppend(store.lastSeq, signal, FOLLOW_MS);
  } catch {
    // Aborted, or the log failed: whoever appends next reports it.
  }
}
