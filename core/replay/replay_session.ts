import { MemoryEventStore } from "../../events/memory_store.ts";
import type { Envelope, EventOrigin, EventType, NewEvent } from "../../events/event_types.ts";
import type { EventStore } from "../../events/store.ts";
import { ModelCancelledError, type ModelClient, ModelError } from "../effects/model_client.ts";
import { createHarness } from "../harness.ts";
import { evolve } from "../state/state.ts";
import type { AgentLoop } from "../loop/agent_loop.ts";
import type { Mechanism } from "../mechanism.ts";
import type { Observe, ObserveMaybe } from "../loop/loop_deps.ts";
import { type CallRunner, executeCall } from "../tools/executor.ts";
import { AgentTape, comparable, isCancellation } from "./agent_tape.ts";
import { copyJson } from "./_copy_json.ts";
import { Recorded } from "./recorded.ts";
import { ReplayOrder } from "./replay_order.ts";
import { sameEvent, sameJson } from "./same_event.ts";

/** The first point where the re-driven loop and the recorded log disagree. */
export interface Divergence {
  /** seq of the recorded event that no longer matches; null when the log had ended. */
  seq: number | null;
  /** What the log recorded there (without seq/ts), or null. */
  recorded: unknown;
  /** What the replayed loop produced instead, or null. */
  replayed: unknown;
  reason: string;
}

/** The outcome of replaying one session. */
export interface ReplayResult {
  session: string;
  /** Recorded events the replay reproduced. */
  matched: number;
  divergence: Divergence | null;
  /**
   * The first recorded event whose payload does not fold (a projection throws on it: a damaged
   * line), met in the replay or, when it stopped short, in the session's events after; null
   * when every one folds.
   */
  damaged: { event: Envelope; error: unknown } | null;
}

/** Options of {@link replaySession}. */
export interface ReplayOptions {
  /** Mechanisms beyond rein's own, as the recording harness had them. */
  mechanisms?: readonly Mechanism[];
  /** Every reproduced event, for rendering. */
  onEvent?: (event: Envelope) => void;
  /** Recorded assistant text, as a live run would have streamed it. */
  onText?: (delta: string) => void;
}

/** The replay stopped at a divergence. */
class Diverged extends Error {}
/** The recorded process died here: what the replayed loop would do next never happened. */
class TapeEnded extends Error {}

/** Reading the recorded session failed: the replay stops, and the reading's error is thrown. */
class ReadFailed extends Error {}

/** A run of one agent under replay: the process (epoch) it belongs to, and its cancel. */
interface AgentRun {
  /** Index of the run's first event. */
  startIndex: number;
  /**
   * Index of the first event of the next process (a `session.resumed`), once it has been read;
   * undefined while none has (the process lasts to the session's end as far as it is read).
   */
  epochEnd: number | undefined;
  controller: AbortController;
  done: Promise<void>;
  active: boolean;
}

/**
 * Re-drive a session's agents through the same harness as a live run, with the model, effect
 * tools, clock and retry delays served from its recorded events: no network, no tool runs, no
 * file writes. Decider tools and stage handlers run again. Agents that ran at once run at once
 * again, and every append waits until the events the log has before it are reproduced, so the
 * log's one total order is rebuilt and each agent reads the state it read then. Each produced
 * event is compared with the recorded one (timestamps and seq aside); the first mismatch is
 * returned as a {@link Divergence}. Events from outside the loops (the mechanisms' `fedTypes`)
 * are fed at their recorded positions. Where the recorded process died (a `session.resumed`
 * follows, or the log ends mid-turn), the runs of that process stop and replay continues as the
 * resume did.
 *
 * `session` gives the session's events in order, and is read only as far as the replay has
 * come (an agent asking for its next recorded event reads on to it): a session read from the
 * log is replayed as it is read, holding what is still to be reproduced rather than all of it.
 * What reading it throws (a damaged line) stops the replay and is thrown.
 */
export async function replaySession(
  session: Iterable<Envelope>,
  options: ReplayOptions = {},
): Promise<ReplayResult> {
  const order = new ReplayOrder();
  const recorded = new Recorded(session, () => order.stop(new ReadFailed()));
  try {
    const result = await replayRecorded(recorded, order, options);
    if (recorded.failure) throw recorded.failure.error;
    return result;
  } finally {
    recorded.close();
  }
}

