import type { ContextSnipped, ConversationMessage } from "../../events/event_types.ts";
import { isSnipRange } from "../state/context_edits.ts";
import { messagesTokens } from "./estimate.ts";

/**
 * Layer 2, snip: past `snipAt` messages, the oldest middle messages are cut out so about
 * `snipKeep` remain at the end, after the first exchange; one marker stands in their place. The
 * cut starts and ends at an assistant message, so no call is parted from its result. Pure.
 */
export function planSnip(
  messages: readonly ConversationMessage[],
  seqs: readonly number[],
  limits: { snipAt: number; snipKeep: number },
): ContextSnipped | undefined {
  if (messages.length <= limits.snipAt) return undefined;
  let from = 1;
  while (from < messages.length && messages[from]?.role !== "assistant") from++;
  let to = Math.max(from + 1, messages.length - limits.snipKeep);
  while (to < messages.length && messages[to]?.role !== "assistant") to++;
  if (!isSnipRange(messages, from, to)) return undefined;
  const count = to - from;
  return {
    from,
    to,
    fromSeq: seqs[from] ?? 0,
    toSeq: seqs[to - 1] ?? 0,
    marker: `[${count} earlier messages were cut here to save context. rein's event log keeps ` +
      "them; ask the user if you need something from that part of the conversation.]",
    tokensFreed: messagesTokens(messages.slice(from, to)),
  };
}
