import type { ConversationMessage } from "../../events/event_types.ts";
import type { MessagesRequest, SystemBlock } from "../effects/model_client.ts";
import type { ToolDefinition } from "../tools/schema.ts";

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
 * not depend on key order). Pure.
 */
export async function requestDigest(body: MessagesRequest): Promise<string> {
  // Web Crypto rather than node:crypto: loading Node's crypto costs a start ~6 ms.
  const bytes = new TextEncoder().encode(canonicalJson(body));
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(hash, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** JSON with object keys sorted recursively; `undefined` members are dropped as JSON does. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(v).sort()) sorted[key] = (v as Record<string, unknown>)[key];
    return sorted;
  });
}
