/**
 * Turns scripted replies into HTTP responses: JSON, SSE streamed with delays, cut streams that
 * drop the connection or end early. Private to the fake server.
 *
 * @module
 */

import { encodeSse, errorJson, messageEvents, renderMessage } from "./_fake_sse.ts";
import type { FakeErrorType, FakeReply, MessageReply } from "./fake_replies.ts";
import type { RecordedRequest } from "./fake_request.ts";

const encoder = new TextEncoder();

/**
 * The response for a scripted reply: JSON, or SSE when `stream`; `closing` aborts delays and
 * holds so a closing server drops open streams at once. Never throws.
 */
export function replyResponse(
  record: RecordedRequest,
  reply: FakeReply,
  model: string,
  stream: boolean,
  closing: AbortSignal,
): Response {
  if (reply.kind === "error") {
    const headers = reply.retryAfter === undefined ? {} : { "retry-after": `${reply.retryAfter}` };
    return errorResponse(record, reply.status, reply.errorType, reply.message, headers);
  }
  const messageReply: MessageReply = reply.kind === "cut" ? reply.message : reply;
  const message = renderMessage(
    messageReply,
    model,
    `msg_fake_${record.seq}`,
    record.rawBody.length,
  );
  const delayMs = messageReply.chunkDelayMs ?? 0;
  const holdMs = reply.kind === "cut" ? reply.holdMs ?? 0 : 0;
  if (!stream) {
    const json = encoder.encode(JSON.stringify(message));
    if (reply.kind === "message") return fixedResponse(record, 200, "application/json", json);
    const chunks = [json.subarray(0, json.length >> 1)];
    const plan: StreamPlan = { chunks, delayMs: 0, holdMs, outcome: "cut", closing };
    return streamedResponse(record, "application/json", plan, json.length);
  }
  const events = messageEvents(message).map((event) => encoder.encode(encodeSse(event)));
  if (reply.kind === "message") {
    const plan: StreamPlan = { chunks: events, delayMs, holdMs, outcome: "complete", closing };
    return streamedResponse(record, SSE, plan);
  }
  // message_stop is never sent, whatever afterEvents says.
  const chunks = events.slice(0, Math.min(reply.afterEvents, events.length - 1));
  if (reply.errorType !== undefined) {
    const error = encodeSse({ event: "error", data: errorJson(500, reply.errorType) });
    chunks.push(encoder.encode(error));
  }
  const plan: StreamPlan = { chunks, delayMs, holdMs, outcome: "cut", closing };
  if (reply.errorType !== undefined || reply.ending === "clean") {
    return streamedResponse(record, SSE, plan);
  }
  return streamedResponse(record, SSE, plan, events.reduce((sum, bytes) => sum + bytes.length, 0));
}

const SSE = "text/event-stream; charset=utf-8";

/** How a body is streamed; `closing` ends it early when the server closes. */
interface StreamPlan {
  readonly chunks: readonly Uint8Array[];
  readonly delayMs: number;
  readonly holdMs: number;
  readonly outcome: "complete" | "cut";
  readonly closing: AbortSignal;
}

/**
 * A 200 streamed per `plan`. With `declaredLength` longer than the chunks, ending the body
 * early makes the server drop the connection: the client sees a truncated body.
 */
function streamedResponse(
  record: RecordedRequest,
  contentType: string,
  plan: StreamPlan,
  declaredLength?: number,
): Response {
  record.status = 200;
  const headers: Record<string, string> = {
    "content-type": contentType,
    "request-id": record.requestId,
  };
  if (declaredLength === undefined) headers["cache-control"] = "no-cache";
  else headers["content-length"] = `${declaredLength}`;
  return new Response(chunkStream(record, plan), { headers });
}

/** Streams chunks `delayMs` apart, waits `holdMs`, then ends; `close()` ends it early. */
function chunkStream(
  record: RecordedRequest,
  { chunks, delayMs, holdMs, outcome, closing }: StreamPlan,
): ReadableStream<Uint8Array> {
  const dropped = new AbortController();
  const stop = AbortSignal.any([closing, dropped.signal]);
  let next = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (next > 0) await sleep(delayMs, stop);
      const chunk = chunks[next];
      if (!stop.aborted && chunk !== undefined) {
        next++;
        controller.enqueue(chunk);
        if (next < chunks.length || holdMs > 0) return;
      } else if (!stop.aborted) {
        await sleep(holdMs, stop);
      }
      if (dropped.signal.aborted) return;
      finish(record, stop.aborted ? "dropped" : outcome);
      controller.close();
    },
    cancel() {
      dropped.abort();
      finish(record, "dropped");
    },
  });
}

/** A JSON error response with an Anthropic error body; records status and finish time. */
export function errorResponse(
  record: RecordedRequest,
  status: number,
  type?: FakeErrorType,
  message?: string,
  headers: Record<string, string> = {},
): Response {
  const json = encoder.encode(JSON.stringify(errorJson(status, type, message)));
  return fixedResponse(record, status, "application/json", json, headers);
}

function fixedResponse(
  record: RecordedRequest,
  status: number,
  contentType: string,
  body: Uint8Array<ArrayBuffer>,
  headers: Record<string, string> = {},
): Response {
  record.status = status;
  finish(record, "complete");
  return new Response(body, {
    status,
    headers: { ...headers, "content-type": contentType, "request-id": record.requestId },
  });
}

function finish(record: RecordedRequest, outcome: "complete" | "cut" | "dropped"): void {
  if (record.finishedAt !== undefined) return;
  record.finishedAt = performance.now();
  record.finishedAtEpochMs = Date.now();
  record.outcome = outcome;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