async function replayRecorded(
  recorded: Recorded,
  order: ReplayOrder,
  options: ReplayOptions,
): Promise<ReplayResult> {
  const first = recorded.at(0);
  if (first?.type !== "session.started") {
    if (recorded.failure) throw recorded.failure.error;
    throw new Error("Cannot replay: the session's first event is not session.started");
  }
  // Each agent's tape, made at its first event once the harness says which events reach the
  // agents from outside their loops.
  const tapes = new Map<string, AgentTape>();
  /** Index of the recorded event being fed, while it is; how many were fed. */
  let feeding: number | undefined;
  let fedCount = 0;
  const runs = new Map<string, AgentRun>();
  // A process starts at a resume of an agent the person drives; a subagent continued by its
  // parent's composite call after that resume records its own, inside the same process (a
  // subagent's first event is its agent.spawned).
  const children = new Set<string>();
  const resumes: number[] = [];
  recorded.onRead((event, index) => {
    if (event.type === "agent.spawned") children.add(event.agent);
    else if (event.type === "session.resumed" && !children.has(event.agent)) resumes.push(index);
  });
  /** Whether the event at `index` (read already) belongs to the process of `run`. */
  const inEpoch = (run: AgentRun, index: number): boolean => {
    if (!Number.isFinite(index)) return false;
    run.epochEnd ??= resumes.find((r) => r > run.startIndex);
    return index < (run.epochEnd ?? Infinity);
  };
  /** Whether the event at `index` belongs to the process of `agent`'s run, when it has one. */
  const within = (agent: string, index: number): boolean => {
    const run = runs.get(agent);
    return run ? inEpoch(run, index) : Number.isFinite(index);
  };
  /** The tape of `agent`, reading on to its first event; undefined when it has none. */
  const tapeOf = (agent: string): AgentTape | undefined => {
    let tape = tapes.get(agent);
    while (tape === undefined && recorded.more()) tape = tapes.get(agent);
    return tape;
  };
  let divergence: Divergence | null = null;
  /** How many recorded events the harness has folded (in order), and the first that did not. */
  let folded = 0;
  let damaged: { event: Envelope; error: unknown } | null = null;
  /** Keep the first divergence found and stop every waiting run. */
  const record = (found: Divergence) => {
    divergence ??= found;
    order.stop(new Diverged());
  };
  const diverge = (found: Divergence): never => {
    record(found);
    throw new Diverged();
  };
  /** The recorded event `agent` must produce next, or a crash/divergence when there is none. */
  const expected = (agent: string, produced: string): { event: Envelope; index: number } => {
    if (divergence) throw new Diverged();
    const tape = tapeOf(agent);
    if (!tape) {
      return diverge({
        seq: null,
        recorded: null,
        replayed: produced,
        reason: `the replayed loop produced ${produced} for agent ${agent}, which the log never ` +
          "recorded in this session",
      });
    }
    const event = tape.next();
    const index = tape.nextIndex();
    if (event && within(agent, index)) return { event, index };
    // Past the agent's recorded events in this process: it died here, unless its turn had
    // ended, in which case the log is complete and the loop is doing something new.
    if (tape.last()?.type !== "turn.ended") throw new TapeEnded();
    return diverge({
      seq: event?.seq ?? null,
      recorded: event ? comparable(event) : null,
      replayed: produced,
      reason: `the replayed loop produced ${produced} for agent ${agent} after its turn ended, ` +
        "which the log does not have",
    });
  };

  const model: ModelClient = {
    send(_body, { signal, onText, origin }) {
      const { event: next } = expected(origin.agent, "a model request");
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
      return Promise.reject(stuck(next, "the model's answer"));
    },
  };
  const stuck = (next: Envelope, what: string): Error => {
    if (next.type === "session.resumed") return new TapeEnded();
    record({
      seq: next.seq,
      recorded: comparable(next),
      replayed: null,
      reason: `the replayed loop waits for ${what} where the log has ${next.type}`,
    });
    return new Diverged();
  };
  const runCall: CallRunner = async (call, tools, context) => {
    const { event: next } = expected(context.agent, `the result of ${call.name}`);
    const served = tapeOf(context.agent)?.servedRun(call.id);
    if (!served) throw stuck(next, `the result of ${call.name} call ${call.id}`);
    const { firstIndex, ...run } = served;
    if (tools.get(call.name)?.kind !== "decider") return run;
    // A decider is pure over its input and the state: run it again on the state it saw, so
    // --verify checks what it decides. Only its duration (a clock reading) comes from the log.
    await order.before(firstIndex);
    const again = await executeCall(call, tools, context, () => 0);
    return { ...again, completed: { ...again.completed, durationMs: run.completed.durationMs } };
  };
  const observe: Observe = (origin, type, matches) => {
    const tape = tapeOf(origin.agent);
    const data = tape?.observed(type, matches, (index) => within(origin.agent, index));
    if (data !== undefined) return Promise.resolve(data);
    const next = tape?.next();
    if (next) return Promise.reject(stuck(next, `a recorded ${type}`));
    return Promise.reject(new TapeEnded());
  };
  const observeMaybe: ObserveMaybe = (origin, type, matches) => {
    const tape = tapeOf(origin.agent);
    if (!tape) return Promise.resolve(undefined);
    const loop = tape.nextLoopIndex();
    return Promise.resolve(
      tape.observed(type, matches, (index) => index < loop && within(origin.agent, index)),
    );
  };
  const settle = async (origin: EventOrigin) => {
    const tape = tapeOf(origin.agent);
    if (!tape?.next()) return;
    const index = tape.nextIndex();
    if (within(origin.agent, index)) await order.before(index);
  };

  /**
   * The recorded event `event` reproduces (or is fed as), or undefined at a divergence. The
   * harness folds the recorded one: its seq is the log's, not the replay store's (which numbers
   * one session's events alone), so what a mechanism derives from seqs (an arrival's) is what the
   * recorded run derived.
   */
  const accept = (event: Envelope): Envelope | undefined => {
    if (divergence) return undefined;
    if (feeding !== undefined) {
      const index = feeding;
      feeding = undefined;
      fedCount += 1;
      const fed = recorded.at(index) as Envelope;
      options.onEvent?.(fed);
      order.done(index);
      return fed;
    }
    const tape = tapeOf(event.agent);
    const want = tape?.next();
    if (!tape || !want || !sameEvent(want, event)) {
      record({
        seq: want?.seq ?? null,
        recorded: want ? comparable(want) : null,
        replayed: comparable(event),
        reason: want ? mismatch(want, event) : `the log has no more events of ${event.agent}`,
      });
      return undefined;
    }
    const index = tape.nextIndex();
    tape.advance();
    options.onEvent?.(want);
    if (isCancellation(tape.next())) runs.get(event.agent)?.controller.abort();
    order.done(index);
    return want;
  };
  /** Events handed to the store with their recorded event's data. */
  const encoded = new WeakSet<NewEvent>();
  /**
   * `events` with the data of each that is its recorded event's, as JSON, replaced by that data:
   * the store keeps those as they are instead of writing them out and reading them back, and
   * `accept` finds them equal at once. Where the match is not the event `accept` will compare
   * with, nothing changes but the cost: the data are the same JSON.
   */
  const withRecordedData = (events: readonly NewEvent[]): NewEvent[] => {
    const offsets = events.length > 1 ? new Map<string, number>() : undefined;
    return events.map((event) => {
      const offset = offsets?.get(event.agent) ?? 0;
      offsets?.set(event.agent, offset + 1);
      const want = tapeOf(event.agent)?.peek(offset);
      if (
        want?.type !== event.type || want.session !== event.session ||
        want.agent !== event.agent || !sameJson(event.data, want.data)
      ) return event;
      const { type, session, agent } = event;
      const same = { type, session, agent, data: want.data } as NewEvent;
      encoded.add(same);
      return same;
    });
  };
  const startedAt = Date.parse(first.data.startedAt);
  const clock = () => new Date(startedAt);
  let raw: MemoryEventStore | undefined;
  const live = await createHarness({
    openStore: (onEvent, { eventTypes }) => {
      raw = new MemoryEventStore({
        // The replay folds each event as it is appended, and holds none of them after that.
        keep: false,
        clock,
        eventTypes,
        onEvent: (event) => {
          const recordedEvent = accept(event);
          if (!recordedEvent) return;
          try {
            onEvent(recordedEvent);
          } catch (error) {
            damaged ??= { event: recordedEvent, error };
            throw error;
          }
          folded += 1;
        },
        isEncoded: (event) => encoded.has(event),
      });
      return orderedStore(raw, withRecordedData, async (events) => {
        const head = events[0];
        if (!head) return;
        const { index } = expected(head.agent, head.type);
        await order.before(index);
        if (divergence) throw new Diverged();
      }, () => {
        if (divergence) throw new Diverged();
      });
    },
    workspace: first.data.workspace,
    effects: {
      model,
      clock,
      monotonicMs: () => 0,
      sleep: (_ms, signal) =>
        signal.aborted ? Promise.reject(new Error("aborted")) : Promise.resolve(),
      retryDelay: (_attempt, _error, origin) => {
        const next = tapeOf(origin.agent)?.next();
        return next?.type === "model.failed" ? next.data.retryInMs : null;
      },
      whyNoRetry: (_attempt, _error, origin) => {
        const next = tapeOf(origin.agent)?.next();
        return next?.type === "model.failed" ? next.data.noRetry : undefined;
      },
      runCall,
      settle,
      observe,
      observeMaybe,
    },
    ...(options.mechanisms ? { mechanisms: options.mechanisms } : {}),
  });
  const fed = new Set<EventType>(live.mechanisms.flatMap((m) => m.fedTypes ?? []));
  // The events the loops never produce (they are fed at their places) are on no agent's tape.
  const readOn = () => recorded.more();
  recorded.onRead((event, index) => {
    if (fed.has(event.type)) return;
    let tape = tapes.get(event.agent);
    if (tape === undefined) tapes.set(event.agent, tape = new AgentTape(readOn));
    tape.add(event, index);
  });
  const loops = new Map<string, AgentLoop>();

  /** Start the run of `agent` whose first event is at `index`. */
  const start = (agent: string, index: number) => {
    const tape = tapeOf(agent) as AgentTape;
    const input = tape.nextInput();
    const controller = new AbortController();
    const startEvent = recorded.at(index) as Envelope;
    const run: AgentRun = {
      startIndex: index,
      epochEnd: undefined,
      controller,
      done: Promise.resolve(),
      active: true,
    };
    runs.set(agent, run);
    const runOptions = {
      signal: controller.signal,
      maxTurns: null as number | null,
      ...(options.onText ? { onText: options.onText } : {}),
    };
    const work = async () => {
      if (input?.type === "session.started" && loops.size === 0) {
        const { startedAt: _startedAt, ...setup } = input.data;
        loops.set(agent, await live.startSession({ id: input.session, ...setup }, agent));
      } else if (input?.type === "user.prompted" && loops.size > 0) {
        const loop = loops.get(agent) ?? live.openSession(input.session, agent);
        loops.set(agent, loop);
        await loop.prompt(input.data.text, { ...runOptions, ...tape.limitsAfter(input) });
      } else if (input?.type === "session.ended" && loops.size > 0) {
        const loop = loops.get(agent) ?? live.openSession(input.session, agent);
        loops.set(agent, loop);
        await loop.end(input.data.reason, controller.signal);
      } else if (
        (input?.type === "compaction.started" || input?.type === "compaction.failed") &&
        loops.size > 0
      ) {
        const loop = loops.get(agent) ?? live.openSession(input.session, agent);
        loops.set(agent, loop);
        await loop.compact(input.data.focus, controller.signal);
      } else if (input?.type === "model.switched" && loops.size > 0) {
        const loop = loops.get(agent) ?? live.openSession(input.session, agent);
        loops.set(agent, loop);
        await loop.switchModel(input.data.model, input.data.maxTokens);
      } else if (input?.type === "session.resumed" && loops.has(agent)) {
        const prompt = input.data.withPrompt ? tape.promptAfter(input) : undefined;
        const loop = loops.get(agent) as AgentLoop;
        const { maxTurns, maxBudgetUsd, settings, files } = input.data;
        await loop.resume(input.data.how, prompt, {
          ...runOptions,
          maxTurns,
          ...(maxBudgetUsd === undefined ? {} : { maxBudgetUsd }),
          ...(settings === undefined ? {} : { settings }),
          ...(files === undefined ? {} : { files }),
        });
      } else {
        diverge({
          seq: startEvent.seq,
          recorded: comparable(startEvent),
          replayed: null,
          reason: `the log has ${startEvent.type} where the replayed agent ${agent} was idle`,
        });
      }
    };
    run.done = work().catch((error) => {
      if (
        !(error instanceof Diverged) && !(error instanceof TapeEnded) &&
        !(error instanceof ReadFailed) && !recorded.failure
      ) {
        record({
          seq: null,
          recorded: null,
          replayed: null,
          reason: `the replayed loop failed: ${error instanceof Error ? error.message : error}`,
        });
      }
    }).finally(() => {
      run.active = false;
      order.nudge();
    });
  };
  while (!divergence && !recorded.failure) {
    const index = order.progress + 1;
    recorded.release(index);
    const event = recorded.at(index);
    if (!event) break;
    const run = runs.get(event.agent);
    if (fed.has(event.type)) {
      const { type, data, session, agent } = event;
      // Its data are the recorded event's: the store keeps them as they are.
      const fedEvent = { type, data, session, agent } as NewEvent;
      encoded.add(fedEvent);
      feeding = index;
      await (raw as MemoryEventStore).append([fedEvent]);
    } else if (run?.active && inEpoch(run, index)) {
      // Its run reproduces it. That may be the run just started for it (a resume): another
      // run's end wakes this loop before that run has appended its first event.
      await order.changed();
    } else if (run?.active) {
      await run.done; // the previous process's run ends at the resume
    } else {
      start(event.agent, index);
      await order.changed();
    }
  }
  await Promise.all([...runs.values()].map((run) => run.done));
  const matched = fedCount + [...tapes.values()].reduce((sum, tape) => sum + tape.cursor, 0);
  // A replay that stopped short has not folded the rest of the session: fold it (the root fold,
  // which reads every payload), so that a damaged one there is reported as such rather than
  // behind the divergence it caused.
  if (damaged === null && !recorded.failure) {
    for (let event = recorded.at(folded); event; event = recorded.at(++folded)) {
      try {
        evolve(live.state, event, [], live.focused);
      } catch (error) {
        damaged = { event, error };
        break;
      }
    }
  }
  return { session: first.session, matched, divergence, damaged };
}

