/**
 * Pure rendering of scripted replies into the exact JSON and SSE shapes of the Anthropic
 * Messages API. Private to the fake server.
 *
 * @module
 */

import type { FakeContentBlock, FakeErrorType, MessageReply } from "./fake_replies.ts";

/** The `usage` object of a message. */
export interface UsageJson {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  service_tier: "standard";
}

/** A Messages API message as sent on the wire. */
export interface MessageJson {
  id: string;
  type: "message";
  role: "assistant";
  model: string;
  content: readonly FakeContentBlock[];
  stop_reason: string | null;
  stop_sequence: null;
  usage: UsageJson;
}

/** One server-sent event before encoding. */
export interface SseEvent {
  readonly event: string;
  readonly data: unknown;
}

/** An Anthropic error body. */
export interface ErrorJson {
  type: "error";
  error: { type: FakeErrorType; message: string };
}

/** The complete message a reply describes; token defaults are estimated at ~4 chars/token. */
export function renderMessage(
  reply: MessageReply,
  model: string,
  defaultId: string,
  requestChars: number,
): MessageJson {
  const hasToolUse = reply.content.some((block) => block.type === "tool_use");
  const outputChars = reply.content.reduce((sum, block) => sum + JSON.stringify(block).length, 0);
  return {
    id: reply.id ?? defaultId,
    type: "message",
    role: "assistant",
    model,
    content: reply.content,
    stop_reason: reply.stopReason ?? (hasToolUse ? "tool_use" : "end_turn"),
    stop_sequence: null,
    usage: {
      input_tokens: reply.usage?.input_tokens ?? Math.max(1, Math.ceil(requestChars / 4)),
      output_tokens: reply.usage?.output_tokens ?? Math.max(1, Math.ceil(outputChars / 4)),
      cache_creation_input_tokens: reply.usage?.cache_creation_input_tokens ?? 0,
      cache_read_input_tokens: reply.usage?.cache_read_input_tokens ?? 0,
      service_tier: "standard",
    },
  };
}

/**
 * The SSE events of a streamed message, in the API's order: message_start, then per block
 * content_block_start, deltas in several chunks and content_block_stop (one ping after the
 * first block start), then message_delta and message_stop.
 */
export function messageEvents(message: MessageJson): SseEvent[] {
  const { usage } = message;
  const events: SseEvent[] = [{
    event: "message_start",
    data: {
      type: "message_start",
      message: {
        ...message,
        content: [],
        stop_reason: null,
        usage: { ...usage, output_tokens: 1 },
      },
    },
  }];
  message.content.forEach((block, index) => {
    events.push({
      event: "content_block_start",
      data: { type: "content_block_start", index, content_block: emptyBlock(block) },
    });
    if (index === 0) events.push({ event: "ping", data: { type: "ping" } });
    for (const delta of blockDeltas(block)) {
      events.push({
        event: "content_block_delta",
        data: { type: "content_block_delta", index, delta },
      });
    }
    events.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
  });
  if (message.content.length === 0) events.push({ event: "ping", data: { type: "ping" } });
  events.push({
    event: "message_delta",
    data: {
      type: "message_delta",
      delta: { stop_reason: message.stop_reason, stop_sequence: null },
      usage: {
        input_tokens: usage.input_tokens,
        output_tokens: usage.output_tokens,
        cache_creation_input_tokens: usage.cache_creation_input_tokens,
        cache_read_input_tokens: usage.cache_read_input_tokens,
      },
    },
  });
  events.push({ event: "message_stop", data: { type: "message_stop" } });
  return events;
}

/** Encodes one event as `event: …\ndata: …\n\n`. */
export function encodeSse({ event, data }: SseEvent): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The error body for a status, with the API's type and a default message for it. */
export function errorJson(status: number, type?: FakeErrorType, message?: string): ErrorJson {
  const errorType = type ?? defaultErrorType(status);
  return {
    type: "error",
    error: { type: errorType, message: message ?? DEFAULT_MESSAGES[errorType] },
  };
}

/** Splits text into several chunks on code point boundaries (3 to 50, about 20 chars each). */
export function splitChunks(value: string): string[] {
  const chars = Array.from(value);
  if (chars.length === 0) return [];
  const pieces = Math.min(chars.length, Math.max(3, Math.min(50, Math.ceil(chars.length / 20))));
  const size = Math.ceil(chars.length / pieces);
  const chunks: string[] = [];
  for (let i = 0; i < chars.length; i += size) chunks.push(chars.slice(i, i + size).join(""));
  return chunks;
}

const DEFAULT_MESSAGES: Record<FakeErrorType, string> = {
  invalid_request_error: "Invalid request",
  authentication_error: "invalid x-api-key",
  permission_error: "Your API key does not have permission to use the specified resource",
  not_found_error: "Not found",
  request_too_large: "Request exceeds the maximum allowed number of bytes",
  rate_limit_error: "Number of request tokens has exceeded your per-minute rate limit",
  api_error: "Internal server error",
  overloaded_error: "Overloaded",
};

function defaultErrorType(status: number): FakeErrorType {
  switch (status) {
    case 401:
      return "authentication_error";
    case 403:
      return "permission_error";
    case 404:
      return "not_found_error";
    case 413:
      return "request_too_large";
    case 429:
      return "rate_limit_error";
    case 529:
      return "overloaded_error";
    default:
      return status >= 500 ? "api_error" : "invalid_request_error";
  }
}

function emptyBlock(block: FakeContentBlock): FakeContentBlock {
  switch (block.type) {
    case "text":
      return { type: "text", text: "" };
    case "tool_use":
      return { type: "tool_use", id: block.id, name: block.name, input: {} };
    case "thinking":
      return { type: "thinking", thinking: "", signature: "" };
  }
}

function blockDeltas(block: FakeContentBlock): unknown[] {
  switch (block.type) {
    case "text":
      return splitChunks(block.text).map((text) => ({ type: "text_delta", text }));
    case "tool_use":
      return splitChunks(JSON.stringify(block.input)).map((partial_json) => ({
        type: "input_json_delta",
        partial_json,
      }));
    case "thinking":
      return [
        ...splitChunks(block.thinking).map((thinking) => ({ type: "thinking_delta", thinking })),
        { type: "signature_delta", signature: block.signature },
      ];
  }
}
