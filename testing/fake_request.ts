/**
 * What the fake Anthropic server records about each request, and the minimal validation of a
 * Messages API body that the real API would reject.
 *
 * @module
 */

/** A content block as sent by a client: only `type` is checked, the rest is kept as sent. */
export interface FakeContentParam {
  readonly type: string;
  readonly [key: string]: unknown;
}

/** A message in the request's `messages` array. */
export interface FakeMessageParam {
  readonly role: "user" | "assistant";
  readonly content: string | readonly FakeContentParam[];
}

/** A tool definition in the request's `tools` array: only `name` is checked. */
export interface FakeToolParam {
  readonly name: string;
  readonly [key: string]: unknown;
}

/** A `POST /v1/messages` body that passed validation; unknown fields are kept as sent. */
export interface FakeRequestBody {
  readonly model: string;
  readonly max_tokens: number;
  readonly messages: readonly FakeMessageParam[];
  readonly stream?: boolean;
  readonly system?: string | readonly FakeContentParam[];
  readonly tools?: readonly FakeToolParam[];
  readonly [key: string]: unknown;
}

/** One HTTP request received by the fake server, in arrival order. */
export interface RecordedRequest {
  /** 1-based arrival number; the response's `request-id` header is `req_fake_<seq>`. */
  readonly seq: number;
  /** The `request-id` header sent back. */
  readonly requestId: string;
  readonly method: string;
  /** Path and query string, e.g. `/v1/messages`. */
  readonly path: string;
  /** Request headers, names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  /** The validated Messages body, or `undefined` for other routes and rejected bodies. */
  readonly body: FakeRequestBody | undefined;
  /** The body exactly as received. */
  readonly rawBody: string;
  /** Arrival time from `performance.now()`. */
  readonly receivedAt: number;
  /** Arrival time from `Date.now()`. */
  readonly receivedAtEpochMs: number;
  /** `performance.now()` when the last byte was handed over or the stream was cut or dropped. */
  finishedAt: number | undefined;
  /** `Date.now()` at the same moment as `finishedAt`. */
  finishedAtEpochMs: number | undefined;
  /** HTTP status sent, once decided. */
  status: number | undefined;
  /** How the response ended: sent whole, cut on purpose, or dropped by the client or `close()`. */
  outcome: "complete" | "cut" | "dropped" | undefined;
}

/** The result of {@linkcode parseMessagesBody}: a body, or the reason the API would give a 400. */
export type ParsedBody = { readonly body: FakeRequestBody } | { readonly error: string };

/**
 * Parses and validates a `POST /v1/messages` body the way the real API would reject it:
 * `model`, `max_tokens` and `messages` are required, each message has a `role` of user or
 * assistant and a string or block-array `content`, and every `tool_use` is answered by a
 * `tool_result` in the next message (and every `tool_result` answers one). Pure; never throws.
 */
export function parseMessagesBody(raw: string): ParsedBody {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    return { error: `Cannot parse request body as JSON: ${(error as Error).message}` };
  }
  if (!isRecord(json)) return { error: "Request body must be a JSON object" };
  if (typeof json.model !== "string") return { error: "model: Field required" };
  if (typeof json.max_tokens !== "number") return { error: "max_tokens: Field required" };
  if (!Array.isArray(json.messages)) return { error: "messages: Field required" };
  if (json.stream !== undefined && typeof json.stream !== "boolean") {
    return { error: "stream: Input should be a valid boolean" };
  }
  for (const [i, message] of json.messages.entries()) {
    if (!isRecord(message) || (message.role !== "user" && message.role !== "assistant")) {
      return { error: `messages.${i}.role: Input should be 'user' or 'assistant'` };
    }
    if (typeof message.content !== "string" && !isBlockArray(message.content)) {
      return { error: `messages.${i}.content: Input should be a string or a list of blocks` };
    }
  }
  const pairing = toolPairingError(json.messages as FakeMessageParam[]);
  if (pairing !== undefined) return { error: pairing };
  if (json.system !== undefined && typeof json.system !== "string" && !isBlockArray(json.system)) {
    return { error: "system: Input should be a string or a list of blocks" };
  }
  if (
    json.tools !== undefined &&
    !(Array.isArray(json.tools) &&
      json.tools.every((t) => isRecord(t) && typeof t.name === "string"))
  ) {
    return { error: "tools: Each tool needs a string name" };
  }
  return { body: json as FakeRequestBody };
}

function toolPairingError(messages: readonly FakeMessageParam[]): string | undefined {
  const idsOf = (message: FakeMessageParam | undefined, type: string, key: string) =>
    typeof message?.content === "string" ? [] : (message?.content ?? [])
      .filter((block) => block.type === type).map((block) => String(block[key]));
  for (const [i, message] of messages.entries()) {
    if (message.role === "assistant" && i + 1 < messages.length) {
      const answered = new Set(idsOf(messages[i + 1], "tool_result", "tool_use_id"));
      const missing = idsOf(message, "tool_use", "id").filter((id) => !answered.has(id));
      if (missing.length > 0) {
        return `messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks ` +
          `immediately after: ${missing.join(", ")}`;
      }
    }
    if (message.role === "user") {
      const asked = new Set(idsOf(messages[i - 1], "tool_use", "id"));
      const unexpected = idsOf(message, "tool_result", "tool_use_id").filter((id) =>
        !asked.has(id)
      );
      if (unexpected.length > 0) {
        return `messages.${i}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ` +
          `${unexpected.join(", ")}`;
      }
    }
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isBlockArray(value: unknown): boolean {
  return Array.isArray(value) && value.every((b) => isRecord(b) && typeof b.type === "string");
}
