import type { ToolResultBlock } from "../../events/event_types.ts";
import { base64Bytes, formatBytes, IMAGE_MEDIA_TYPES, imageFacts } from "../tools/image_facts.ts";
import { resultBlockText } from "../tools/result_block_text.ts";
import type { McpContentBlock } from "./mcp_connection_types.ts";

/** The largest image sent to the model, in base64 characters: the Messages API's 5 MB limit. */
export const MAX_IMAGE_CHARS = 5 * 1024 * 1024;

/**
 * The most image data one result keeps, in base64 characters: the images are recorded inline in
 * the call's `tool.completed`, and this keeps that log line at about 10 MB.
 */
export const MAX_RESULT_IMAGE_CHARS = 10 * 1024 * 1024;

/** Tokens an image counts as against `MAX_MCP_OUTPUT_TOKENS`, Claude Code's fixed estimate. */
export const MCP_IMAGE_TOKENS = 1_600;

/** An MCP result as the model gets it: its text, and its blocks when it is more than text. */
export interface McpResultContent {
  /** The text of the result (of its blocks, an image as `[image image/png 12 KB]`). */
  text: string;
  /** The tool_result's blocks in the server's order; absent for a result of text alone. */
  blocks?: ToolResultBlock[];
}

/**
 * An MCP tool's content (or a resource's contents) as the model gets it. A result of text blocks
 * alone (or of text resources read with read_mcp_resource) is their text joined by newlines, as
 * rein always gave it. Any other result is blocks in the server's order: `text` as text; `image`,
 * and a `resource` whose blob is an image, as an image block (PNG, JPEG, GIF or WebP by its
 * bytes, at most {@link MAX_IMAGE_CHARS}, {@link MAX_RESULT_IMAGE_CHARS} for the result's
 * images together), the resource's after a line naming it; an embedded text `resource` as a
 * text block naming its server and URI (Claude Code's words); another blob, a `resource_link`,
 * `audio` and an image the model cannot read as a line of text naming what it is. `structuredContent` is used only when there is no content. Pure.
 */
export function mcpResultContent(
  content: readonly McpContentBlock[],
  server: string,
  structuredContent?: unknown,
): McpResultContent {
  if (content.length === 0 && structuredContent !== undefined) {
    return { text: JSON.stringify(structuredContent) };
  }
  if (content.every(isPlainText)) return { text: content.map((b) => b.text ?? "").join("\n") };
  const blocks: ToolResultBlock[] = [];
  const budget = { chars: MAX_RESULT_IMAGE_CHARS };
  for (const block of content) {
    const resource = block.type === "resource" ? block.resource : block;
    if (isPlainText(block)) {
      blocks.push(text(block.text ?? ""));
    } else if (block.type === "image") {
      blocks.push(imageBlock(block.data ?? "", block.mimeType, "image", budget));
    } else if (block.type === "audio") {
      blocks.push(text(
        `[audio ${block.mimeType ?? "of unknown type"} ${size(block.data)}: ` +
          "audio does not reach the model]",
      ));
    } else if (block.type === "resource_link") {
      const about = block.description ? ` (${block.description})` : "";
      blocks.push(
        text(`[Resource link: ${block.name ?? block.uri ?? ""}] ${block.uri ?? ""}${about}`),
      );
    } else if (resource && (block.type === "resource" || block.type === undefined)) {
      blocks.push(...resourceBlocks(resource, server, budget));
    } else {
      blocks.push(text(JSON.stringify(block)));
    }
  }
  return { text: blocks.map(resultBlockText).join("\n"), blocks };
}

/** A text block of an MCP result, or a text resource's contents read with read_mcp_resource. */
function isPlainText(block: McpContentBlock): boolean {
  return typeof block.text === "string" && (block.type === "text" || block.type === undefined);
}

/** An embedded resource's blocks: its text, or its image after a line naming it, as Claude Code. */
function resourceBlocks(
  resource: McpContentBlock,
  server: string,
  budget: { chars: number },
): ToolResultBlock[] {
  const where = `[Resource from ${server} at ${resource.uri ?? "an unnamed URI"}]`;
  if (typeof resource.text === "string") return [text(`${where} ${resource.text}`)];
  const type = resource.mimeType ?? "application/octet-stream";
  if (type.startsWith("image/") && resource.blob !== undefined) {
    return [text(where), imageBlock(resource.blob, type, "image", budget)];
  }
  return [text(`${where.slice(0, -1)}: ${type}, ${size(resource.blob)}, binary, not shown]`)];
}

/**
 * An image block, or the line of text saying why the image does not reach the model. Takes its
 * base64 from `budget` (what the result may still keep inline).
 */
function imageBlock(
  raw: string,
  declared: string | undefined,
  what: string,
  budget: { chars: number },
): ToolResultBlock {
  const data = /\s/.test(raw) ? raw.replace(/\s+/g, "") : raw;
  const label = `${what} ${declared ?? "of unknown type"} ${size(data)}`;
  if (declared !== undefined && !(IMAGE_MEDIA_TYPES as readonly string[]).includes(declared)) {
    return text(`[${label}: the model reads only PNG, JPEG, GIF and WebP images]`);
  }
  if (data.length > MAX_IMAGE_CHARS) {
    return text(`[${label}: over the 5 MB of base64 the model accepts for an image, not sent]`);
  }
  if (data.length > budget.chars) {
    return text(`[${label}: the result's images are over 10 MB together, not sent]`);
  }
  const facts = imageFacts(data);
  if (!facts) return text(`[${label}: its data is not a PNG, JPEG, GIF or WebP image]`);
  budget.chars -= data.length;
  return { source: { data, media_type: facts.mediaType, type: "base64" }, type: "image" };
}

function text(value: string): ToolResultBlock {
  return { text: value, type: "text" };
}

function size(base64: string | undefined): string {
  return formatBytes(base64Bytes(base64 ?? ""));
}
