import type { ConversationMessage } from "../../events/event_types.ts";
import type { Conversation } from "../state/conversation.ts";
import { frozenBlockJson } from "../request/canonical_json.ts";
import { imageFacts, imageTokens } from "../tools/image_facts.ts";

/**
 * Tokens of a JSON value, estimated at four characters a token, an image at what the model reads
 * it as ({@link imageTokens}: width × height / 750 from its header, 1,600 when its size is not
 * found) instead of its base64. Pure.
 */
export function estimateTokens(value: unknown): number {
  const text = JSON.stringify(value);
  return Math.ceil((text.length + imageChars(value, text)) / 4);
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
    length += text.length + imageChars(block, text);
  }
  return Math.ceil(Math.max(length, 2) / 4);
}

/**
 * What the images in `value` (whose JSON is `json`) add to its length when each counts as its
 * tokens (four characters each) rather than its base64: 0 when it holds none. Pure.
 */
function imageChars(value: unknown, json: string): number {
  return json.includes('"type":"image"') ? imageDelta(value) : 0;
}

function imageDelta(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + imageDelta(item), 0);
  const record = value as Record<string, unknown>;
  const source = record.source as { type?: unknown; data?: unknown } | undefined;
  if (record.type === "image" && source?.type === "base64" && typeof source.data === "string") {
    let delta = IMAGES.get(source);
    if (delta === undefined) {
      delta = imageTokens(imageFacts(source.data)) * 4 - source.data.length;
      IMAGES.set(source, delta);
    }
    return delta;
  }
  let sum = 0;
  for (const member of Object.values(record)) sum += imageDelta(member);
  return sum;
}

/** By an image's source object (never changed once made): what it adds, found once. */
const IMAGES = new WeakMap<object, number>();

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
