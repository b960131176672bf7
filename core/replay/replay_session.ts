import { MemoryEventStore } from "../../events/memory_store.ts";
import type { Envelope, EventType, NewEvent } from "../../events/event_types.ts";
import { ModelCancelledError, type ModelClient, ModelError } from "../effects/model_client.ts";
import { createHarness } from "../harness.ts";
import type { AgentLoop } from "../loop/agent_loop.ts";
import type { Mechanism } from "../mechanism.ts";
import { canonicalJson } from "../request/request_body.ts";
import { type CallRunner, executeCall, type ToolRun } from "../tools/executor.ts";
import { AgentTape, comparable, isCancellation } from "./agent_tape.ts";

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

class TapeEnded extends Error {}
class Diverged extends Error {}

/**
 * Re-drive one session's agents through the same harness as a live run, with the model, effect
 * tools, clock and retry delays served from its recorded events: no network, no tool runs, no
 * file writes. Decider tools and stage handlers run again. Events of each agent are compared with
 * that agent's recorded events (timestamps and seq aside), so agents that ran at once compare
 * independently of how their events interleaved; the first mismatch is returned as a
 * {@link Divergence}. Events from outside an agent's loop (the mechanisms' `fedTypes`) are fed
 * at their recorded positions. Where the recorded process died (an agent's events end, or a
 * `session.resumed` follows), the replay stops that run and continues as the resume did.
 */
