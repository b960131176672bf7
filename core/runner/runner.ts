import type { AgentLoop } from "../loop/agent_loop.ts";
import type { RunOptions, TurnResult } from "../loop/run_turn.ts";

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
 * stopping work. Wake-ups beyond user input (cron, background jobs, mail, idle polling) start
 * runs through the same method.
 */
export class Runner {
  readonly #active = new Map<string, ActiveRun>();

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

  /** Wait until no run is under way. */
  async idle(): Promise<void> {
    while (this.#active.size > 0) {
      await Promise.allSettled([...this.#active.values()].map((run) => run.done));
    }
  }
}
