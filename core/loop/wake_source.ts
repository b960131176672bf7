import type { EventStore } from "../../events/store.ts";
import type { State } from "../state/state.ts";
import type { PoolScope } from "../tools/tool_pool.ts";

/**
 * Something that wakes an idle agent for one turn: a cron firing, a background job's end (next:
 * mail for an idle agent, an idle tick for auto-claim). It is in the log already (the event that
 * brought it); the runner (core/runner/) starts the turn that takes it up.
 */
export interface Wake {
  /** The mechanism it belongs to (`cron`, `jobs`). */
  source: string;
  /** What woke the agent, unique within the source (a job's id; a cron job's id and minute). */
  key: string;
  /** seq of the event that brought it: the oldest wake is taken up first. */
  seq: number;
  /**
   * The turn's input: a prompt of its own (a cron firing's `[Scheduled] …` text, which the REPL
   * shows as a typed prompt), or undefined: what reached the agent is put before the model as its
   * arrivals (`AgentLoop.wake`: a job's `<task-notification>`).
   */
  prompt?: string;
}

/**
 * Something a run started that will wake its agent later (a background job still running), which
 * `rein -p` waits for before it ends.
 */
export interface Awaited {
  /** What it is, for a person: `background job`. */
  kind: string;
  /** Which one: `b1a2b3c4d (npm test)`. */
  label: string;
}

/** What the live side of a wake source works with, in a process that runs its agent. */
export interface WakeLive {
  store: EventStore;
  /** The harness's state, kept current by the store. */
  state: State;
  /** The session and agent the process runs now (the REPL's `/new` changes it). */
  scope(): { session: string; agent: string };
  /** How often a source driven by the clock looks at it (cron), in milliseconds. */
  tickMs: number;
  /** A failure of the live side (a firing that could not be appended); it goes on. */
  onError(error: unknown): void;
}

/**
 * What wakes a mechanism's idle agents (`Mechanism.wake`), pure over the state: the runner asks
 * again after each event its process folds (`untilFolded` in core/runner/wake.ts). The event that
 * wakes is appended by whoever saw it happen (a job's watcher, the cron scheduler of a live
 * process); one appended by another process reaches it once this one catches up on the log.
 */
export interface WakeSource {
  /** What would wake `scope`'s agent now, if it is idle. Pure. */
  pending(scope: PoolScope): readonly Wake[];
  /**
   * What will wake `scope`'s agent later and was started after `afterSeq` (a run's own
   * background jobs still running): `rein -p` waits for it. Pure; none when absent.
   */
  awaited?(scope: PoolScope, afterSeq: number): readonly Awaited[];
  /**
   * Start what makes this source's events happen in a live process (cron's clock ticking), while
   * the runner drives an agent (the REPL, `rein daemon`; not `-p`). Returns how to stop it.
   */
  live?(live: WakeLive): { stop(): void };
}
