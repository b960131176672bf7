import {
  type MessagesRequest,
  ModelCancelledError,
  ModelError,
  type ModelReply,
} from "../effects/model_client.ts";
import { requestDigest } from "../request/request_body.ts";
import type { TurnContext } from "./turn_context.ts";

/**
 * Assemble the request from the state and record `model.requested` right after the events that
 * state was folded from. Another agent may append while the request is assembled and digested
 * (its events would then sit before this one in the log, and replay would assemble from a state
 * that has them): then the request is assembled again. Returns the request recorded.
 */
async function recordRequest(context: TurnContext, attempt: number): Promise<MessagesRequest> {
  for (;;) {
    await context.settle();
    const seen = context.deps.store.lastSeq;
    const body = context.nextRequest();
    const digest = await requestDigest(body);
    const requested = context.event("model.requested", { model: body.model, digest, attempt });
    const stored = await context.deps.store.appendDecided(
      (lastSeq) => lastSeq === seen ? [requested] : [],
      { sync: false },
    );
    if (stored.length > 0) return body;
  }
}

/**
 * Ask the model for this agent's next round, retrying per the policy. The request is assembled
 * from the state for every attempt; each attempt, failure, wait and answer is an event.
 */
export async function callModel(
  context: TurnContext,
  signal: AbortSignal,
  onText?: (delta: string) => void,
): Promise<ModelReply | "cancelled" | ModelError> {
  const { effects } = context.deps;
  const origin = { session: context.session, agent: context.agent };
  for (let attempt = 1;; attempt++) {
    const body = await recordRequest(context, attempt);
    try {
      const options = onText ? { signal, onText, origin } : { signal, origin };
      const reply = await effects.model.send(body, options);
      await context.append([context.event("model.responded", reply)], { sync: true });
      return reply;
    } catch (error) {
      if (error instanceof ModelCancelledError) {
        await context.append([context.event("model.cancelled", { attempt })], { sync: false });
        return "cancelled";
      }
      if (!(error instanceof ModelError)) throw error;
      const retryInMs = effects.retryDelay(attempt, error, origin);
      const noRetry = retryInMs === null ? effects.whyNoRetry?.(attempt, error, origin) : undefined;
      const failure = {
        attempt,
        kind: error.kind,
        status: error.status,
        message: error.message,
        retryInMs,
        ...(noRetry === undefined ? {} : { noRetry }),
      };
      await context.append([context.event("model.failed", failure)], { sync: false });
      if (retryInMs === null) return noRetry === undefined ? error : new GaveUp(error, noRetry);
      try {
        await effects.sleep(retryInMs, signal);
      } catch {
        return "cancelled";
      }
      await context.settle();
      const stage = context.stage(signal);
      await context.append(context.stamp(await context.deps.stages.modelFailed(stage, failure)), {
        sync: false,
      });
    }
  }
}

/** A retryable failure that was not retried, and why. */
class GaveUp extends ModelError {
  readonly why: string;
  constructor(error: ModelError, why: string) {
    super(error.message, { kind: error.kind, status: error.status });
    this.why = why;
  }
}

/** What a failed turn reports, naming the cause. */
export function failureMessage(error: ModelError): string {
  if (error instanceof GaveUp) return `${error.message} (${error.why})`;
  switch (error.kind) {
    case "prompt_too_long":
      return `${error.message}. The conversation is too long for the model; start a new session ` +
        "or fork this one at an earlier point";
    case "client_error":
    case "unknown":
      return error.message;
    default:
      return `${error.message} (gave up after retrying)`;
  }
}
