import {
  assertExhaustive,
  type CompactionStarted,
  type ContentBlock,
  type ConversationMessage,
  type Envelope,
  isKernelEvent,
  type KernelEnvelope,
  type ToolCompleted,
  type ToolResultBlock,
  type Usage,
} from "../../events/event_types.ts";
import { compactMessages, replaceResults, snipMessages } from "./context_edits.ts";
import { conversationMessage } from "./message.ts";

/** A tool call the model asked for, as the conversation projection tracks it. */
export interface PendingCall {
  id: string;
  name: string;
  input: unknown;
}

/** One agent's conversation inside a session: a pure fold of that agent's events. */
export interface Conversation {
  /**
   * Messages in Messages API shape, user/assistant alternating: what the next request sends,
   * after the compactions recorded so far (the log keeps everything they replaced).
   */
  messages: ConversationMessage[];
  /** For each message, the seq of the event that began it (0 for a forked history). */
  messageSeqs: number[];
  /** tool_use blocks of the last assistant message that have no tool_result yet, in order. */
  pendingCalls: PendingCall[];
  /** Calls whose intent was recorded (`tool.requested`) but whose result was not. */
  openIntents: PendingCall[];
  /** True between a `model.requested` and its response, failure or cancellation. */
  awaitingModel: boolean;
  /** Model rounds answered so far. */
  rounds: number;
  /**
   * A tool_use the model was still writing when its reply hit the output token limit
   * (`stop_reason: max_tokens` with a tool_use last): its input may be incomplete, so it is not run.
   */
  truncatedCallId: string | null;
  /**
   * How full the context is, as last measured: `contextTokens` tokens (the last answer's usage,
   * or a compaction's estimate) when the conversation had `contextMessages` messages. Later
   * messages are estimated on top.
   */
  contextTokens: number;
  contextMessages: number;
  /** A compaction begun and not ended, with the summary once the model gave it. */
  compacting: (CompactionStarted & { summary?: string }) | null;
  /** Compactions completed. */
  compactions: number;
}

/** An empty conversation, or one seeded with a forked history. */
export function emptyConversation(history: ConversationMessage[] = []): Conversation {
  const messages = history.map((message) =>
    conversationMessage(message.role, message.content.map((block) => ({ ...block })))
  );
  const last = messages.at(-1);
  const pendingCalls = last?.role === "assistant" ? toolUses(last.content) : [];
  return {
    messages,
    messageSeqs: messages.map(() => 0),
    pendingCalls,
    openIntents: [],
    awaitingModel: false,
    rounds: 0,
    truncatedCallId: null,
    contextTokens: 0,
    contextMessages: 0,
    compacting: null,
    compactions: 0,
  };
}

/**
 * Fold one event into a conversation: a mechanism's event (see `KernelPayloads`) leaves it as it
 * is. Mutates and returns `conversation` (the projection owns it; folding in place keeps a
 * rebuild linear). Pure otherwise: reads no clock, env or disk, and never throws on a
 * well-formed log.
 */
export function evolveConversation(conversation: Conversation, event: Envelope): Conversation {
  return isKernelEvent(event) ? foldConversation(conversation, event) : conversation;
}

/**
 * {@link evolveConversation} for an event of the kernel's types, which it decides about one by
 * one (a new kernel type does not compile until it does). Mutates and returns `conversation`.
 */
