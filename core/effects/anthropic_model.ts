import type Anthropic from "@anthropic-ai/sdk";
import type { ContentBlock, ModelFailureKind } from "../../events/event_types.ts";
import {
  type MessagesRequest,
  ModelCancelledError,
  type ModelClient,
  ModelError,
  type ModelReply,
  type SendOptions,
} from "./model_client.ts";
import { sdkRequest } from "./_sdk_request.ts";

/** Credentials and endpoint; each falls back to the SDK's own resolution when absent. */
export interface AnthropicModelOptions {
  apiKey?: string | undefined;
  authToken?: string | undefined;
  baseURL?: string | undefined;
  /** Model ids to suggest when the API does not know the one asked for. */
  knownModels?: readonly string[];
}

/** Thinking between tool calls, not only before the first one. */
const INTERLEAVED_THINKING_BETA = "interleaved-thinking-2025-05-14";

/** Where the SDK sends requests when no base URL is given. */
const DEFAULT_ENDPOINT = "https://api.anthropic.com";

/** A model id ending in this selects its 1M-token window: sent without it, with the beta. */
const ONE_MILLION = "[1m]";
const ONE_MILLION_BETA = "context-1m-2025-08-07";

/**
 * Runs `make` (synchronous) with `globalThis.process` hidden. The SDK's constructor reads its
 * environment variables (`ANTHROPIC_CUSTOM_HEADERS`, `ANTHROPIC_LOG`, the OpenTelemetry ones)
 * through `process.env` whenever `process` exists, and in Deno the first touch of `process`
 * loads Node's process module: about 25 ms of a start, before the first request. Hidden, the SDK
 * reads the same variables through `Deno.env` (its fallback). Nothing else runs while `make`
 * does, so no other code sees `process` missing; the global is put back as it was, even if
 * `make` throws.
 */
export function withoutNodeProcess<T>(make: () => T): T {
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, "process");
  if (descriptor?.configurable !== true) return make();
  Object.defineProperty(globalThis, "process", {
    value: undefined,
    configurable: true,
    writable: true,
  });
  try {
    return make();
  } finally {
    Object.defineProperty(globalThis, "process", descriptor);
  }
}

/**
 * The Messages API through `npm:@anthropic-ai/sdk`, streaming. The SDK's own retries are off:
 * the loop retries, so every attempt is an event.
 */
export function createAnthropicModel(options: AnthropicModelOptions): ModelClient {
  // The SDK is the biggest import of a start: it loads while the log is opened and folded.
  const sdk = import("@anthropic-ai/sdk").then((module) => module.default);
  const client = sdk.then((Sdk) =>
    withoutNodeProcess(() =>
      new Sdk({
        ...(options.apiKey ? { apiKey: options.apiKey } : {}),
        ...(options.authToken ? { authToken: options.authToken } : {}),
        ...(options.baseURL ? { baseURL: options.baseURL } : {}),
        maxRetries: 0,
        // No OpenTelemetry: rein's process registers no tracer provider, so the SDK's spans and
        // trace headers would go nowhere, at a cost on every request.
        openTelemetry: { traces: false, propagation: false },
      })
    )
  );
  // A failed load surfaces at the first send, not as an unhandled rejection.
  client.catch(() => {});
  return {
    async send(body: MessagesRequest, { signal, onText }: SendOptions): Promise<ModelReply> {
      if (signal.aborted) throw new ModelCancelledError();
      let sawStop = false;
      const Sdk = await sdk;
      try {
        const { model } = body;
        const million = model.endsWith(ONE_MILLION);
        const stream = (await client).messages.stream(
          sdkRequest(body, million ? model.slice(0, -ONE_MILLION.length) : model),
          { signal, ...betas(million, body.thinking !== undefined) },
        );
        stream.on("streamEvent", (event) => {
          if (event.type === "message_stop") sawStop = true;
        });
        if (onText) stream.on("text", (delta) => onText(delta));
        const message = await stream.finalMessage();
        return {
          messageId: message.id,
          model: message.model,
          content: message.content as unknown as ContentBlock[],
          stopReason: message.stop_reason,
          usage: {
            input_tokens: message.usage.input_tokens,
            output_tokens: message.usage.output_tokens,
            cache_creation_input_tokens: message.usage.cache_creation_input_tokens ?? null,
            cache_read_input_tokens: message.usage.cache_read_input_tokens ?? null,
          },
          requestId: stream.request_id ?? null,
        };
      } catch (error) {
        if (signal.aborted) throw new ModelCancelledError();
        if (
          error instanceof Sdk.APIError && error.status === 404 && error.type === "not_found_error"
        ) {
          const known = options.knownModels?.length
            ? ` (known: ${options.knownModels.join(", ")})`
            : "";
          throw new ModelError(
            `Model "${body.model}" was not found at ${
              options.baseURL ?? DEFAULT_ENDPOINT
            }; choose one with --model${known}`,
            { kind: "client_error", status: 404 },
          );
        }
        const classified = classifyError(Sdk, error, sawStop, options.baseURL ?? DEFAULT_ENDPOINT);
        // The API names the sizes ("210000 tokens > 200000 maximum"); other endpoints may not.
        if (classified.kind === "prompt_too_long" && !/\d{4,}/.test(classified.message)) {
          const tokens = Math.round(JSON.stringify(body).length / 4).toLocaleString("en-US");
          throw new ModelError(`${classified.message} (this request is about ${tokens} tokens)`, {
            kind: classified.kind,
            status: classified.status,
          });
        }
        throw classified;
      }
    },
  };
}

