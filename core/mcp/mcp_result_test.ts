import assert from "node:assert/strict";
import type { ToolResultBlock } from "../../events/event_types.ts";
import { MAX_IMAGE_CHARS, mcpResultContent } from "./mcp_result.ts";
import { limitMcpBlocks, mcpTextToSpill } from "./mcp_output_limit.ts";
import { pngBase64 } from "../tools/_png_for_test.ts";

/** A PNG of 20 × 20 (its header and 4 bytes; nothing past the header is read), base64. */
const PNG = pngBase64(20, 20, 4);
const image = (data = PNG) => ({
  source: { data, media_type: "image/png" as const, type: "base64" as const },
  type: "image" as const,
});

Deno.test("a result of text blocks alone stays the text joined by newlines, as before", () => {
  const result = mcpResultContent(
    [{ type: "text", text: "one" }, { type: "text", text: "two" }],
    "everything",
  );
  assert.deepEqual(result, { text: "one\ntwo" });
  assert.deepEqual(mcpResultContent([], "s", { sum: 5 }), { text: '{"sum":5}' });
  // A text resource read with read_mcp_resource is its text.
  assert.deepEqual(
    mcpResultContent([{ uri: "demo://a", mimeType: "text/plain", text: "A" }], "s"),
    { text: "A" },
  );
});

Deno.test("an image and an embedded text resource become blocks in the server's order", () => {
  const result = mcpResultContent([
    { type: "text", text: "Here it is:" },
    { type: "image", data: PNG, mimeType: "image/png" },
    { type: "resource", resource: { uri: "demo://doc/1", mimeType: "text/plain", text: "Doc 1" } },
  ], "everything");
  assert.deepEqual(result.blocks, [
    { text: "Here it is:", type: "text" },
    image(),
    { text: "[Resource from everything at demo://doc/1] Doc 1", type: "text" },
  ]);
  assert.equal(
    result.text,
    "Here it is:\n[image image/png 33 B]\n[Resource from everything at demo://doc/1] Doc 1",
  );
});

Deno.test("an image's media type is its bytes', and a blob resource of an image type is an image", () => {
  const result = mcpResultContent([
    { type: "image", data: PNG, mimeType: "image/jpeg" },
    { type: "resource", resource: { uri: "file:///a.png", mimeType: "image/png", blob: PNG } },
  ], "s");
  assert.deepEqual(result.blocks, [
    image(),
    { text: "[Resource from s at file:///a.png]", type: "text" },
    image(),
  ]);
});

Deno.test("what the model cannot read becomes a line naming it: other blobs, links, audio, other image types, bad data", () => {
  const result = mcpResultContent([
    {
      type: "resource",
      resource: { uri: "demo://b/1", mimeType: "application/zip", blob: "AAAA" },
    },
    {
      type: "resource_link",
      uri: "demo://r/2",
      name: "Resource 2",
      description: "The second",
      mimeType: "text/plain",
    },
    { type: "audio", data: "AAAAAAAA", mimeType: "audio/wav" },
    { type: "image", data: "PHN2Zz48L3N2Zz4=", mimeType: "image/svg+xml" },
    { type: "image", data: "PHN2Zz48L3N2Zz4=", mimeType: "image/png" },
  ], "s");
  assert.deepEqual(result.blocks?.map((block) => block.type === "text" ? block.text : ""), [
    "[Resource from s at demo://b/1: application/zip, 3 B, binary, not shown]",
    "[Resource link: Resource 2] demo://r/2 (The second)",
    "[audio audio/wav 6 B: audio does not reach the model]",
    "[image image/svg+xml 11 B: the model reads only PNG, JPEG, GIF and WebP images]",
    "[image image/png 11 B: its data is not a PNG, JPEG, GIF or WebP image]",
  ]);
});

Deno.test("an image over 5 MB, or past 10 MB of a result's images, is a line instead of a block", () => {
  const big = PNG + "A".repeat(MAX_IMAGE_CHARS - PNG.length + 4);
  const under = PNG + "A".repeat(MAX_IMAGE_CHARS - PNG.length - 4);
  const result = mcpResultContent([
    { type: "image", data: big, mimeType: "image/png" },
    { type: "image", data: under, mimeType: "image/png" },
    { type: "image", data: under, mimeType: "image/png" },
    { type: "image", data: under, mimeType: "image/png" },
  ], "s");
  const kinds = result.blocks?.map((block) => block.type === "text" ? block.text : "image");
  assert.match(
    kinds?.[0] ?? "",
    /^\[image image\/png 3\.8 MB: over the 5 MB of base64 .* not sent\]$/,
  );
  assert.deepEqual(kinds?.slice(1, 3), ["image", "image"]);
  assert.match(kinds?.[3] ?? "", /over 10 MB together, not sent\]$/);
});

Deno.test("over MAX_MCP_OUTPUT_TOKENS the text is spilled to a preview and the images that fit stay", () => {
  const long = "x".repeat(10_000);
  const blocks: ToolResultBlock[] = [
    { text: long, type: "text" },
    image(),
    { text: "tail", type: "text" },
    image(),
  ];
  // 2,502 tokens of text and two images of 1,600: over 3,000.
  assert.equal(mcpTextToSpill(blocks, 6_000), undefined);
  assert.equal(mcpTextToSpill(blocks, 3_000), `${long}\ntail`);
  const limited = limitMcpBlocks(blocks, "mcp__s__t", 3_000, "The whole text is in X.");
  assert.equal(limited.blocks?.length, 3);
  const [note, first, second] = limited.blocks ?? [];
  assert.equal(note?.type, "text");
  assert.match(
    note?.type === "text" ? note.text : "",
    /^x{2000}\n\n\[mcp__s__t answered 10005 characters of text and 2 images, over MAX_MCP_OUTPUT_TOKENS \(3000 tokens; an image counts as 1,600\)\. The whole text is in X\.\]$/,
  );
  assert.deepEqual(first, image());
  // 2,000 characters of preview (about 550 tokens) and one image leave no room for the second.
  assert.deepEqual(second, {
    text: "[image image/png 33 B: over MAX_MCP_OUTPUT_TOKENS (3000 tokens; an image counts as " +
      "1,600), not sent]",
    type: "text",
  });
  assert.deepEqual(limitMcpBlocks(blocks, "t", 6_000, ""), {
    text: `${long}\n[image image/png 33 B]\ntail\n[image image/png 33 B]`,
    blocks,
  });
});
