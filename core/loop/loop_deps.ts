import type {
  EnvelopeOf,
  EventOrigin,
  EventPayloads,
  EventType,
  Usage,
} from "../../events/event_types.ts";
import type { EventStore } from "../../events/store.ts";
import type { ModelClient, ModelError } from "../effects/model_client.ts";
import type { SystemSection } from "../request/system_prompt.ts";
import type { State } from "../state/state.ts";
import type { CallRunner } from "../tools/executor.ts";
import type { PoolScope, ToolPool } from "../tools/tool_pool.ts";
import type { Arrival } from "./arrivals.ts";
import type { Stages } from "./stages.ts";

/** The effects a loop uses; the harness gives live ones, replay gives ones served from the log. */
export interface LoopEffects {
  model: ModelClient;
  /** Wall clock (read once, at session start). */
  clock: () => Date;
  /** Wait `ms`; rejects when `signal` aborts. */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Delay before `origin`'s next attempt after `attempt` failed with `error`, or null to give up. */
  retryDelay: (attempt: number, error: ModelError, origin: EventOrigin) => number | null;
  /**
   * Why `retryDelay` gave up on a retryable error other than by running out of attempts (a
   * retry-after longer than rein waits), or undefined.
   */
  whyNoRetry?: (attempt: number, error: ModelError, origin: EventOrigin) => string | undefined;
  /** Gives a call whose intent is recorded its result. */
  runCall: CallRunner;
  /**
   * Wait until what `origin` is about to read is as it was when the recorded run read it: the
   * loop calls it before every step that reads the state (a stage, a request, a call). Live, in
   * one process, there is nothing to wait for; replay waits until every event the log has before
   * the agent's next one has been reproduced, so agents that ran at once see the same state.
   */
  settle?: (origin: EventOrigin) => Promise<void>;
  /** Read the world for a decision; absent: every reading is live (see {@link Observe}). */
  observe?: Observe;
  /** A reading that only sometimes leads to an event (see {@link ObserveMaybe}). */
  observeMaybe?: ObserveMaybe;
  /** Another agent's event a stage waits for; absent: waited for live (see {@link WaitFor}). */
  waitFor?: WaitFor;
}

/**
 * Another agent's event of `type` that `matches`, which a stage of `origin` waits for (after
 * `afterSeq`, live). Live, it waits over the store; replay serves the recorded event once it has
 * been reproduced, never waiting for the world.
 */
export type WaitFor = <T extends EventType>(
  origin: EventOrigin,
  type: T,
  matches: (event: EnvelopeOf<T>) => boolean,
  signal: AbortSignal,
  afterSeq: number,
) => Promise<EnvelopeOf<T>>;

/**
 * A reading of the world that leads to an event of `type` only sometimes (a clock reading that
 * notices the date has changed). Live, it calls `read`; replay serves the agent's recorded event
 * of `type` that `matches` if the log has one before the agent's next step, and undefined (the
 * reading found nothing) otherwise.
 */
export type ObserveMaybe = <T extends EventType>(
  origin: EventOrigin,
  type: T,
  matches: (data: EventPayloads[T]) => boolean,
  read: () => Promise<EventPayloads[T] | undefined>,
) => Promise<EventPayloads[T] | undefined>;

/**
 * A reading of the world that decides something and is recorded as an event of `type` (a hook's
 * run, a person's answer). Live, it calls `read`; replay never reads again: it serves the data of
 * the agent's next recorded event of `type` that `matches`.
 */
export type Observe = <T extends EventType>(
  origin: EventOrigin,
  type: T,
  matches: (data: EventPayloads[T]) => boolean,
  read: () => Promise<EventPayloads[T]>,
) => Promise<EventPayloads[T]>;

/**
 * Everything an agent loop is wired with, built once by the composition root (`createHarness`)
 * for the CLI, the tests and replay alike. The loop holds no state of its own: `state` is kept
 * current by the store's listener, and the pool, the prompt sections and the stages are functions
 * of it.
 */
export interface LoopDeps {
  store: EventStore;
  state: State;
  effects: LoopEffects;
  stages: Stages;
  /** The tools an agent may call now. */
  pool(scope: PoolScope): ToolPool;
  /** The mechanisms' system prompt sections for an agent now. */
  sections(scope: PoolScope): SystemSection[];
  /**
   * What reached an agent from outside its loop and was not put before the model yet, in log
   * order (see `injectArrivals`).
   */
  arrivals(scope: PoolScope): readonly Arrival[];
  /** The directory an agent works in. */
  cwd(scope: PoolScope): string;
  /** Dollars for `usage` of `model` (0 when its price is unknown). */
  price(model: string, usage: Usage): number;
}
