import type { Envelope, EventOrigin } from "../../events/event_types.ts";
import { ModelCancelledError, type ModelClient, ModelError } from "../effects/model_client.ts";
import type { HarnessEffects } from "../harness.ts";
import type { Observe, ObserveMaybe, WaitFor } from "../loop/loop_deps.ts";
import { type CallRunner, executeCall } from "../tools/executor.ts";
import { copyJson } from "./_copy_json.ts";
import { TapeEnded } from "./_replay_stops.ts";
import type { AgentTape } from "./agent_tape.ts";
import type { ReplayOrder } from "./replay_order.ts";

/** What the served effects read of a replay (a `SessionReplay`). */
export interface ServedReplay {
  readonly order: ReplayOrder;
  /** The tape of `agent`, reading on to its first event; undefined when it has none. */
  tapeOf(agent: string): AgentTape | undefined;
  /** Whether the event at `index` belongs to the process of `agent`'s run. */
  within(agent: string, index: number): boolean;
  /** The recorded event `agent` must produce next; throws where there is none. */
  expected(agent: string, produced: string): { event: Envelope; index: number };
  /** The error for a loop that waits for `what` where the log has `next`. */
  stuck(next: Envelope, what: string): Error;
  /**
   * The recorded event at `index` in the session's order; undefined past its end, null when it
   * was let go of. Those after the last event of an agent whose run is under way are held (see
   * `waitFor`).
   */
  recordedAt(index: number): Envelope | undefined | null;
}

/**
 * The effects of a replay's harness, served from the recorded session: the model's answers,
 * effect tools' results, readings of the world, retry delays; the clock stands at the session's
 * start and sleeps return at once. Decider tools run again.
 */
export function servedEffects(replay: ServedReplay, clock: () => Date): HarnessEffects {
  return {
    model: servedModel(replay),
    clock,
    monotonicMs: () => 0,
    sleep: (_ms, signal) =>
      signal.aborted ? Promise.reject(new Error("aborted")) : Promise.resolve(),
    retryDelay: (_attempt, _error, origin) => {
      const next = replay.tapeOf(origin.agent)?.next();
      return next?.type === "model.failed" ? next.data.retryInMs : null;
    },
    whyNoRetry: (_attempt, _error, origin) => {
      const next = replay.tapeOf(origin.agent)?.next();
      return next?.type === "model.failed" ? next.data.noRetry : undefined;
    },
    runCall: servedCalls(replay),
    settle: (origin) => settle(replay, origin),
    observe: servedObserve(replay),
    observeMaybe: servedObserveMaybe(replay),
    waitFor: servedWaitFor(replay),
  };
}

/** The model: each request answered with the agent's recorded answer, failure or cancel. */
function servedModel(replay: ServedReplay): ModelClient {
  return {
    send(_body, { signal, onText, origin }) {
      const { event: next } = replay.expected(origin.agent, "a model request");
      if (signal.aborted) return Promise.reject(new ModelCancelledError());
      if (next.type === "model.responded") {
        const text = next.data.content.flatMap((b) => b.type === "text" ? [b.text] : []).join("");
        if (text) onText?.(text);
        return Promise.resolve(copyJson(next.data));
      }
      if (next.type === "model.failed") {
        const { message, kind, status } = next.data;
        return Promise.reject(new ModelError(message, { kind, status }));
      }
      if (next.type === "model.cancelled") return Promise.reject(new ModelCancelledError());
      return Promise.reject(replay.stuck(next, "the model's answer"));
    },
  };
}

/** Calls: an effect tool's recorded result; a decider run again on the state it saw. */
function servedCalls(replay: ServedReplay): CallRunner {
  return async (call, tools, context) => {
    const { event: next } = replay.expected(context.agent, `the result of ${call.name}`);
    const served = replay.tapeOf(context.agent)?.servedRun(call.id);
    if (!served) throw replay.stuck(next, `the result of ${call.name} call ${call.id}`);
    const { firstIndex, ...run } = served;
    if (tools.get(call.name)?.kind !== "decider") return run;
    // A decider is pure over its input and the state: run it again on the state it saw, so
    // --verify checks what it decides. Only its duration (a clock reading) comes from the log.
    await replay.order.before(firstIndex);
    const again = await executeCall(call, tools, context, () => 0);
    return { ...again, completed: { ...again.completed, durationMs: run.completed.durationMs } };
  };
}

function servedObserve(replay: ServedReplay): Observe {
  return (origin, type, matches) => {
    const tape = replay.tapeOf(origin.agent);
    const data = tape?.observed(type, matches, (index) => replay.within(origin.agent, index));
    if (data !== undefined) return Promise.resolve(data);
    const next = tape?.next();
    if (next) return Promise.reject(replay.stuck(next, `a recorded ${type}`));
    return Promise.reject(new TapeEnded());
  };
}

function servedObserveMaybe(replay: ServedReplay): ObserveMaybe {
  return (origin, type, matches) => {
    const tape = replay.tapeOf(origin.agent);
    if (!tape) return Promise.resolve(undefined);
    const loop = tape.nextLoopIndex();
    return Promise.resolve(
      tape.observed(type, matches, (index) => index < loop && replay.within(origin.agent, index)),
    );
  };
}

/**
 * Another agent's event a stage waits for: the first recorded one of the type that matches
 * between the waiting agent's last event and its next (where the recorded run got it), once
 * replay has reproduced (or fed) it, so the state has it as it had live. Each is served once.
 * Where the log has none, the recorded run was cancelled while it waited (the signal is aborted
 * then) or its process ended there.
 */
function servedWaitFor(replay: ServedReplay): WaitFor {
  const served = new Set<number>();
  return async (origin, type, matches, signal) => {
    const tape = replay.tapeOf(origin.agent);
    const until = tape?.nextIndex() ?? Infinity;
    for (let index = (tape?.lastIndex() ?? -1) + 1; index < until; index++) {
      const event = replay.recordedAt(index);
      if (event === undefined) break;
      if (event === null) continue; // before the agent's run began
      if (event.type !== type || served.has(event.seq)) continue;
      const copy = copyJson(event) as typeof event & { type: typeof type };
      if (!matches(copy)) continue;
      served.add(event.seq);
      await replay.order.before(index + 1);
      return copy;
    }
    signal.throwIfAborted();
    const next = tape?.next();
    if (next && replay.within(origin.agent, tape?.nextIndex() ?? Infinity)) {
      throw replay.stuck(next, `a recorded ${type} of another agent`);
    }
    throw new TapeEnded();
  };
}

/** Wait until the events the log has before the agent's next one are reproduced. */
async function settle(replay: ServedReplay, origin: EventOrigin): Promise<void> {
  const tape = replay.tapeOf(origin.agent);
  if (!tape?.next()) return;
  const index = tape.nextIndex();
  if (replay.within(origin.agent, index)) await replay.order.before(index);
}