export function foldConversation(conversation: Conversation, event: KernelEnvelope): Conversation {
  switch (event.type) {
    case "user.prompted":
      // A refused prompt is kept out of the conversation, as Claude Code erases it.
      if (event.data.refused === undefined) {
        appendUserBlock(conversation, { text: event.data.text, type: "text" }, event.seq);
      }
      break;
    case "model.requested":
      if (event.data.purpose === undefined) conversation.awaitingModel = true;
      break;
    case "model.failed":
    case "model.cancelled":
      if (event.data.purpose === undefined) conversation.awaitingModel = false;
      break;
    case "model.responded": {
      if (event.data.purpose !== undefined) {
        // A compaction's summary: it is not a message of the conversation.
        if (conversation.compacting) conversation.compacting.summary = summaryText(event.data);
        break;
      }
      conversation.awaitingModel = false;
      conversation.rounds += 1;
      const content = usableBlocks(event.data.content, conversation.messages);
      if (content.length > 0) {
        conversation.messages.push(conversationMessage("assistant", content.map(toRequestBlock)));
        conversation.messageSeqs.push(event.seq);
      }
      conversation.contextTokens = usageTokens(event.data.usage);
      conversation.contextMessages = conversation.messages.length;
      conversation.pendingCalls = toolUses(content);
      const last = content.at(-1);
      conversation.truncatedCallId = event.data.stopReason === "max_tokens" &&
          last?.type === "tool_use"
        ? last.id
        : null;
      break;
    }
    case "tool.requested":
      conversation.openIntents.push({
        id: event.data.callId,
        name: event.data.name,
        input: event.data.input,
      });
      break;
    case "tool.completed":
      appendToolResult(conversation, event.data, event.seq);
      break;
    case "model.discarded":
      if (conversation.messages.at(-1)?.role === "assistant") {
        conversation.messages.pop();
        conversation.messageSeqs.pop();
      }
      conversation.pendingCalls = [];
      conversation.truncatedCallId = null;
      break;
    case "model.continued":
    case "hook.context":
      appendUserBlock(conversation, { text: event.data.text, type: "text" }, event.seq);
      break;
    case "reminder.added":
      appendUserBlock(conversation, {
        text: `<system-reminder>\n${event.data.text}\n</system-reminder>`,
        type: "text",
      }, event.seq);
      break;
    case "arrival.injected":
      appendUserBlock(conversation, { text: event.data.text, type: "text" }, event.seq);
      break;
    case "context.spilled":
      replaceResults(
        conversation.messages,
        new Map(event.data.results.map((result) => [result.callId, result.preview])),
        true,
      );
      break;
    case "context.cleared":
      replaceResults(
        conversation.messages,
        new Map(event.data.results.map((result) => [result.callId, result.text])),
      );
      conversation.contextTokens = Math.max(0, conversation.contextTokens - event.data.tokensFreed);
      break;
    case "context.snipped": {
      const { from, to, marker, tokensFreed } = event.data;
      if (snipMessages(conversation, from, to, marker)) {
        conversation.contextTokens = Math.max(0, conversation.contextTokens - tokensFreed);
        if (conversation.contextMessages > from) {
          conversation.contextMessages = Math.max(from, conversation.contextMessages - (to - from));
        }
      }
      break;
    }
    case "compaction.started":
      conversation.compacting = { ...event.data };
      break;
    case "compaction.failed":
      conversation.compacting = null;
      break;
    case "compaction.completed": {
      const { cutIndex, summary, tokensAfter } = event.data;
      compactMessages(conversation, cutIndex, compactedText(summary), event.seq);
      conversation.compacting = null;
      conversation.compactions += 1;
      conversation.contextTokens = tokensAfter;
      conversation.contextMessages = conversation.messages.length;
      break;
    }
    case "session.started":
    case "session.resumed":
    case "model.switched":
    case "turn.started":
    case "turn.ended":
    case "session.ended":
    case "agent.spawned":
    case "agent.moved":
      break;
    default:
      assertExhaustive(event);
  }
  return conversation;
}

/** The tokens an answer's usage says the context held: its input, cached or not, and output. */
export function usageTokens(usage: Usage): number {
  return usage.input_tokens + usage.output_tokens + (usage.cache_read_input_tokens ?? 0) +
    (usage.cache_creation_input_tokens ?? 0);
}

/** The text a compaction puts in place of the messages it summarised. Pure. */
export function compactedText(summary: string): string {
  const parts = [
    "This session is being continued from an earlier conversation that was compacted to save " +
    "context. The summary below covers the earlier part; the full history is in rein's event " +
    "log.",
    `<summary>\n${summary.trim()}\n</summary>`,
  ];
  return parts.join("\n\n");
}

/** The text of a summary answer: its text blocks, joined. Pure. */
export function summaryText(reply: { content: readonly ContentBlock[] }): string {
  return reply.content.filter((block) => block.type === "text").map((b) => String(b.text)).join(
    "",
  ).trim();
}

/** The input that asks an answer cut off at the output limit to go on. */
export const CONTINUE_PROMPT =
  "Your answer was cut off at the output limit. Continue exactly where it stopped, without " +
  "repeating anything.";

/**
 * The text of the last answer, joined: the last assistant message, with the parts before it that
 * were cut off at the output limit and continued. "" when there is none.
 */
export function lastAssistantText(conversation: Conversation): string {
  const parts: string[] = [];
  for (let i = conversation.messages.length - 1; i >= 0; i--) {
    const message = conversation.messages[i];
    if (!message) break;
    if (message.role === "assistant") {
      parts.unshift(
        message.content.filter((block) => block.type === "text").map((b) => String(b.text)).join(
          "",
        ),
      );
      continue;
    }
    const continued = parts.length > 0 && message.content.length === 1 &&
      message.content[0]?.type === "text" && message.content[0].text === CONTINUE_PROMPT;
    if (!continued) break;
  }
  return parts.join("");
}

/** True when the last message is the user's (a prompt or tool results) and awaits an answer. */
export function awaitsModel(conversation: Conversation): boolean {
  return conversation.messages.at(-1)?.role === "user" && conversation.pendingCalls.length === 0;
}

/**
 * Close a call with its result: it leaves the pending and open lists, and its `tool_result` joins
 * the trailing user message. Mutates `conversation`; pure otherwise.
 */
export function appendToolResult(
  conversation: Conversation,
  result: ToolCompleted,
  seq = 0,
): void {
  const { callId } = result;
  conversation.openIntents = conversation.openIntents.filter((call) => call.id !== callId);
  conversation.pendingCalls = conversation.pendingCalls.filter((call) => call.id !== callId);
  // Blocks are made with their keys in sorted order, as a request's canonical JSON lists them.
  appendUserBlock(conversation, {
    content: result.blocks ? result.blocks.map(sortedResultBlock) : result.content,
    ...(result.isError ? { is_error: true } : {}),
    tool_use_id: callId,
    type: "tool_result",
  }, seq);
}