/** The request options: the signal, and the betas the request needs. */
function betas(million: boolean, thinking: boolean) {
  const names = [
    ...(million ? [ONE_MILLION_BETA] : []),
    ...(thinking ? [INTERLEAVED_THINKING_BETA] : []),
  ];
  return names.length === 0 ? {} : { headers: { "anthropic-beta": names.join(",") } };
}

/** Turn whatever the SDK threw into a {@link ModelError}. Pure. */
export function classifyError(
  sdk: typeof Anthropic,
  error: unknown,
  sawStop = false,
  endpoint = DEFAULT_ENDPOINT,
): ModelError {
  if (error instanceof sdk.APIConnectionError) {
    const cause = error.cause instanceof Error ? error.cause.message : error.message;
    return new ModelError(`Cannot reach the model API at ${endpoint}: ${cause}`, {
      kind: "connection",
    });
  }
  if (error instanceof sdk.APIError) {
    const status = typeof error.status === "number" ? error.status : null;
    const detail = error.apiMessage ?? error.message;
    const kind = failureKind(status, error.type, detail);
    return new ModelError(describeStatus(status, detail, endpoint), {
      kind,
      status,
      retryAfterMs: retryAfterMs(error.headers),
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  if (/Could not resolve authentication method/.test(message)) {
    return new ModelError(
      "No credentials for the model API: set ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN",
      { kind: "client_error" },
    );
  }
  // Anything else that breaks a stream before message_stop (the connection dropped, the body
  // could not be read, the SDK saw the stream end early) is a cut: the answer is incomplete.
  if (!sawStop) {
    return new ModelError(`The response stream was cut before it finished: ${message}`, {
      kind: "stream_cut",
    });
  }
  return new ModelError(`Model call failed: ${message}`, { kind: "unknown" });
}

/** One line naming what went wrong and, for what retrying cannot fix, what to do. Pure. */
function describeStatus(status: number | null, detail: string, endpoint: string): string {
  switch (status) {
    case null:
      return `Model API error: ${detail}`;
    case 401:
      return `The model API at ${endpoint} refused the credentials (401: ${detail}): set ` +
        "ANTHROPIC_API_KEY to a valid key (or ANTHROPIC_AUTH_TOKEN for a bearer token)";
    case 403:
      return `The model API at ${endpoint} denied the request (403: ${detail}): check that the ` +
        "key's organisation may use this model and endpoint";
    case 413:
      return `The request is too large for the model API (413: ${detail}): remove large files ` +
        "from the conversation, or start a new session";
    default:
      return `Model API error ${status}: ${detail}`;
  }
}

function failureKind(
  status: number | null,
  type: string | null,
  message: string,
): ModelFailureKind {
  if (status === 429 || type === "rate_limit_error") return "rate_limited";
  if (status === 529 || type === "overloaded_error") return "overloaded";
  if (status === 400 && /prompt is too long/i.test(message)) return "prompt_too_long";
  if (status !== null && status >= 500) return "server_error";
  if (type === "api_error") return "server_error";
  if (status !== null && status >= 400) return "client_error";
  return "unknown";
}

/** `retry-after-ms` or `retry-after` (seconds or an HTTP date) in milliseconds. */
function retryAfterMs(headers: Headers | undefined): number | null {
  const ms = headers?.get("retry-after-ms");
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Math.round(Number(ms)));
  const value = headers?.get("retry-after");
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, Math.round(seconds * 1000));
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}
