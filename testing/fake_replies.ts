/**
 * The replies a fake Anthropic script can give, with builders and presets for the faults rein
 * must survive. Everything here is pure data.
 *
 * @module
 */

import type { RecordedRequest } from "./fake_request.ts";

/** A content block in a scripted assistant message. */
export type FakeContentBlock =
  | { readonly type: "text"; readonly text: string }
  | {
    readonly type: "tool_use";
    readonly id: string;
    readonly name: string;
    readonly input: Readonly<Record<string, unknown>>;
  }
  | { readonly type: "thinking"; readonly thinking: string; readonly signature: string };

/** Why a scripted message stopped. */
export type FakeStopReason =
  | "end_turn"
  | "tool_use"
  | "max_tokens"
  | "stop_sequence"
  | "pause_turn"
  | "refusal";

/** Token counts reported in `usage`; unset fields get defaults estimated from sizes. */
export interface FakeUsage {
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly cache_creation_input_tokens: number;
  readonly cache_read_input_tokens: number;
}

/** The `error.type` values of Anthropic error bodies. */
export type FakeErrorType =
  | "invalid_request_error"
  | "authentication_error"
  | "permission_error"
  | "not_found_error"
  | "request_too_large"
  | "rate_limit_error"
  | "api_error"
  | "overloaded_error";

/** A complete assistant message, streamed as SSE or sent as JSON. */
export interface MessageReply {
  readonly kind: "message";
  readonly content: readonly FakeContentBlock[];
  /** Defaults to `"tool_use"` when a block is a tool use, else `"end_turn"`. */
  readonly stopReason?: FakeStopReason;
  readonly usage?: Partial<FakeUsage>;
  /** Delay between SSE events in milliseconds; default 0. */
  readonly chunkDelayMs?: number;
  /** Message id; defaults to `msg_fake_<seq>`. */
  readonly id?: string;
}

/** An HTTP error with an Anthropic-shaped body. */
export interface ErrorReply {
  readonly kind: "error";
  readonly status: number;
  /** Defaults by status: 429 rate_limit_error, 529 overloaded_error, 5xx api_error, … */
  readonly errorType?: FakeErrorType;
  readonly message?: string;
  /** Seconds, sent as the `retry-after` header. */
  readonly retryAfter?: number;
}

/**
 * A message whose stream stops after its first `afterEvents` SSE events (a JSON reply stops
 * half-way through its body), never reaching `message_stop`. By default the connection drops
 * (the declared `content-length` is never reached; the SDK rejects with "error reading a body
 * from connection"); with `ending: "clean"` the body ends normally (the SDK rejects with
 * "stream ended without producing a Message"); with `errorType` an `event: error` is sent
 * first, as the API does when it fails mid-stream, and the body ends normally.
 */
export interface CutReply {
  readonly kind: "cut";
  readonly message: MessageReply;
  readonly afterEvents: number;
  /** How long to hold the connection open after the last event before dropping it. */
  readonly holdMs?: number;
  readonly ending?: "drop" | "clean";
  readonly errorType?: FakeErrorType;
}

/** One scripted answer to a `POST /v1/messages` request. */
export type FakeReply = MessageReply | ErrorReply | CutReply;

/**
 * A script as a function of the request. `index` is the 0-based number of Messages requests
 * the server has answered from the script before this one. A pure function of the
 * conversation keeps working when a client is killed and restarted against the same server.
 */
export type FakeScriptFn = (
  request: RecordedRequest,
  index: number,
) => FakeReply | Promise<FakeReply>;

/** Replies consumed in order, or a function choosing each reply. */
export type FakeScript = readonly FakeReply[] | FakeScriptFn;

/** A text block. */
export function text(value: string): FakeContentBlock {
  return { type: "text", text: value };
}

/** A tool_use block; `input` is streamed as `input_json_delta` chunks. */
export function toolUse(
  id: string,
  name: string,
  input: Readonly<Record<string, unknown>>,
): FakeContentBlock {
  return { type: "tool_use", id, name, input };
}

/** A thinking block with a signature. */
export function thinking(value: string, signature = "fake-signature"): FakeContentBlock {
  return { type: "thinking", thinking: value, signature };
}

/** A message reply; a string becomes one text block. */
export function message(
  content: string | readonly FakeContentBlock[],
  options: Omit<MessageReply, "kind" | "content"> = {},
): MessageReply {
  return {
    kind: "message",
    content: typeof content === "string" ? [text(content)] : content,
    ...options,
  };
}

/** An HTTP error reply. */
export function apiError(
  status: number,
  options: Omit<ErrorReply, "kind" | "status"> = {},
): ErrorReply {
  return { kind: "error", status, ...options };
}

/**
 * A reply cut after `afterEvents` SSE events. The default message is one text block, so the
 * default 4 events are message_start, content_block_start, ping and the first text delta.
 */
export function cut(
  afterEvents = 4,
  reply: MessageReply = message("This answer is cut off before it ends"),
  options: Pick<CutReply, "holdMs" | "ending" | "errorType"> = {},
): CutReply {
  return { kind: "cut", message: reply, afterEvents, ...options };
}

/** 400 invalid_request_error "prompt is too long: 210000 tokens > 200000 maximum". */
export function promptTooLong(): ErrorReply {
  return apiError(400, {
    errorType: "invalid_request_error",
    message: "prompt is too long: 210000 tokens > 200000 maximum",
  });
}

/** 429 rate_limit_error with a `retry-after` header. */
export function rateLimited(retryAfterSeconds = 1): ErrorReply {
  return apiError(429, { retryAfter: retryAfterSeconds });
}

/** 529 overloaded_error. */
export function overloaded(): ErrorReply {
  return apiError(529);
}

/** 500 api_error. */
export function serverError(): ErrorReply {
  return apiError(500);
}

/** A text answer that stops with `max_tokens`, as if truncated. */
export function maxTokens(partialText = "This answer runs out of tokens in the mid"): MessageReply {
  return message(partialText, { stopReason: "max_tokens" });
}