/** A result's block with its keys in sorted order, whatever order its log line wrote them in. */
function sortedResultBlock(block: ToolResultBlock): ToolResultBlock {
  if (block.type === "text") return { text: block.text, type: "text" };
  const { data, media_type } = block.source;
  return { source: { data, media_type, type: "base64" }, type: "image" };
}

/**
 * Add a block to the trailing user message (or start one). tool_result blocks go before any
 * other block of the message, as the Messages API requires them to come first.
 */
function appendUserBlock(
  conversation: Conversation,
  block: ConversationMessage["content"][number],
  seq: number,
) {
  const last = conversation.messages.at(-1);
  if (last?.role !== "user") {
    conversation.messages.push(conversationMessage("user", [block]));
    conversation.messageSeqs.push(seq);
    return;
  }
  // A message is a value: the last one is replaced by one with the block added.
  const content = [...last.content];
  const firstOther = block.type === "tool_result"
    ? content.findIndex((b) => b.type !== "tool_result")
    : -1;
  if (firstOther === -1) content.push(block);
  else content.splice(firstOther, 0, block);
  conversation.messages[conversation.messages.length - 1] = conversationMessage("user", content);
}

function toolUses(content: readonly { type: string; [k: string]: unknown }[]): PendingCall[] {
  const calls: PendingCall[] = [];
  for (const block of content) {
    if (block.type === "tool_use") {
      calls.push({ id: String(block.id), name: String(block.name), input: block.input });
    }
  }
  return calls;
}

/** The names the Messages API accepts for a tool. */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/;

/**
 * The blocks of an answer that can be sent back, so that a model that misbehaves (or an answer
 * cut off) cannot make the next request invalid: empty text blocks, thinking without its
 * signature, tool calls without a usable name, and tool calls whose id the conversation already
 * has (they would get two results) are left out. Pure.
 */
function usableBlocks(
  content: readonly ContentBlock[],
  messages: readonly ConversationMessage[],
): ContentBlock[] {
  const seen = toolUseIdsIn(messages, content);
  return content.filter((block) => {
    // Not `trim()`: that copies every answer's text, on every rebuild.
    if (block.type === "text") return NOT_BLANK.test(block.text);
    // A thinking block cut off before its signature cannot be sent back: the API checks it.
    if (block.type === "thinking") return typeof block.signature === "string" && !!block.signature;
    if (block.type !== "tool_use") return true;
    if (typeof block.name !== "string" || !TOOL_NAME.test(block.name)) return false;
    if (typeof block.id !== "string" || !block.id || seen.has(block.id)) return false;
    seen.add(block.id);
    return true;
  });
}

const NOT_BLANK = /\S/;

/**
 * The ids of the tool calls of `content` that `messages` already has. Pure: the ids of a
 * conversation's messages are cached by its array (see {@link KNOWN_IDS}), so each answer looks
 * only at the messages added since the last one instead of at the whole conversation (which made
 * a rebuild quadratic in a session's length).
 */
function toolUseIdsIn(
  messages: readonly ConversationMessage[],
  content: readonly ContentBlock[],
): Set<string> {
  const found = new Set<string>();
  if (!content.some((block) => block.type === "tool_use")) return found;
  let known = KNOWN_IDS.get(messages);
  // Valid while messages were only added: any removal or replacement (a discarded answer, a
  // snip) leaves another object, or none, where the last message seen was.
  if (known === undefined || messages[known.count - 1] !== known.last) {
    known = { ids: new Set(), count: 0, last: undefined };
    KNOWN_IDS.set(messages, known);
  }
  for (let i = known.count; i < messages.length; i++) {
    for (const block of messages[i]!.content) {
      if (block.type === "tool_use") known.ids.add(String(block.id));
    }
  }
  known.count = messages.length;
  known.last = messages.at(-1);
  for (const block of content) {
    if (block.type === "tool_use" && known.ids.has(String(block.id))) found.add(String(block.id));
  }
  return found;
}

/**
 * A cache, by a conversation's message array, of the tool call ids of its first `count` messages
 * (`last` being the last of them). Derived from the messages alone, so the fold stays a pure
 * function of the log; not part of the state (a snapshot does not hold it).
 */
const KNOWN_IDS = new WeakMap<
  readonly ConversationMessage[],
  { ids: Set<string>; count: number; last: ConversationMessage | undefined }
>();

/** Strip response-only fields (e.g. `citations: null`) so a block can be sent back. */
function toRequestBlock(block: ContentBlock): ConversationMessage["content"][number] {
  switch (block.type) {
    case "text":
      return block.citations
        ? { citations: block.citations, text: block.text, type: "text" }
        : { text: block.text, type: "text" };
    case "tool_use": {
      // The API takes only an object as a call's input; the tool's result says what was wrong.
      const input = typeof block.input === "object" && block.input !== null &&
          !Array.isArray(block.input)
        ? block.input
        : {};
      return { id: block.id, input, name: block.name, type: "tool_use" };
    }
    default:
      return { ...block };
  }
}
