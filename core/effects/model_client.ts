import type {
  ConversationMessage,
  EventOrigin,
  ModelFailureKind,
  ModelResponded,
} from "../../events/event_types.ts";

/** A text block of the `system` parameter. */
export interface SystemBlock {
  type: "text";
  text: string;
  cache_control?: { type: "ephemeral" };
}

/** A tool as a request carries it: its definition, and on the last one a cache breakpoint. */
export interface RequestTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  cache_control?: { type: "ephemeral" };
}

/** The body of one Messages API request, exactly as sent. */
export interface MessagesRequest {
  model: string;
  max_tokens: number;
  system: SystemBlock[];
  tools: RequestTool[];
  messages: ConversationMessage[];
  /** Extended thinking, when on. */
  thinking?: { type: "enabled"; budget_tokens: number };
  stream: true;
}

/** A complete model response; recorded as the payload of `model.responded`. */
export type ModelReply = ModelResponded;

/** Options of one model call. */
export interface SendOptions {
  /** Whose round this is (replay serves each agent's recorded answers). */
  origin: EventOrigin;
  signal: AbortSignal;
  /** Called with each piece of assistant text as it streams in. */
  onText?: (delta: string) => void;
}

/**
 * The model, as the loop sees it. Implementations: the Anthropic SDK adapter
 * (`anthropic_model.ts`) and replay's recorded model (`replay.ts`).
 * `send` resolves with the whole reply, or rejects with a {@link ModelError}
 * (or a {@link ModelCancelledError} when `signal` aborts).
 */
export interface ModelClient {
  send(body: MessagesRequest, options: SendOptions): Promise<ModelReply>;
}

/** A failed model call, classified for the retry policy. */
export class ModelError extends Error {
  readonly kind: ModelFailureKind;
  readonly status: number | null;
  /** The server's `retry-after`, in milliseconds, when it sent one. */
  readonly retryAfterMs: number | null;

  constructor(
    message: string,
    options: { kind: ModelFailureKind; status?: number | null; retryAfterMs?: number | null },
  ) {
    super(message);
    this.name = "ModelError";
    this.kind = options.kind;
    this.status = options.status ?? null;
    this.retryAfterMs = options.retryAfterMs ?? null;
  }
}

/** The model call was aborted because the user cancelled the turn. */
export class ModelCancelledError extends Error {
  constructor() {
    super("Model call cancelled");
    this.name = "ModelCancelledError";
  }
}
