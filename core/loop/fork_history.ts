import type { ConversationMessage } from "../../events/event_types.ts";
import { appendToolResult, type Conversation, emptyConversation } from "../state/conversation.ts";
import { closeCall } from "./close_call.ts";

/**
 * The history a fork starts from: the conversation's messages (copied), with every call that had
 * no result at the fork point closed as not run, so the fork neither re-runs the source's tools
 * nor sends a tool_use without its tool_result. Pure.
 */
export function forkHistory(conversation: Conversation): ConversationMessage[] {
  const copy = emptyConversation(structuredClone(conversation.messages));
  for (const call of conversation.pendingCalls) {
    appendToolResult(copy, closeCall(call, { outcome: "not_run", why: "forked" }));
  }
  return copy.messages;
}
