import { MemoryEventStore } from "../../events/memory_store.ts";
import type { Envelope, EnvelopeOf } from "../../events/event_types.ts";
import { ModelCancelledError, type ModelClient, ModelError } from "../effects/model_client.ts";
import { canonicalJson, type ToolDefinition } from "../request/request_body.ts";
import { AgentSession, type SessionDeps } from "../loop/agent_loop.ts";
import { evolve, initialState } from "../state/state.ts";
import type { ToolExecutor } from "../tools/executor.ts";

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
  /** The tool definitions the harness sends today (a change shows up as a divergence). */
  toolDefinitions: readonly ToolDefinition[];
  /** Every reproduced event, for rendering. */
  onEvent?: (event: Envelope) => void;
  /** Recorded assistant text, as a live run would have streamed it. */
  onText?: (delta: string) => void;
}

class TapeEnded extends Error {}
class Diverged extends Error {}

/**
 * Re-drive the agent loop for one session with the model, tools, clock and retry delays served
 * from its recorded events: no network, no tool runs, no file writes. Every event the loop
 * produces is compared with the recorded one (timestamps and seq aside); the first mismatch is
 * returned as a {@link Divergence}. Where the recorded process died (the log ends, or a
 * `session.resumed` follows), the replay stops that run and continues as the resume did.
 */
export async function replaySession(
  recorded: readonly Envelope[],
  options: ReplayOptions,
): Promise<ReplayResult> {
  const first = recorded[0];
  if (first?.type !== "session.started") {
    throw new Error("Cannot replay: the session's first event is not session.started");
  }
  const state = initialState();
  const store = new MemoryEventStore({ clock: () => new Date(first.data.startedAt) });
  let cursor = 0;
  let crashed = false;
  let divergence: Divergence | null = null;
  let controller = new AbortController();

  store.subscribe((event) => {
    if (divergence || crashed) return;
    const expected = recorded[cursor];
    if (!expected || (expected.type === "session.resumed" && event.type !== "session.resumed")) {
      crashed = true; // the recorded process died here; what the loop does next never happened
      return;
    }
    const want = comparable(expected);
    const got = comparable(event);
    if (canonicalJson(want) !== canonicalJson(got)) {
      divergence = {
        seq: expected.seq,
        recorded: want,
        replayed: got,
        reason: mismatch(expected, event),
      };
      return;
    }
    evolve(state, event);
    cursor += 1;
    options.onEvent?.(expected);
    if (isCancellation(recorded[cursor])) controller.abort();
  });

  const check = () => {
    if (divergence) throw new Diverged();
    if (crashed) throw new TapeEnded();
  };
  const stuck = (what: string): never => {
    const next = recorded[cursor];
    if (!next || next.type === "session.resumed") throw new TapeEnded();
    divergence = {
      seq: next.seq,
      recorded: comparable(next),
      replayed: null,
      reason: `the replayed loop waits for ${what} where the log has ${next.type}`,
    };
    throw new Diverged();
  };

  const model: ModelClient = {
    send(_body, { signal, onText }) {
      check();
      if (signal.aborted) return Promise.reject(new ModelCancelledError());
      const next = recorded[cursor];
      if (next?.type === "model.responded") {
        const text = next.data.content.flatMap((b) => b.type === "text" ? [b.text] : []).join("");
        if (text) onText?.(text);
        return Promise.resolve(structuredClone(next.data));
      }
      if (next?.type === "model.failed") {
        const { message, kind, status } = next.data;
        return Promise.reject(new ModelError(message, { kind, status }));
      }
      if (next?.type === "model.cancelled") return Promise.reject(new ModelCancelledError());
      return stuck("the model's answer");
    },
  };
  const tools: ToolExecutor = {
    execute(call) {
      check();
      const next = recorded[cursor];
      if (next?.type === "tool.completed" && next.data.callId === call.id) {
        const { content, isError, durationMs, outcome } = next.data;
        return Promise.resolve({
          content,
          isError,
          durationMs,
          ...(outcome === "cancelled" ? { outcome } : {}),
        });
      }
      return stuck(`the result of ${call.name} call ${call.id}`);
    },
  };
  const deps: SessionDeps = {
    store,
    state,
    model,
    tools,
    toolDefinitions: options.toolDefinitions,
    clock: () => new Date(first.data.startedAt),
    sleep: (_ms, signal) =>
      signal.aborted ? Promise.reject(new Error("aborted")) : Promise.resolve(),
    retryDelay: () => {
      const next = recorded[cursor];
      return next?.type === "model.failed" ? next.data.retryInMs : null;
    },
    ...(options.onText ? { onText: options.onText } : {}),
  };

  let session: AgentSession | null = null;
  while (cursor < recorded.length && !divergence) {
    const input = recorded[cursor] as Envelope;
    controller = new AbortController();
    crashed = false;
    const run = { signal: controller.signal, maxTurns: null as number | null };
    try {
      if (input.type === "session.started" && !session) {
        const { data } = input;
        session = await AgentSession.start(deps, {
          id: input.session,
          model: data.model,
          workspace: data.workspace,
          maxTokens: data.maxTokens,
          platform: data.platform,
          ...(data.forkedFrom ? { forkedFrom: data.forkedFrom } : {}),
          ...(data.history ? { history: data.history } : {}),
        });
      } else if (input.type === "user.prompted" && session) {
        const started = recorded[cursor + 1];
        run.maxTurns = started?.type === "turn.started" ? started.data.maxTurns : null;
        await session.prompt(input.data.text, run);
      } else if (input.type === "session.resumed" && session) {
        run.maxTurns = input.data.maxTurns;
        const prompt = input.data.withPrompt ? nextPrompt(recorded, cursor) : undefined;
        await session.resume(input.data.how, prompt, run);
      } else {
        divergence = {
          seq: input.seq,
          recorded: comparable(input),
          replayed: null,
          reason: `the log has ${input.type} where the replayed session was idle`,
        };
      }
    } catch (error) {
      if (error instanceof Diverged) break;
      if (!(error instanceof TapeEnded)) throw error;
    }
  }
  return { session: first.session, matched: cursor, divergence };
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

function comparable(event: { type: string; session: string; agent: string; data: unknown }) {
  return JSON.parse(JSON.stringify({
    type: event.type,
    session: event.session,
    agent: event.agent,
    data: event.data,
  }));
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

function isCancellation(event: Envelope | undefined): boolean {
  if (!event) return false;
  return (event.type === "tool.completed" && event.data.outcome === "cancelled") ||
    event.type === "model.cancelled" ||
    (event.type === "turn.ended" && event.data.reason === "cancelled");
}

function nextPrompt(recorded: readonly Envelope[], from: number): string | undefined {
  for (let i = from + 1; i < recorded.length; i++) {
    const event = recorded[i];
    if (event?.type === "user.prompted") return (event as EnvelopeOf<"user.prompted">).data.text;
  }
  return undefined;
}
