import type { ModelResponded, ReinEvent } from "../../events/event_types.ts";
import { maxOutputOf } from "../models/catalogue.ts";
import { CONTINUE_PROMPT } from "../state/conversation.ts";
import { agentOf } from "../state/sessions.ts";
import type { State } from "../state/state.ts";

/** Continuations of one turn's answer after it hit the output limit. */
export const MAX_CONTINUATIONS = 3;

/**
 * What to do when an answer without tool calls stopped at the output limit (s11): set it aside
 * and ask the same request again once with the model's full limit; if that answer stops at the
 * limit too, keep it and ask the model to go on, up to {@link MAX_CONTINUATIONS} times, so the
 * answer is completed rather than lost. Pure: the events say what was decided, and
 * `continueTurn` whether the turn goes on.
 */
export function afterOutputLimit(
  state: State,
  session: string,
  agent: string,
  reply: ModelResponded,
): { events: ReinEvent[]; continueTurn: boolean } {
  const view = state.sessions.byId[session];
  if (reply.stopReason !== "max_tokens" || !view) return { events: [], continueTurn: false };
  const own = agentOf(view, agent);
  const full = maxOutputOf(own.model);
  if (own.maxTokens < full) {
    return {
      events: [
        { type: "model.discarded", data: { messageId: reply.messageId, reason: "max_tokens" } },
        {
          type: "model.switched",
          data: { model: own.model, maxTokens: full, from: own.model, reason: "escalate" },
        },
      ],
      continueTurn: true,
    };
  }
  if (own.continuations >= MAX_CONTINUATIONS) return { events: [], continueTurn: false };
  return {
    events: [{ type: "model.continued", data: { text: CONTINUE_PROMPT } }],
    continueTurn: true,
  };
}
