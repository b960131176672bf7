import type { ConversationMessage } from "../../events/event_types.ts";
import type { Conversation } from "../state/conversation.ts";
import { frozenBlockJson } from "../request/canonical_json.ts";

/** Tokens of a JSON value, estimated at four characters a token. Pure. */
export function estimateTokens(value: unknown): number {
  return Math.ceil(JSON.stringify(value).length / 4);
}

/** Tokens of some messages, estimated. Pure. */
export function messagesTokens(messages: readonly ConversationMessage[]): number {
  let total = 0;
  for (const message of messages) total += contentTokens(message.content) + 2;
  return total;
}

/**
 * {@link estimateTokens} of a message's content: from the JSON of its blocks, written once for
 * the request's digest too, when they are the fold's (frozen, keys in order: the same text as
 * JSON.stringify's); else written now.
 */
function contentTokens(content: ConversationMessage["content"]): number {
  let length = content.length + 1; // "[", "]" and the commas between the blocks
  for (const block of content) {
    const text = frozenBlockJson(block);
    if (text === undefined) return estimateTokens(content);
    length += text.length;
  }
  return Math.ceil(Math.max(length, 2) / 4);
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
