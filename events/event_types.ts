/**
 * The closed union of everything rein records. Every type is a past-tense fact
 * named `noun.verb`. Adding a type means adding it here, to {@link EVENT_TYPES},
 * and to every exhaustive `switch` (the compiler finds them through `assertNever`).
 */

/** The envelope/schema version this build writes. Older versions are upcast on read. */
export const CURRENT_VERSION = 1;

/** Token counts as reported by the Messages API. */
export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** A message of the conversation as sent to the Messages API (`MessageParam`). */
export interface ConversationMessage {
  role: "user" | "assistant";
  content: Array<Record<string, unknown> & { type: string }>;
}

/** A content block of an assistant message, stored exactly as the API returned it. */
export type ContentBlock =
  | { type: "text"; text: string; [k: string]: unknown }
  | { type: "tool_use"; id: string; name: string; input: unknown; [k: string]: unknown }
  | { type: "thinking"; thinking: string; signature: string; [k: string]: unknown }
  | { type: "redacted_thinking"; data: string; [k: string]: unknown };

/** Why a model call failed, as the retry policy sees it. */
export type ModelFailureKind =
  | "rate_limited" // 429
  | "overloaded" // 529
  | "server_error" // other 5xx
  | "stream_cut" // the stream ended before message_stop
  | "connection" // network error or timeout
  | "prompt_too_long" // 400 prompt is too long
  | "client_error" // other 4xx: not retried
  | "unknown";

/** Why a turn ended. */
export type TurnEndReason = "completed" | "max_turns" | "cancelled" | "failed" | "interrupted";

export interface SessionStarted {
  /** Model id used for requests. */
  model: string;
  /** Absolute workspace directory. */
  workspace: string;
  /** Clock reading taken at start; the system prompt's date comes from it. */
  startedAt: string;
  /** Output token limit per request. */
  maxTokens: number;
  /** Operating system the session ran on (part of the system prompt). */
  platform: string;
  /** Present when this session was forked from another one. */
  forkedFrom?: { session: string; seq: number };
  /** For a fork: the conversation of the source session as it was at `forkedFrom.seq`. */
  history?: ConversationMessage[];
}

export interface SessionResumed {
  /** How the session was reopened. */
  how: "resume" | "continue";
  /** True when the resume came with a new prompt: unfinished work is closed, not continued. */
  withPrompt: boolean;
  /** The bound on model rounds for the continued turn, null when unbounded. */
  maxTurns: number | null;
}

export interface UserPrompted {
  text: string;
}

export interface ModelRequested {
  model: string;
  /** sha256 (hex) of the canonical JSON of the request body. */
  digest: string;
  /** 1 for the first attempt, 2 for the first retry, … */
  attempt: number;
}

export interface ModelResponded {
  messageId: string;
  model: string;
  content: ContentBlock[];
  stopReason: string | null;
  usage: Usage;
  requestId: string | null;
}

export interface ModelFailed {
  attempt: number;
  kind: ModelFailureKind;
  status: number | null;
  message: string;
  /** Delay before the next attempt; null when no retry follows. */
  retryInMs: number | null;
}

export interface ModelCancelled {
  attempt: number;
}

export interface ToolRequested {
  /** The model's tool_use id. */
  callId: string;
  name: string;
  input: unknown;
}

export interface ToolCompleted {
  callId: string;
  name: string;
  /** What the model sees as the tool_result content. */
  content: string;
  isError: boolean;
  durationMs: number;
  /** Set when the result was not produced by running the tool. */
  outcome?: "cancelled" | "interrupted";
}

export interface TurnStarted {
  /** Model rounds done in this session before this turn began. */
  turnsBefore: number;
  /** The bound on model rounds for this turn (`--max-turns`), null when unbounded. */
  maxTurns: number | null;
}

export interface TurnEnded {
  reason: TurnEndReason;
  /** Model rounds done in this session so far. */
  turns: number;
  /** Human-readable detail for failed/cancelled turns. */
  message?: string;
}

/** Every event type and its payload. */
export interface EventPayloads {
  "session.started": SessionStarted;
  "session.resumed": SessionResumed;
  "user.prompted": UserPrompted;
  "turn.started": TurnStarted;
  "turn.ended": TurnEnded;
  "model.requested": ModelRequested;
  "model.responded": ModelResponded;
  "model.failed": ModelFailed;
  "model.cancelled": ModelCancelled;
  "tool.requested": ToolRequested;
  "tool.completed": ToolCompleted;
}

export type EventType = keyof EventPayloads;

/** All event type names, for validation on read. */
export const EVENT_TYPES: readonly EventType[] = [
  "session.started",
  "session.resumed",
  "user.prompted",
  "turn.started",
  "turn.ended",
  "model.requested",
  "model.responded",
  "model.failed",
  "model.cancelled",
  "tool.requested",
  "tool.completed",
] as const satisfies readonly EventType[];

/** The discriminated union of event bodies: `switch (e.type)` narrows `e.data`. */
export type ReinEvent = { [T in EventType]: { type: T; data: EventPayloads[T] } }[EventType];

/** Where an event came from: the session and the agent inside it ("lead", a teammate name, …). */
export interface EventOrigin {
  session: string;
  agent: string;
}

/** An event as stored: one JSONL line. */
export type Envelope = ReinEvent & EventOrigin & {
  v: number;
  /** 1-based, gapless, assigned under the log lock. */
  seq: number;
  /** ISO-8601 time of the append. */
  ts: string;
};

/** An event before the store gives it a seq, version and timestamp. */
export type NewEvent = ReinEvent & EventOrigin;

/** Narrow an envelope to one type. */
export type EnvelopeOf<T extends EventType> = Envelope & { type: T };

/** Exhaustiveness check for `switch` over the union. Throws if reached at runtime. */
export function assertNever(value: never): never {
  throw new TypeError(`Unexpected value: ${JSON.stringify(value)}`);
}
