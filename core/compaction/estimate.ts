import type { ConversationMessage } from "../../events/event_types.ts";
import type { Conversation } from "../state/conversation.ts";

/** Tokens of a JSON value, estimated at four characters a token. Pure. */
export function estimateTokens(value: unknown): number {
  return Math.ceil(JSON.stringify(value).length / 4);
}

/** Tokens of some messages, estimated. Pure. */
export function messagesTokens(messages: readonly ConversationMessage[]): number {
  let total = 0;
  for (const message of messages) total += estimateTokens(message.content) + 2;
  return total;
}

/**
 * How full an agent's context is now: the last measurement (an answer's usage, a compaction's
 * estimate) plus an estimate of the messages added since; `whole()` estimates the full request
 * when nothing was measured yet. Pure.
 */
export function contextTokens(conversation: Conversation, whole: () => number): number {
  if (conversation.contextMessages === 0) return whole();
  const added = conversation.messages.slice(conversation.contextMessages);
  return conversation.contextTokens + messagesTokens(added);
}
