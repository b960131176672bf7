import type {
  Envelope,
  EventPayloads,
  EventType,
  NewEvent,
  TurnEndReason,
} from "../../events/event_types.ts";
import { awaitsModel, type PendingCall } from "../state/conversation.ts";
import {
  ModelCancelledError,
  type ModelClient,
  ModelError,
  type ModelReply,
} from "../effects/model_client.ts";
import { buildRequest, requestDigest, type ToolDefinition } from "../request/request_body.ts";
import type { SessionView } from "../state/state.ts";
import { buildSystemPrompt } from "../request/system_prompt.ts";
import type { ToolExecutor } from "../tools/executor.ts";

/** The effects a turn uses; tests and replay replace them. */
export interface TurnDeps {
  model: ModelClient;
  tools: ToolExecutor;
  toolDefinitions: readonly ToolDefinition[];
  /** Wall clock (recorded at session start). */
  clock: () => Date;
  /** Wait `ms`; rejects when `signal` aborts. */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Delay before retrying after `attempt` failed with `error`, or null to give up. */
  retryDelay: (attempt: number, error: ModelError) => number | null;
  /** Receives streamed assistant text as it arrives (display only; not recorded per token). */
  onText?: (delta: string) => void;
}

/** How a run ended. */
export interface TurnResult {
  reason: TurnEndReason;
  /** Model rounds in this run. */
  turns: number;
  /** Detail for failed and cancelled runs. */
  message?: string;
}

/** What runTurn needs from its session. */
export interface TurnContext {
  deps: TurnDeps;
  view: () => SessionView;
  append: (events: NewEvent[], sync: boolean) => Promise<Envelope[]>;
  event: <T extends EventType>(type: T, data: EventPayloads[T]) => NewEvent;
}

/** Options of one run. */
export interface TurnOptions {
  signal: AbortSignal;
  maxTurns: number | null;
  /** True when continuing a turn that already has its `turn.started`. */
  continuing: boolean;
}

/**
 * The agent loop (s01): call the model, record the response; while it holds `tool_use` blocks,
 * run each call (intent recorded and flushed first, result after) and call the model again.
 * The presence of `tool_use` blocks is the continuation signal, not `stop_reason`.
 */
export async function runTurn(context: TurnContext, options: TurnOptions): Promise<TurnResult> {
  const { signal, maxTurns } = options;
  if (!options.continuing) {
    const turnsBefore = lead(context).turns;
    await context.append([context.event("turn.started", { turnsBefore, maxTurns })], false);
  }
  let rounds = 0;
  const end = async (reason: TurnEndReason, message?: string): Promise<TurnResult> => {
    const turns = lead(context).turns;
    const data = message === undefined ? { reason, turns } : { reason, turns, message };
    await context.append([context.event("turn.ended", data)], true);
    return message === undefined ? { reason, turns: rounds } : { reason, turns: rounds, message };
  };
  while (true) {
    const pending = lead(context).pendingCalls;
    if (pending.length > 0) {
      await runCalls(context, pending, signal);
      continue;
    }
    if (signal.aborted) return await end("cancelled", "Cancelled by the user");
    if (!awaitsModel(lead(context))) return await end("completed");
    if (maxTurns !== null && rounds >= maxTurns) {
      return await end("max_turns", `Stopped after ${maxTurns} model turns (--max-turns)`);
    }
    const outcome = await callModel(context, signal);
    if (outcome === "cancelled") return await end("cancelled", "Cancelled by the user");
    if (outcome instanceof ModelError) return await end("failed", failureMessage(outcome));
    rounds += 1;
    if (!outcome.content.some((block) => block.type === "tool_use")) return await end("completed");
  }
}

/** Ask the model, retrying per the policy. Each attempt, failure and response is an event. */
async function callModel(
  context: TurnContext,
  signal: AbortSignal,
): Promise<ModelReply | "cancelled" | ModelError> {
  const { deps } = context;
  for (let attempt = 1;; attempt++) {
    const view = context.view();
    const body = buildRequest({
      model: view.model,
      maxTokens: view.maxTokens,
      system: buildSystemPrompt({
        workspace: view.workspace,
        clockAtStart: view.clockAtStart,
        platform: view.platform,
        model: view.model,
        toolNames: deps.toolDefinitions.map((tool) => tool.name),
      }),
      tools: deps.toolDefinitions,
      messages: lead(context).messages,
    });
    const digest = requestDigest(body);
    await context.append(
      [context.event("model.requested", { model: view.model, digest, attempt })],
      false,
    );
    try {
      const reply = await deps.model.send(
        body,
        deps.onText ? { signal, onText: deps.onText } : { signal },
      );
      await context.append([context.event("model.responded", reply)], true);
      return reply;
    } catch (error) {
      if (error instanceof ModelCancelledError) {
        await context.append([context.event("model.cancelled", { attempt })], false);
        return "cancelled";
      }
      if (!(error instanceof ModelError)) throw error;
      const retryInMs = deps.retryDelay(attempt, error);
      await context.append([context.event("model.failed", {
        attempt,
        kind: error.kind,
        status: error.status,
        message: error.message,
        retryInMs,
      })], false);
      if (retryInMs === null) return error;
      try {
        await deps.sleep(retryInMs, signal);
      } catch {
        return "cancelled";
      }
    }
  }
}

/** Run the calls in order: intent (flushed), then result. After a cancel, the rest are closed. */
async function runCalls(context: TurnContext, calls: PendingCall[], signal: AbortSignal) {
  const truncated = lead(context).truncatedCallId;
  for (const call of calls) {
    if (call.id === truncated) {
      await context.append([context.event("tool.completed", {
        callId: call.id,
        name: call.name,
        content:
          "Not run: your reply hit the output token limit (max_tokens) while this call was " +
          "being written, so its input may be incomplete. Make the call again, smaller if you can " +
          "(for example, write a large file in several edits).",
        isError: true,
        durationMs: 0,
      })], false);
      continue;
    }
    if (signal.aborted) {
      await context.append([context.event("tool.completed", {
        callId: call.id,
        name: call.name,
        content: "Cancelled by the user before it ran",
        isError: true,
        durationMs: 0,
        outcome: "cancelled",
      })], false);
      continue;
    }
    await context.append([context.event("tool.requested", {
      callId: call.id,
      name: call.name,
      input: call.input,
    })], true);
    const outcome = await context.deps.tools.execute(call, signal);
    await context.append([context.event("tool.completed", {
      callId: call.id,
      name: call.name,
      ...outcome,
    })], false);
  }
}

function lead(context: TurnContext) {
  const conversation = context.view().agents["lead"];
  if (!conversation) throw new Error(`Session "${context.view().id}" has no lead conversation`);
  return conversation;
}

function failureMessage(error: ModelError): string {
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
