import type { ConversationMessage } from "../../events/event_types.ts";
import { conversationMessage } from "./message.ts";

/**
 * The edits compaction makes to an agent's projected messages, shared by the conversation fold
 * and the planners that predict their effect. Each keeps the messages a valid request: roles
 * alternate, every `tool_use` keeps its `tool_result` in the next message. They replace blocks
 * and messages rather than change them, so a request built before an edit keeps its bytes.
 */

/** A conversation's messages and, for each, the seq of the event that began it. */
export interface EditableMessages {
  messages: ConversationMessage[];
  messageSeqs: number[];
}

/**
 * Replace the content of the tool results named in `texts` (by call id) with the text given. With
 * `keepImages`, a result of content blocks keeps its images after the text (a spill replaces only
 * its text).
 */
export function replaceResults(
  messages: ConversationMessage[],
  texts: ReadonlyMap<string, string>,
  keepImages = false,
): void {
  if (texts.size === 0) return;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role !== "user") continue;
    // A message is copied only when it holds a result to replace (this runs for every spill,
    // over the whole conversation: plain loops, nothing allocated for the others).
    let content: ConversationMessage["content"][number][] | undefined;
    const blocks = message.content;
    for (let at = 0; at < blocks.length; at++) {
      const block = blocks[at]!;
      if (block.type !== "tool_result") continue;
      const text = texts.get(String(block.tool_use_id));
      if (text === undefined) continue;
      content ??= [...blocks];
      const images = keepImages && Array.isArray(block.content)
        ? (block.content as { type?: unknown }[]).filter((part) => part.type === "image")
        : [];
      content[at] = {
        ...block,
        content: images.length > 0 ? [{ text, type: "text" }, ...images] : text,
      };
    }
    if (content) messages[i] = conversationMessage("user", content);
  }
}

/**
 * Whether the messages from `index` on can be kept without what comes before: the first kept is
 * an assistant message, or a user message without tool results (a prompt). Pure.
 */
export function isCutPoint(messages: readonly ConversationMessage[], index: number): boolean {
  const message = messages[index];
  if (!message) return false;
  if (message.role === "assistant") return index > 0 && messages[index - 1]?.role === "user";
  return !message.content.some((block) => block.type === "tool_result");
}

/**
 * Cut messages `from` up to `to` (exclusive) out and put `marker` in their place, as a text block
 * of the user message before them. `from` must be an assistant message and `to` an assistant
 * message (or the end): then the user message before the cut is followed by an assistant message,
 * and every call cut had its results cut with it. Does nothing when that does not hold.
 */
export function snipMessages(
  conversation: EditableMessages,
  from: number,
  to: number,
  marker: string,
): boolean {
  const { messages } = conversation;
  const before = messages[from - 1];
  if (!isSnipRange(messages, from, to) || !before) return false;
  messages.splice(from, to - from);
  conversation.messageSeqs.splice(from, to - from);
  messages[from - 1] = conversationMessage("user", [...before.content, {
    text: marker,
    type: "text",
  }]);
  return true;
}

/** Whether `from`…`to` can be snipped (see {@link snipMessages}). Pure. */
export function isSnipRange(
  messages: readonly ConversationMessage[],
  from: number,
  to: number,
): boolean {
  return from >= 1 && to > from && to < messages.length &&
    messages[from]?.role === "assistant" && messages[to]?.role === "assistant" &&
    messages[from - 1]?.role === "user";
}

/**
 * Replace the messages before `cutIndex` with one user message holding `text` (the summary and
 * what is re-injected after it). When the first message kept is the user's, the text joins it.
 * Does nothing for a cut that {@link isCutPoint} refuses.
 */
export function compactMessages(
  conversation: EditableMessages,
  cutIndex: number,
  text: string,
  seq: number,
): boolean {
  const { messages } = conversation;
  if (!isCutPoint(messages, cutIndex) && cutIndex !== messages.length) return false;
  const tail = messages.slice(cutIndex);
  const tailSeqs = conversation.messageSeqs.slice(cutIndex);
  const block = { text, type: "text" };
  const first = tail[0];
  if (first?.role === "user") {
    tail[0] = conversationMessage("user", [block, ...first.content]);
  } else {
    tail.unshift(conversationMessage("user", [block]));
    tailSeqs.unshift(seq);
  }
  conversation.messages = tail;
  conversation.messageSeqs = tailSeqs;
  return true;
}