/**
 * `store` with every append held by `before` (which waits for its turn in the recorded order),
 * its events then passed through `prepare`, and checked by `after`. The other operations pass
 * through.
 */
function orderedStore(
  store: EventStore,
  prepare: (events: readonly NewEvent[]) => NewEvent[],
  before: (events: readonly NewEvent[]) => Promise<void>,
  after: () => void,
): EventStore {
  return {
    get lastSeq() {
      return store.lastSeq;
    },
    async append(events, options) {
      await before(events);
      const envelopes = await store.append(prepare(events), options);
      after();
      return envelopes;
    },
    async appendDecided(decide, options) {
      const events = decide(store.lastSeq);
      await before(events);
      const envelopes = await store.append(prepare(events), options);
      after();
      return envelopes;
    },
    catchUp: () => store.catchUp(),
    waitForAppend: (afterSeq, signal, pollMs) => store.waitForAppend(afterSeq, signal, pollMs),
    sync: () => store.sync(),
    subscribe: (listener) => store.subscribe(listener),
    close: () => store.close(),
  };
}

/** Group a log's events by session, in order of each session's start. Pure. */
export function eventsBySession(events: Iterable<Envelope>): Map<string, Envelope[]> {
  const sessions = new Map<string, Envelope[]>();
  for (const event of events) {
    const list = sessions.get(event.session);
    if (list) list.push(event);
    else sessions.set(event.session, [event]);
  }
  return sessions;
}

/** Why a replayed event differs from the recorded one, in words. */
function mismatch(expected: Envelope, event: Envelope): string {
  if (expected.type !== event.type) {
    return `the replayed loop produced ${event.type} where the log has ${expected.type}`;
  }
  if (event.type === "model.requested") {
    return "the replayed loop would send a different model request (its digest differs): the " +
      "conversation, the system prompt or the tool definitions are not what was sent then";
  }
  return `the replayed loop produced a different ${event.type} than the log has`;
}
