import assert from "node:assert/strict";
import type { KernelEnvelope, ToolCompleted, ToolResultBlock } from "../../events/event_types.ts";
import { appendToolResult, emptyConversation, foldConversation } from "../state/conversation.ts";
import { conversationMessage } from "../state/message.ts";
import { CLEARED_PREFIX, planClear } from "./clear.ts";
import { estimateTokens, messagesTokens } from "./estimate.ts";
import { planSpill } from "./spill.ts";
import { pngBase64 } from "../tools/_png_for_test.ts";

/** A PNG of `side` × `side` (its header: nothing past it is read), with `pad` bytes of data. */
function png(side: number, pad = 0): string {
  return pngBase64(side, side, pad);
}

function imageBlock(data: string): ToolResultBlock {
  return { type: "image", source: { type: "base64", media_type: "image/png", data } };
}

function completed(callId: string, blocks?: ToolResultBlock[]): ToolCompleted {
  return {
    callId,
    name: "mcp__s__shot",
    content: "Here:\n[image image/png 1 KB]",
    ...(blocks ? { blocks } : {}),
    isError: false,
    durationMs: 1,
  };
}

Deno.test("a result with blocks is a tool_result of those blocks, keys in order; a text result stays a string", () => {
  const conversation = emptyConversation([{
    role: "assistant",
    content: [
      { type: "tool_use", id: "a", name: "mcp__s__shot", input: {} },
      { type: "tool_use", id: "b", name: "mcp__s__shot", input: {} },
    ],
  }]);
  // Written as a log line may hold them, keys in any order.
  appendToolResult(
    conversation,
    completed("a", [{ type: "text", text: "Here:" }, imageBlock("AAAA")]),
  );
  appendToolResult(conversation, completed("b"));
  const [first, second] = conversation.messages.at(-1)?.content ?? [];
  assert.equal(
    JSON.stringify(first),
    '{"content":[{"text":"Here:","type":"text"},{"source":{"data":"AAAA","media_type":' +
      '"image/png","type":"base64"},"type":"image"}],"tool_use_id":"a","type":"tool_result"}',
  );
  assert.equal(second?.content, "Here:\n[image image/png 1 KB]");
});

Deno.test("an image counts as width × height / 750 tokens in the context estimate, not as its base64", () => {
  // 200 × 200 pixels: 54 tokens, whatever the size of its data.
  const small = [imageBlock(png(200))];
  const heavy = [imageBlock(png(200, 30_000))];
  const text = (blocks: ToolResultBlock[]) =>
    conversationMessage("user", [{
      content: blocks,
      tool_use_id: "a",
      type: "tool_result",
    }]);
  assert.equal(messagesTokens([text(small)]), messagesTokens([text(heavy)]));
  assert.equal(estimateTokens(heavy), estimateTokens(small));
  const withoutImage = estimateTokens([{ ...heavy[0], source: "" }]);
  assert.ok(estimateTokens(heavy) - withoutImage < 70, String(estimateTokens(heavy)));
  // Text-only values are estimated as before: JSON's length over four.
  assert.equal(
    estimateTokens({ a: "x".repeat(40) }),
    Math.ceil(JSON.stringify({ a: "x".repeat(40) }).length / 4),
  );
});

Deno.test("micro-compaction clears an old image result as it clears old text", () => {
  const messages = [
    conversationMessage("user", [{ text: "go", type: "text" }]),
    conversationMessage("assistant", [{
      id: "a",
      input: {},
      name: "mcp__s__shot",
      type: "tool_use",
    }]),
    conversationMessage("user", [{
      content: [{ text: "Here:", type: "text" }, imageBlock(png(1000))],
      tool_use_id: "a",
      type: "tool_result",
    }]),
    conversationMessage("assistant", [{ id: "b", input: {}, name: "bash", type: "tool_use" }]),
    conversationMessage("user", [{ content: "ok", tool_use_id: "b", type: "tool_result" }]),
  ];
  const plan = planClear(messages, { keepRecentResults: 1, clearStep: 1 });
  assert.deepEqual(plan?.results.map((r) => r.callId), ["a"]);
  assert.ok(plan?.results[0]?.text.startsWith(CLEARED_PREFIX));
  // 1,000 × 1,000 pixels are 1,334 tokens, most of them freed.
  assert.ok((plan?.tokensFreed ?? 0) > 1_250, String(plan?.tokensFreed));
});

Deno.test("the tool-result budget spills the text of a result of content blocks and keeps its images", () => {
  const long = "line\n".repeat(8_000);
  const conversation = emptyConversation([
    { role: "user", content: [{ text: "go", type: "text" }] },
    {
      role: "assistant",
      content: [{ id: "a", input: {}, name: "mcp__s__shot", type: "tool_use" }],
    },
  ]);
  const image = imageBlock(png(100));
  appendToolResult(conversation, {
    ...completed("a", [{ type: "text", text: long }, image, { type: "text", text: "end" }]),
  });
  const { spilled, texts } = planSpill(conversation.messages, {
    resultChars: 30_000,
    roundChars: 100_000,
  });
  assert.deepEqual(spilled.map((s) => s.callId), ["a"]);
  assert.equal(texts.get("a"), `${long}\nend`);
  const envelope = {
    v: 2,
    seq: 9,
    ts: "2026-11-29T12:00:00.000Z",
    session: "s1",
    agent: "main",
    type: "context.spilled",
    data: { results: spilled },
  } as KernelEnvelope;
  foldConversation(conversation, envelope);
  const result = conversation.messages.at(-1)?.content[0];
  assert.deepEqual(result?.content, [
    { text: spilled[0]?.preview, type: "text" },
    { source: { data: png(100), media_type: "image/png", type: "base64" }, type: "image" },
  ]);
  // Spilled once: its preview is short, and it is not chosen again.
  assert.deepEqual(planSpill(conversation.messages, { resultChars: 30_000, roundChars: 100_000 }), {
    spilled: [],
    texts: new Map(),
  });
});
