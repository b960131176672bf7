import type { EventTable } from "./_payload.ts";

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
  content: ReadonlyArray<Record<string, unknown> & { type: string }>;
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

export interface ModelRequested {
  model: string;
  /** sha256 (hex) of the canonical JSON of the request body. */
  digest: string;
  /** 1 for the first attempt, 2 for the first retry, … */
  attempt: number;
  /** Why the harness asks, when it is not the agent's next round: `compact`, a summary. */
  purpose?: ModelPurpose;
}

/** A model call that is not one of the agent's rounds: a compaction's summary. */
export type ModelPurpose = "compact";

export interface ModelResponded {
  messageId: string;
  model: string;
  content: ContentBlock[];
  stopReason: string | null;
  usage: Usage;
  requestId: string | null;
  /** Set when the call was not one of the agent's rounds (see {@link ModelRequested}). */
  purpose?: ModelPurpose;
}

export interface ModelFailed {
  attempt: number;
  kind: ModelFailureKind;
  status: number | null;
  message: string;
  /** Delay before the next attempt; null when no retry follows. */
  retryInMs: number | null;
  /** Why no retry follows, when it is not that the error cannot be retried or attempts ran out. */
  noRetry?: string;
  purpose?: ModelPurpose;
}

export interface ModelCancelled {
  attempt: number;
  purpose?: ModelPurpose;
}

/** An agent's model changed (`/model`, `--model` on a resume), from its next round on. */
export interface ModelSwitched {
  model: string;
  /** Output token limit per request with the new model. */
  maxTokens: number;
  /** The model it replaces. */
  from: string;
  /**
   * Why: absent when the user chose it; `fallback` when the model kept being overloaded, and
   * `escalate` (the model's full output limit) when an answer hit the limit, both for the rest of
   * the turn; `restore` when such a turn ended.
   */
  reason?: "fallback" | "escalate" | "restore";
}

/** An answer is set aside, to ask the same request again (with a larger output limit). */
export interface ModelDiscarded {
  messageId: string;
  reason: "max_tokens";
}

/** An answer cut off at the output limit is asked to go on, with this text as input. */
export interface ModelContinued {
  text: string;
}

/** Model rounds: each request's digest, and its answer, failure or cancellation. */
export interface ModelEvents {
  "model.switched": ModelSwitched;
  "model.discarded": ModelDiscarded;
  "model.continued": ModelContinued;
  "model.requested": ModelRequested;
  "model.responded": ModelResponded;
  "model.failed": ModelFailed;
  "model.cancelled": ModelCancelled;
}

/** The event types of ModelEvents, for validation on read. */
export const MODEL_EVENTS: EventTable<ModelEvents> = {
  "model.switched": true,
  "model.discarded": true,
  "model.continued": true,
  "model.requested": true,
  "model.responded": true,
  "model.failed": true,
  "model.cancelled": true,
};
