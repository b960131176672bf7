/**
 * Turns scripted replies into HTTP responses: JSON, SSE streamed with delays, cut streams that
 * drop the connection or end early. Private to the fake server.
 *
 * @module
 */

import { encodeSse, errorJson, messageEvents, renderMessage } from "./_fake_sse.ts";
import type { CutReply, FakeErrorType, FakeReply, MessageReply } from "./fake_replies.ts";
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
  if (!stream) {
    const json = encoder.encode(JSON.stringify(message));
    if (reply.kind === "message") return fixedResponse(record, 200, "application/json", json);
    const prefix = [json.subarray(0, json.length >> 1)];
    return droppingResponse(record, "application/json", prefix, json.length, reply, 0, closing);
  }
  const events = messageEvents(message).map((event) => encoder.encode(encodeSse(event)));
  if (reply.kind === "message") {
    return streamResponse(record, events, delayMs, 0, "complete", closing);
  }
  const sent = events.slice(0, reply.afterEvents);
  if (reply.errorType !== undefined) {
    const error = encodeSse({ event: "error", data: errorJson(500, reply.errorType) });
    sent.push(encoder.encode(error));
  }
  if (reply.errorType !== undefined || reply.ending === "clean") {
    return streamResponse(record, sent, delayMs, reply.holdMs ?? 0, "cut", closing);
  }
  const fullLength = events.reduce((sum, bytes) => sum + bytes.length, 0);
  return droppingResponse(
    record,
    "text/event-stream; charset=utf-8",
    sent,
    fullLength,
    reply,
    delayMs,
  );
}

/** A body that declares its full length, sends a prefix, then drops the connection. */
function droppingResponse(
  record: RecordedRequest,
  contentType: string,
  chunks: Uint8Array[],
  fullLength: number,
  reply: CutReply,
  delayMs: number,
  closing: AbortSignal,
): Response {
  const body = chunkStream(record, chunks, delayMs, reply.holdMs ?? 0, "cut", closing);
  record.status = 200;
  return new Response(body, {
    headers: {
      "content-type": contentType,
      "content-length": `${fullLength}`,
      "request-id": record.requestId,
    },
  });
}

function streamResponse(
  record: RecordedRequest,
  chunks: Uint8Array[],
  delayMs: number,
  holdMs: number,
  outcome: "complete" | "cut",
  closing: AbortSignal,
): Response {
  record.status = 200;
  return new Response(chunkStream(record, chunks, delayMs, holdMs, outcome, closing), {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      "request-id": record.requestId,
    },
  });
}

/** Streams chunks `delayMs` apart, waits `holdMs`, then ends; `close()` ends it early. */
function chunkStream(
  record: RecordedRequest,
  chunks: Uint8Array[],
  delayMs: number,
  holdMs: number,
  outcome: "complete" | "cut",
  closing: AbortSignal,
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
