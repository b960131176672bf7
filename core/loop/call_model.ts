import {
  type MessagesRequest,
  ModelCancelledError,
  ModelError,
  type ModelReply,
} from "../effects/model_client.ts";
import type { ModelPurpose } from "../../events/event_types.ts";
import { requestDigest } from "../request/request_body.ts";
import type { TurnContext } from "./turn_context.ts";

/** A model call that is not the agent's next round: why, and how its request is assembled. */
export interface SideRequest {
  purpose: ModelPurpose;
  build: () => MessagesRequest;
}

/**
 * Assemble the request from the state and record `model.requested` right after the events that
 * state was folded from. Another agent may append while the request is assembled and digested
 * (its events would then sit before this one in the log, and replay would assemble from a state
 * that has them): then the request is assembled again. A round's request first takes in what
 * arrived from outside the loop (`injectArrivals`), and is recorded only on a state with nothing
 * left to take in, so an arrival is always in the first request recorded after it. Returns the
 * request recorded.
 */
async function recordRequest(
  context: TurnContext,
  attempt: number,
  side: SideRequest | undefined,
): Promise<MessagesRequest> {
  const injected = new Set<string>();
  for (;;) {
    await context.settle();
    if (side === undefined && await injectArrivals(context, injected)) continue;
    const seen = context.deps.store.lastSeq;
    const body = side ? side.build() : context.nextRequest();
    const digest = await requestDigest(body, context.view().settings?.requestDigest ?? "sorted");
    const requested = context.event("model.requested", {
      model: body.model,
      digest,
      attempt,
      ...purposeOf(side),
    });
    const stored = await context.deps.store.appendDecided(
      (lastSeq) => lastSeq === seen ? [requested] : [],
      { sync: false },
    );
    if (stored.length > 0) return body;
  }
}

/**
 * Ask the model for this agent's next round (or, with `side`, for something else: a summary),
 * retrying per the policy. The request is assembled from the state for every attempt; each
 * attempt, failure, wait and answer is an event. A round whose prompt is too long for the model
 * is compacted (the `compact` stage) and asked once more.
 */
export async function callModel(
  context: TurnContext,
  signal: AbortSignal,
  onText?: (delta: string) => void,
  side?: SideRequest,
): Promise<ModelReply | "cancelled" | ModelError> {
  const { effects } = context.deps;
  const origin = { session: context.session, agent: context.agent };
  const purpose = purposeOf(side);
  let compacted = false;
  for (let attempt = 1;; attempt++) {
    const body = await recordRequest(context, attempt, side);
    try {
      const options = onText ? { signal, onText, origin } : { signal, origin };
      const reply = await effects.model.send(body, options);
      // A reply with calls is flushed by the intent record that follows it (design §1: sync at
      // turn boundaries and after every tool intent), a flush per round saved; only a power
      // loss before that could lose it, and a resume then asks again.
      const calls = reply.content.some((block) => block.type === "tool_use");
      await context.append([context.event("model.responded", { ...reply, ...purpose })], {
        sync: !calls,
      });
      return reply;
    } catch (error) {
      if (error instanceof ModelCancelledError) {
        await context.append([context.event("model.cancelled", { attempt, ...purpose })], {
          sync: false,
        });
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
        ...purpose,
      };
      await context.append([context.event("model.failed", failure)], { sync: false });
      if (error.kind === "prompt_too_long" && side === undefined && !compacted) {
        // Reactive compaction (s08): make room once, then ask again.
        compacted = true;
        await context.settle();
        const outcome = await context.deps.stages.compact(context.stage(signal), {
          trigger: "reactive",
        });
        if (outcome.compacted) continue;
        if (outcome.unavailable) return error;
        return new GaveUp(
          error,
          `compacting did not help: ${outcome.reason}; start a new session or fork this one ` +
            "at an earlier point",
        );
      }
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

function purposeOf(side: SideRequest | undefined): { purpose?: ModelPurpose } {
  return side ? { purpose: side.purpose } : {};
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

/**
 * Put the agent's pending arrivals before the model, if it has any: decided under the log's
 * lock on the state caught up with every other writer, and recorded as one `arrival.injected`
 * each, which the conversation fold adds to the next user message. Returns whether it recorded
 * any. `injected` collects what this request took in so far: an arrival still listed after its
 * injection (a projection that does not fold it) is an error, not a loop.
 *
 * The loop calls this right before it records a request (see `callModel`), and records the
 * request only on a state this found nothing in: an arrival appended meanwhile makes the loop
 * come back here and assemble again, so the log never has a `model.requested` with an arrival
 * before it that the request left out. Replay finds the same arrivals on the state the log has
 * just before the recorded injection or request.
 */
export async function injectArrivals(
  context: TurnContext,
  injected: Set<string>,
): Promise<boolean> {
  const pending = context.deps.arrivals(context.scope());
  if (pending.length === 0) return false;
  for (const { source, key } of pending) {
    if (injected.has(`${source}\0${key}`)) {
      throw new Error(
        `The arrival "${key}" of ${source} is still waiting after it was put before the model: ` +
          `its mechanism's projection must fold arrival.injected`,
      );
    }
  }
  const recorded = await context.deps.store.appendDecided(
    () =>
      context.deps.arrivals(context.scope()).flatMap(({ source, key, seq, text, events }) => [
        // What taking it up decides (an idle teammate's claim), in the same append.
        ...context.stamp(events ?? []),
        context.event("arrival.injected", { source, key, seq, text }),
      ]),
    { sync: false },
  );
  for (const event of recorded) {
    if (event.type === "arrival.injected") injected.add(`${event.data.source}\0${event.data.key}`);
  }
  return recorded.length > 0;
}
