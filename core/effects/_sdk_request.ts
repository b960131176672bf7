import type Anthropic from "@anthropic-ai/sdk";
import type { ConversationMessage } from "../../events/event_types.ts";
import type { MessagesRequest } from "./model_client.ts";

type Block = ConversationMessage["content"][number];

/**
 * The request body as the SDK types it, built field by field so the compiler checks every
 * request rein sends against the SDK's own types. `model` is given apart (the `[1m]` suffix is
 * stripped by the caller). Throws for a content block of a type rein never records.
 */
export function sdkRequest(body: MessagesRequest, model: string): Anthropic.MessageStreamParams {
  return {
    model,
    max_tokens: body.max_tokens,
    system: body.system.map((block) => ({
      type: "text",
      text: block.text,
      ...(block.cache_control ? { cache_control: { type: "ephemeral" } } : {}),
    })),
    tools: body.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: { ...tool.input_schema, type: "object" },
      ...(tool.cache_control ? { cache_control: { type: "ephemeral" } } : {}),
    })),
    messages: body.messages.map((message) => ({
      role: message.role,
      content: message.content.map(sdkBlock),
    })),
    ...(body.thinking
      ? { thinking: { type: "enabled", budget_tokens: body.thinking.budget_tokens } }
      : {}),
  };
}

function sdkBlock(block: Block): Anthropic.ContentBlockParam {
  const cache = block.cache_control ? { cache_control: { type: "ephemeral" as const } } : {};
  switch (block.type) {
    case "text":
      return {
        type: "text",
        text: String(block.text),
        ...(Array.isArray(block.citations)
          ? { citations: block.citations as Anthropic.TextCitationParam[] }
          : {}),
        ...cache,
      };
    case "tool_use":
      return {
        type: "tool_use",
        id: String(block.id),
        name: String(block.name),
        input: block.input ?? {},
        ...cache,
      };
    case "tool_result":
      return {
        type: "tool_result",
        tool_use_id: String(block.tool_use_id),
        content: Array.isArray(block.content)
          ? (block.content as Block[]).map(sdkResultBlock)
          : String(block.content),
        ...(block.is_error === true ? { is_error: true } : {}),
        ...cache,
      };
    case "thinking":
      return {
        type: "thinking",
        thinking: String(block.thinking),
        signature: String(block.signature),
      };
    case "redacted_thinking":
      return { type: "redacted_thinking", data: String(block.data) };
    default:
      throw new Error(`Cannot send a "${block.type}" block to the model`);
  }
}

/** A block of a tool result's content (an MCP tool's text and images). */
function sdkResultBlock(block: Block): Anthropic.TextBlockParam | Anthropic.ImageBlockParam {
  if (block.type !== "image") return { type: "text", text: String(block.text) };
  const source = block.source as Anthropic.Base64ImageSource;
  return {
    type: "image",
    source: { type: "base64", media_type: source.media_type, data: source.data },
  };
}
