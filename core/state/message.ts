import type { ConversationMessage } from "../../events/event_types.ts";

/**
 * A message of a projected conversation: frozen, with its content and each block (one level
 * down), so that it is a value. The fold replaces a message rather than change it, and what is
 * derived from a message by identity (a request digest's bytes, a token estimate, what the
 * compaction planners found in it) stays true of it; changing one in place throws. Pure.
 */
export function conversationMessage(
  role: ConversationMessage["role"],
  content: readonly ConversationMessage["content"][number][],
): ConversationMessage {
  return Object.freeze({
    role,
    content: Object.freeze(
      content.map((block) => Object.isFrozen(block) ? block : Object.freeze({ ...block })),
    ),
  });
}
