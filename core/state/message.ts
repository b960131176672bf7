import type { ConversationMessage } from "../../events/event_types.ts";

/**
 * A message of a projected conversation: frozen, with its content and each block (one level
 * down), so that it is a value. The fold replaces a message rather than change it, and what is
 * derived from a message by identity (a request digest's bytes, what the compaction planners
 * found in it) stays true of it; changing one in place throws. The content and blocks given are
 * the fold's own (made for this message, or frozen already): they are frozen as they are. The fold
 * makes them with their keys in sorted order, as a request's canonical JSON lists them, so that
 * JSON.stringify writes them as they are (core/request/canonical_json.ts). Pure but for that.
 */
export function conversationMessage(
  role: ConversationMessage["role"],
  content: readonly ConversationMessage["content"][number][],
): ConversationMessage {
  for (const block of content) Object.freeze(block);
  return Object.freeze({ role, content: Object.freeze(content) });
}

/**
 * `messages` (a snapshot's, read back as plain JSON) made again as the fold makes them, frozen
 * with copies of their blocks, so that a session resumed from a snapshot is folded and planned on
 * as one folded from the log is. Pure.
 */
export function asConversationMessages(
  messages: readonly ConversationMessage[],
): ConversationMessage[] {
  return messages.map((message) =>
    conversationMessage(message.role, message.content.map((block) => ({ ...block })))
  );
}

/**
 * Whether `message` is frozen with its content (an array), as {@link conversationMessage} makes
 * it: it holds what it held when it was made, so what is derived from it can be kept by identity.
 */
export function isFrozenMessage(message: object): message is { content: readonly unknown[] } {
  const content = (message as { content?: unknown }).content;
  return Object.isFrozen(message) && Array.isArray(content) && Object.isFrozen(content);
}
