import type { ConversationMessage } from "../../events/event_types.ts";
import type { MessagesRequest, SystemBlock } from "../effects/model_client.ts";
import type { ToolDefinition } from "../tools/schema.ts";
import { sha256Hex } from "./_sha256.ts";
import { canonicalChunks, type CanonicalMemo } from "./canonical_json.ts";

/** What a request is built from. */
export interface RequestInput {
  model: string;
  maxTokens: number;
  system: SystemBlock[];
  tools: readonly ToolDefinition[];
  messages: readonly ConversationMessage[];
  /** Extended thinking's budget, or null when off; kept below the output limit. */
  thinkingBudget?: number | null;
}

/**
 * Build the request body. Pure; never mutates its input. Cache breakpoints: the system prompt
 * carries its own, the last tool definition gets one (tools + system form a stable prefix), and
 * the last block of the last message gets one so the conversation so far is cached too.
 */
export function buildRequest(input: RequestInput): MessagesRequest {
  const tools = input.tools.map((tool, i) =>
    i === input.tools.length - 1 ? { ...tool, cache_control: { type: "ephemeral" as const } } : tool
  );
  const messages = [...input.messages];
  const last = messages.at(-1);
  if (last && last.content.length > 0) {
    const content = [...last.content];
    const lastBlock = content[content.length - 1];
    if (lastBlock && lastBlock.type !== "thinking" && lastBlock.type !== "redacted_thinking") {
      content[content.length - 1] = { ...lastBlock, cache_control: { type: "ephemeral" } };
    }
    messages[messages.length - 1] = { role: last.role, content };
  }
  return {
    model: input.model,
    max_tokens: input.maxTokens,
    system: input.system,
    tools,
    messages,
    ...(input.thinkingBudget
      ? {
        thinking: {
          type: "enabled" as const,
          budget_tokens: Math.min(input.thinkingBudget, input.maxTokens - 1),
        },
      }
      : {}),
    stream: true,
  };
}

/**
 * sha256 (hex) of the canonical JSON of a request body (object keys sorted, so the digest does
 * not depend on key order; see {@link canonicalChunks}). Pure: the parts it remembers between
 * calls (see {@link digestMemo}) are a function of objects that do not change.
 */
export async function requestDigest(body: MessagesRequest): Promise<string> {
  const memo = digestMemo(body);
  const chunks = canonicalChunks(body, memo);
  const first = body.messages[0];
  if (!first) return await sha256Hex(chunks);
  // Up to the last message, the next request of the conversation starts alike.
  const keep = Math.max(0, chunks.lastIndexOf(memo.lastMessage() ?? ""));
  return await sha256Hex(chunks, { key: first, keep });
}

/** Canonical bytes of content blocks and tool definitions (and their schemas), by object. */
const PARTS = new WeakMap<object, Uint8Array<ArrayBuffer>>();

/** Canonical bytes of a message, and what it held when written (see {@link digestMemo}). */
const MESSAGES = new WeakMap<object, WrittenMessage>();

/** A message as written: its keys and members in order (key, member, key, …), its blocks. */
interface WrittenMessage {
  members: unknown[];
  blocks: readonly unknown[];
  bytes: Uint8Array<ArrayBuffer>;
}

/**
 * What a digest takes from earlier rounds, so that a round writes out only what is new instead of
 * the whole conversation again. Content blocks and tool definitions are never changed in place
 * (the fold replaces a block to edit it: core/state/context_edits.ts; {@link buildRequest} copies
 * the block and the tool it marks for the cache; definitions are built once per tool), so their
 * bytes are kept by object, and so are the members of a tool (its schema) for the copy. A
 * message's content grows in place while it is the last one (and again when the answer after it
 * is discarded), so its bytes are used only while it holds the same members and the same blocks
 * as when it was written.
 */
function digestMemo(
  body: MessagesRequest,
): CanonicalMemo & { lastMessage(): Uint8Array<ArrayBuffer> | undefined } {
  // Besides the messages and the tools: the content of a message and the members of a tool that
  // are about to be written (a message or a tool not found), so that their blocks are kept.
  const holders = new Set<object>([body.tools]);
  const last = body.messages.at(-1);
  let lastBytes: Uint8Array<ArrayBuffer> | undefined;
  return {
    memoized: (holder) => holder === body.messages || holders.has(holder),
    find(value, holder) {
      if (holder !== body.messages) {
        const bytes = PARTS.get(value);
        if (bytes === undefined && holder === body.tools) holders.add(value);
        return bytes;
      }
      const known = MESSAGES.get(value);
      if (known && holdsSame(value, known)) {
        if (value === last) lastBytes = known.bytes;
        return known.bytes;
      }
      const content = (value as { content?: unknown }).content;
      if (Array.isArray(content)) holders.add(content);
      return undefined;
    },
    keep(value, holder, bytes) {
      if (value === last) lastBytes = bytes;
      // The copies buildRequest makes for this request alone are never seen again.
      if (value === last || Object.hasOwn(value, "cache_control")) return;
      if (holder !== body.messages) {
        PARTS.set(value, bytes);
        return;
      }
      const members: unknown[] = [];
      for (const [key, member] of Object.entries(value)) members.push(key, member);
      const content = (value as { content?: unknown }).content;
      MESSAGES.set(value, { members, blocks: Array.isArray(content) ? [...content] : [], bytes });
    },
    /** The bytes of the body's last message, once written. */
    lastMessage: () => lastBytes,
  };
}

/** Whether `message` has the same keys and members, and the same blocks, as `known` (by identity). */
function holdsSame(message: object, known: WrittenMessage): boolean {
  let at = 0;
  for (const key in message) {
    if (!Object.hasOwn(message, key)) return false;
    const member = (message as Record<string, unknown>)[key];
    if (key !== known.members[at] || member !== known.members[at + 1]) return false;
    at += 2;
  }
  if (at !== known.members.length) return false;
  const content = (message as { content?: unknown }).content;
  const blocks = Array.isArray(content) ? content : [];
  if (blocks.length !== known.blocks.length) return false;
  for (let i = 0; i < blocks.length; i++) if (blocks[i] !== known.blocks[i]) return false;
  return true;
}
