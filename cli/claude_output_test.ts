import assert from "node:assert/strict";
import type { EnvelopeOf, TurnEndReason } from "../events/event_types.ts";
import {
  assistantLine,
  exitCode,
  type HeadlessOutcome,
  headlessResult,
  toolResultLine,
} from "./claude_output.ts";

function outcome(overrides: Partial<HeadlessOutcome> = {}): HeadlessOutcome {
  return {
    reason: "completed",
    rounds: 2,
    lastText: "The answer is 4.",
    stopReason: "end_turn",
    sessionId: "s1",
    usageByModel: { "claude-sonnet-5": { input_tokens: 30, output_tokens: 12 } },
    durationMs: 1500,
    durationApiMs: 900,
    ...overrides,
  };
}

Deno.test("a completed run is a success in Claude Code's result shape", () => {
  const result = headlessResult(outcome());
  assert.deepEqual(result, {
    type: "result",
    subtype: "success",
    is_error: false,
    duration_ms: 1500,
    duration_api_ms: 900,
    num_turns: 2,
    result: "The answer is 4.",
    stop_reason: "end_turn",
    session_id: "s1",
    total_cost_usd: result.total_cost_usd,
    usage: {
      input_tokens: 30,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: 12,
    },
    modelUsage: {
      "claude-sonnet-5": {
        inputTokens: 30,
        outputTokens: 12,
        cacheReadInputTokens: 0,
        cacheCreationInputTokens: 0,
        costUSD: result.total_cost_usd,
        contextWindow: 200_000,
        maxOutputTokens: 64_000,
      },
    },
    permission_denials: [],
    terminal_reason: "completed",
  });
});

Deno.test("the cost is the price table's: input, output, cache reads and writes, per model", () => {
  const result = headlessResult(outcome({
    usageByModel: {
      // The Claude Code capture in compat.md's samples: 57,423 in and 58 out on Opus.
      "claude-opus-4-8[1m]": { input_tokens: 57_423, output_tokens: 58 },
      "claude-haiku-4-5": {
        input_tokens: 1_000_000,
        output_tokens: 100_000,
        cache_read_input_tokens: 2_000_000,
        cache_creation_input_tokens: 400_000,
      },
      "my-proxy-model": { input_tokens: 5, output_tokens: 5 },
    },
  }));
  const opus = result.modelUsage["claude-opus-4-8[1m]"];
  assert.ok(Math.abs((opus?.costUSD ?? 0) - 0.288565) < 1e-9);
  assert.equal(opus?.contextWindow, 1_000_000);
  // 1 + 0.5 + 2 × 0.1 + 0.4 × 1.25 = 2.2 dollars
  assert.ok(Math.abs((result.modelUsage["claude-haiku-4-5"]?.costUSD ?? 0) - 2.2) < 1e-9);
  assert.equal(result.modelUsage["my-proxy-model"]?.costUSD, 0);
  assert.ok(Math.abs(result.total_cost_usd - 2.488565) < 1e-9);
  assert.equal(result.usage.input_tokens, 1_057_428);
});

Deno.test("each way a turn can end maps to Claude Code's subtypes", () => {
  const subtypes = (["completed", "max_turns", "failed", "interrupted", "cancelled"] as const).map(
    (reason: TurnEndReason) => headlessResult(outcome({ reason, message: "why" })).subtype,
  );
  assert.deepEqual(subtypes, [
    "success",
    "error_max_turns",
    "error_during_execution",
    "error_during_execution",
    "error_during_execution",
  ]);
});

Deno.test("a run that did not complete reports the turn's message, or its reason", () => {
  const failed = headlessResult(outcome({ reason: "failed", message: "Model API error 400" }));
  assert.equal(failed.result, "Model API error 400");
  assert.equal(failed.is_error, true);
  assert.equal(failed.terminal_reason, "failed");
  assert.equal(headlessResult(outcome({ reason: "interrupted" })).result, "interrupted");
});

Deno.test("a headless run exits 0 when completed, 130 when cancelled and 1 otherwise", () => {
  assert.deepEqual(
    (["completed", "cancelled", "failed", "max_turns", "interrupted"] as const).map(exitCode),
    [0, 130, 1, 1, 1],
  );
});

Deno.test("stream-json's assistant and user lines carry the recorded message and result", () => {
  const responded = {
    v: 2,
    seq: 5,
    ts: "2026-11-23T10:00:00.000Z",
    type: "model.responded",
    session: "s1",
    agent: "lead",
    data: {
      messageId: "msg_1",
      model: "claude-sonnet-5",
      content: [{ type: "tool_use", id: "toolu_1", name: "bash", input: { command: "ls" } }],
      stopReason: "tool_use",
      usage: { input_tokens: 10, output_tokens: 2 },
      requestId: "req_1",
    },
  } as EnvelopeOf<"model.responded">;
  const line = assistantLine(responded);
  assert.equal(line.type, "assistant");
  assert.equal(line.session_id, "s1");
  assert.equal(line.parent_tool_use_id, null);
  assert.equal(line.request_id, "req_1");
  assert.deepEqual(line.message, {
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-5",
    content: responded.data.content,
    stop_reason: "tool_use",
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 2 },
  });
  const completed = {
    ...responded,
    seq: 7,
    type: "tool.completed",
    data: { callId: "toolu_1", name: "bash", content: "a.txt", isError: false, durationMs: 3 },
  } as EnvelopeOf<"tool.completed">;
  const user = toolResultLine(completed);
  assert.equal(user.type, "user");
  assert.equal(user.timestamp, "2026-11-23T10:00:00.000Z");
  assert.deepEqual(user.message, {
    role: "user",
    content: [{ tool_use_id: "toolu_1", type: "tool_result", content: "a.txt", is_error: false }],
  });
});

Deno.test("a tool result with content blocks (an MCP tool's image) is a stream-json user line with those blocks", () => {
  const blocks = [
    { text: "Here:", type: "text" as const },
    {
      source: { data: "iVBORw0KGgo=", media_type: "image/png" as const, type: "base64" as const },
      type: "image" as const,
    },
  ];
  const completed = {
    v: 2,
    seq: 7,
    ts: "2026-11-23T10:00:00.000Z",
    session: "s1",
    agent: "main",
    type: "tool.completed",
    data: {
      callId: "toolu_1",
      name: "mcp__everything__get-tiny-image",
      content: "Here:\n[image image/png 8 B]",
      blocks,
      isError: false,
      durationMs: 3,
    },
  } as unknown as EnvelopeOf<"tool.completed">;
  assert.deepEqual(toolResultLine(completed).message.content, [
    { tool_use_id: "toolu_1", type: "tool_result", content: blocks, is_error: false },
  ]);
});
