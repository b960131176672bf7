import type { ToolResultBlock } from "../../events/event_types.ts";
import { base64Bytes, formatBytes } from "./image_facts.ts";

/**
 * A tool result's block as people read it: a text block's text, an image as
 * `[image image/png 12 KB]`. Pure.
 */
export function resultBlockText(block: ToolResultBlock): string {
  if (block.type === "text") return block.text;
  return `[image ${block.source.media_type} ${formatBytes(base64Bytes(block.source.data))}]`;
}
