import type { ConversationMessage } from "../../events/event_types.ts";
import type { MessagesRequest, RequestTool, SystemBlock } from "../effects/model_client.ts";
import type { ToolDefinition } from "../tools/schema.ts";
import { digestMemo } from "./_digest_memo.ts";
import { messagesLastDigest, noteLastCopy } from "./_messages_last.ts";
import { loadedCreateHash } from "./_sha256.ts";
import { canonicalChunks } from "./canonical_json.ts";

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
  let tools = TOOLS.get(input.tools);
  if (!tools) {
    tools = input.tools.map((tool, i) => i === input.tools.length - 1 ? marked(tool) : tool);
    TOOLS.set(input.tools, tools);
  }
  const messages = [...input.messages];
  const last = messages.at(-1);
  if (last && last.content.length > 0) {
    const content = [...last.content];
    const lastBlock = content[content.length - 1];
    const marked = lastBlock !== undefined && lastBlock.type !== "thinking" &&
      lastBlock.type !== "redacted_thinking";
    if (marked) {
      const breakpoint = Object.freeze({ type: "ephemeral" as const });
      content[content.length - 1] = Object.freeze({ ...lastBlock, cache_control: breakpoint });
    }
    // Frozen as made: the digest writes it from the message it copies (noteLastCopy).
    const copy = Object.freeze({ role: last.role, content: Object.freeze(content) });
    noteLastCopy(copy, last, marked);
    messages[messages.length - 1] = copy;
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
 * The tools of a request, made once per list of definitions (a pool's, the same while the pool
 * is): the same array again lets the request digest find its bytes. Never changed.
 */
const TOOLS = new WeakMap<readonly ToolDefinition[], RequestTool[]>();

/** The last tool's copy with a cache breakpoint, made once per definition (never changed). */
const MARKED = new WeakMap<ToolDefinition, RequestTool>();

function marked(tool: ToolDefinition): RequestTool {
  let copy = MARKED.get(tool);
  if (copy === undefined) {
    copy = { ...tool, cache_control: { type: "ephemeral" as const } };
    MARKED.set(tool, copy);
  }
  return copy;
}

/**
 * What a request digest hashes: the canonical JSON of the body (object keys sorted, so the digest
 * does not depend on key order; see {@link canonicalChunks}), either with all its keys in order
 * (`sorted`, the digests of sessions recorded before `messages-last`), or with `messages` moved
 * last, so that a round hashes only the messages it adds: the model, the system prompt and the
 * tools come before them, where the conversation's earlier requests have hashed them already.
 */
export type DigestLayout = "sorted" | "messages-last";

/**
 * sha256 (hex) of a request body, as `layout` writes it out. Pure: what it remembers between
 * calls to write and hash only what is new (core/request/_digest_memo.ts, and for
 * `messages-last` core/request/_messages_last.ts) is derived from objects that are not changed
 * in place, or checked to hold what they held when written.
 */
export async function requestDigest(
  body: MessagesRequest,
  layout: DigestLayout = "sorted",
): Promise<string> {
  if (layout === "sorted") {
    const memo = digestMemo(body);
    return await memo.digest(canonicalChunks(body, memo));
  }
  return await messagesLastDigest(body, loadedCreateHash());
}