export async function replaySession(
  recorded: readonly Envelope[],
  options: ReplayOptions = {},
): Promise<ReplayResult> {
  const first = recorded[0];
  if (first?.type !== "session.started") {
    throw new Error("Cannot replay: the session's first event is not session.started");
  }
  const fed = new Set<EventType>((options.mechanisms ?? []).flatMap((m) => m.fedTypes ?? []));
  const tapes = AgentTape.split(recorded, fed);
  let divergence: Divergence | null = null;
  let tape = tapes.get(first.agent) as AgentTape;
  let controller = new AbortController();

  const accept = (event: Envelope): boolean => {
    if (divergence || tape.crashed) return false;
    const own = tapes.get(event.agent);
    const expected = own?.next();
    if (
      !own || !expected || (expected.type === "session.resumed" && event.type !== "session.resumed")
    ) {
      if (own) own.crashed = true; // the recorded process died here; what follows never happened
      else divergence = unexpected(event);
      return false;
    }
    if (canonicalJson(comparable(expected)) !== canonicalJson(comparable(event))) {
      divergence = {
        seq: expected.seq,
        recorded: comparable(expected),
        replayed: comparable(event),
        reason: mismatch(expected, event),
      };
      return false;
    }
    own.advance();
    options.onEvent?.(expected);
    if (isCancellation(own.next())) controller.abort();
    return true;
  };
  const check = () => {
    if (divergence) throw new Diverged();
    if (tape.crashed) throw new TapeEnded();
  };
  const stuck = (what: string): never => {
    const next = tape.next();
    if (!next || next.type === "session.resumed") throw new TapeEnded();
    divergence = {
      seq: next.seq,
      recorded: comparable(next),
      replayed: null,
      reason: `the replayed loop waits for ${what} where the log has ${next.type}`,
    };
    throw new Diverged();
  };

  /** Append the arrivals from outside the loop that the log has next for the running agent. */
  const feed = async () => {
    while (tape.nextIsFed() && !divergence) {
      const { type, data, session, agent } = tape.next() as Envelope;
      await harness.store.append([{ type, data, session, agent } as NewEvent]);
    }
  };
  const model: ModelClient = {
    async send(_body, { signal, onText }) {
      await feed();
      check();
      if (signal.aborted) throw new ModelCancelledError();
      const next = tape.next();
      if (next?.type === "model.responded") {
        const text = next.data.content.flatMap((b) => b.type === "text" ? [b.text] : []).join("");
        if (text) onText?.(text);
        return structuredClone(next.data);
      }
      if (next?.type === "model.failed") {
        const { message, kind, status } = next.data;
        throw new ModelError(message, { kind, status });
      }
      if (next?.type === "model.cancelled") throw new ModelCancelledError();
      return stuck("the model's answer");
    },
  };
  const runCall: CallRunner = async (call, tools, context) => {
    await feed();
    check();
    const served = tape.servedRun(call.id);
    if (!served) return stuck(`the result of ${call.name} call ${call.id}`);
    if (tools.get(call.name)?.kind !== "decider") return served;
    // A decider is pure over its input and the state: run it again, so --verify checks what it
    // decides. Only its duration (a clock reading) comes from the log.
    const run: ToolRun = await executeCall(call, tools, context, () => 0);
    return { ...run, completed: { ...run.completed, durationMs: served.completed.durationMs } };
  };

  const clock = () => new Date(first.data.startedAt);
  const harness = await createHarness({
    openStore: (onEvent, { eventTypes }) =>
      new MemoryEventStore({
        clock,
        eventTypes,
        onEvent: (event) => accept(event) && onEvent(event),
      }),
    workspace: first.data.workspace,
    effects: {
      model,
      clock,
      monotonicMs: () => 0,
      sleep: (_ms, signal) =>
        signal.aborted ? Promise.reject(new Error("aborted")) : Promise.resolve(),
      retryDelay: () => {
        const next = tape.next();
        return next?.type === "model.failed" ? next.data.retryInMs : null;
      },
      runCall,
    },
    ...(options.mechanisms ? { mechanisms: options.mechanisms } : {}),
  });

  const loops = new Map<string, AgentLoop>();
  for (const input of recorded) {
    if (divergence) break;
    const own = tapes.get(input.agent) as AgentTape;
    if (own.consumed(input)) continue;
    tape = own;
    tape.crashed = false;
    controller = new AbortController();
    const run = {
      signal: controller.signal,
      maxTurns: null as number | null,
      ...(options.onText ? { onText: options.onText } : {}),
    };
    try {
      const loop = loops.get(input.agent);
      if (input.type === "session.started" && loops.size === 0) {
        const { data } = input;
        loops.set(
          input.agent,
          await harness.startSession({
            id: input.session,
            model: data.model,
            workspace: data.workspace,
            maxTokens: data.maxTokens,
            platform: data.platform,
            ...(data.forkedFrom ? { forkedFrom: data.forkedFrom } : {}),
            ...(data.history ? { history: data.history } : {}),
          }, input.agent),
        );
      } else if (input.type === "user.prompted" && loops.size > 0) {
        const agent = loop ?? harness.openSession(input.session, input.agent);
        loops.set(input.agent, agent);
        run.maxTurns = tape.maxTurnsAfterPrompt();
        await agent.prompt(input.data.text, run);
      } else if (fed.has(input.type)) {
        await feed();
      } else if (input.type === "session.resumed" && loop) {
        run.maxTurns = input.data.maxTurns;
        const prompt = input.data.withPrompt ? tape.promptAfterResume() : undefined;
        await loop.resume(input.data.how, prompt, run);
      } else {
        divergence = {
          seq: input.seq,
          recorded: comparable(input),
          replayed: null,
          reason: `the log has ${input.type} where the replayed agent ${input.agent} was idle`,
        };
      }
    } catch (error) {
      if (error instanceof Diverged) break;
      if (!(error instanceof TapeEnded)) throw error;
    }
  }
  const matched = [...tapes.values()].reduce((sum, t) => sum + t.cursor, 0);
  return { session: first.session, matched, divergence };
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

function unexpected(event: Envelope): Divergence {
  return {
    seq: null,
    recorded: null,
    replayed: comparable(event),
    reason: `the replayed loop produced ${event.type} for agent ${event.agent}, which the log ` +
      "never recorded in this session",
  };
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
