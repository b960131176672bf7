import type { ToolResultBlock } from "../../events/event_types.ts";
import { resultBlockText } from "../tools/result_block_text.ts";
import { MCP_IMAGE_TOKENS, type McpResultContent } from "./mcp_result.ts";

/** Characters of a spilled text the model sees. */
export const MCP_PREVIEW_CHARS = 2_000;

/**
 * The text of a result of blocks to keep in a file, when the result is over `maxTokens`
 * (`MAX_MCP_OUTPUT_TOKENS`; text at four characters a token, each image
 * {@link MCP_IMAGE_TOKENS}) and its text is longer than a preview; undefined otherwise. Pure.
 */
export function mcpTextToSpill(blocks: readonly ToolResultBlock[], maxTokens: number) {
  if (mcpTokens(blocks) <= maxTokens) return undefined;
  const whole = blocks.flatMap((block) => block.type === "text" ? [block.text] : []).join("\n");
  return whole.length > MCP_PREVIEW_CHARS ? whole : undefined;
}

/**
 * A result of blocks brought under `maxTokens`: when {@link mcpTextToSpill} gave its text, that
 * text's blocks become one block (where the first was) with the text's beginning and `kept`, the
 * sentence saying where the whole text is; then the images, in order, while they fit what is
 * left, and each other image a line saying it was over the limit. A result under the limit is
 * given back as it is. Pure.
 */
export function limitMcpBlocks(
  blocks: readonly ToolResultBlock[],
  name: string,
  maxTokens: number,
  kept: string,
): McpResultContent {
  const spill = mcpTextToSpill(blocks, maxTokens);
  const limit = `MAX_MCP_OUTPUT_TOKENS (${maxTokens} tokens; an image counts as ${
    MCP_IMAGE_TOKENS.toLocaleString("en-US")
  })`;
  let out: ToolResultBlock[] = [...blocks];
  if (spill !== undefined) {
    const images = blocks.filter((block) => block.type === "image").length;
    const note = `${spill.slice(0, MCP_PREVIEW_CHARS)}\n\n[${name} answered ${spill.length} ` +
      `characters of text and ${images} image${images === 1 ? "" : "s"}, over ${limit}. ${kept}]`;
    const first = out.findIndex((block) => block.type === "text");
    out = out.flatMap((block, at): ToolResultBlock[] =>
      block.type !== "text" ? [block] : at === first ? [{ text: note, type: "text" }] : []
    );
  }
  if (mcpTokens(blocks) > maxTokens) {
    let used = mcpTokens(out.filter((block) => block.type === "text"));
    out = out.map((block) => {
      if (block.type === "text") return block;
      if (used + MCP_IMAGE_TOKENS <= maxTokens) {
        used += MCP_IMAGE_TOKENS;
        return block;
      }
      return {
        text: `${resultBlockText(block).slice(0, -1)}: over ${limit}, not sent]`,
        type: "text",
      };
    });
  }
  return { text: out.map(resultBlockText).join("\n"), blocks: out };
}

/** Tokens of blocks as `MAX_MCP_OUTPUT_TOKENS` counts them. Pure. */
function mcpTokens(blocks: readonly ToolResultBlock[]): number {
  let chars = 0;
  let images = 0;
  for (const block of blocks) {
    if (block.type === "text") chars += block.text.length;
    else images++;
  }
  return Math.ceil(chars / 4) + images * MCP_IMAGE_TOKENS;
}
