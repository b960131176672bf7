import {
  assertNever,
  type Envelope,
  type TurnEndReason,
  type Usage,
} from "../../events/event_types.ts";
import { type Conversation, emptyConversation, evolveConversation } from "./conversation.ts";

/** What a session is doing, as far as the log tells. */
export type SessionStatus =
  /** Waiting for a prompt; the last turn ended normally. */
  | "idle"
  /** A turn started and never ended: it is running now, or its process died. */
  | "unfinished"
  | Exclude<TurnEndReason, "completed">;

/** The projected view of one session. */
export interface SessionView {
  id: string;
  /** `ts` of `session.started`. */
  startedAt: string;
  /** The clock reading recorded at start (drives the system prompt's date). */
  clockAtStart: string;
  model: string;
  workspace: string;
  platform: string;
  maxTokens: number;
  forkedFrom: { session: string; seq: number } | null;
  firstPrompt: string | null;
  status: SessionStatus;
  /** Message of the last failed or cancelled turn. */
  lastError: string | null;
  /** Usage summed over every model response. */
  usage: UsageTotals;
  /** seq of the session's last event. */
  lastSeq: number;
  /** Conversation per agent ("lead", teammates …). */
  agents: Record<string, Conversation>;
}

/** Token counts summed over model responses. */
export type UsageTotals = Required<{ [K in keyof Usage]: number }>;

/** The whole projected state of a log. */
export interface State {
  sessions: Record<string, SessionView>;
  /** Session ids in order of start. */
  order: string[];
  lastSeq: number;
}

/** The state of an empty log. */
export function initialState(): State {
  return { sessions: {}, order: [], lastSeq: 0 };
}

/**
 * Fold one event into the state. Mutates and returns `state` (the projection owns it). Reads no
 * clock, env, disk or network; never throws on a well-formed log: events of a session that
 * never started are ignored.
 */
export function evolve(state: State, event: Envelope): State {
  state.lastSeq = event.seq;
  if (event.type === "session.started") {
    const { data } = event;
    state.sessions[event.session] = {
      id: event.session,
      startedAt: event.ts,
      clockAtStart: data.startedAt,
      model: data.model,
      workspace: data.workspace,
      platform: data.platform,
      maxTokens: data.maxTokens,
      forkedFrom: data.forkedFrom ?? null,
      firstPrompt: null,
      status: "idle",
      lastError: null,
      usage: emptyUsage(),
      lastSeq: event.seq,
      agents: { [event.agent]: emptyConversation(data.history) },
    };
    state.order.push(event.session);
    return state;
  }
  const session = state.sessions[event.session];
  if (!session) return state;
  session.lastSeq = event.seq;
  const conversation = session.agents[event.agent] ??= emptyConversation();
  evolveConversation(conversation, event);
  switch (event.type) {
    case "user.prompted":
      session.firstPrompt ??= event.data.text;
      break;
    case "turn.started":
      session.status = "unfinished";
      break;
    case "turn.ended":
      session.status = event.data.reason === "completed" ? "idle" : event.data.reason;
      session.lastError = event.data.message ?? null;
      break;
    case "model.responded":
      addUsage(session.usage, event.data.usage);
      break;
    case "session.resumed":
    case "model.requested":
    case "model.failed":
    case "model.cancelled":
    case "tool.requested":
    case "tool.completed":
      break;
    default:
      assertNever(event);
  }
  return state;
}

/** Fold a sequence of events from the empty state. */
export function foldEvents(events: Iterable<Envelope>): State {
  let state = initialState();
  for (const event of events) state = evolve(state, event);
  return state;
}

/** The conversation of the lead agent of a session (empty if it has none). */
export function leadConversation(session: SessionView): Conversation {
  return session.agents["lead"] ?? emptyConversation();
}

/** Zero usage. */
export function emptyUsage(): UsageTotals {
  return {
    input_tokens: 0,
    output_tokens: 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
}

/** Add one response's usage to `total` (mutates it). */
export function addUsage(total: UsageTotals, usage: Usage): void {
  total.input_tokens += usage.input_tokens;
  total.output_tokens += usage.output_tokens;
  total.cache_creation_input_tokens += usage.cache_creation_input_tokens ?? 0;
  total.cache_read_input_tokens += usage.cache_read_input_tokens ?? 0;
}
