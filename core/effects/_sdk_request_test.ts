import assert from "node:assert/strict";
import type { MessagesRequest } from "./model_client.ts";
import { sdkRequest } from "./_sdk_request.ts";

const body: MessagesRequest = {
  model: "claude-opus-4-8[1m]",
  max_tokens: 1000,
  system: [{ type: "text", text: "You are rein." }, {
    type: "text",
    text: "Environment",
    cache_control: { type: "ephemeral" },
  }],
  tools: [{
    name: "bash",
    description: "Runs a command",
    input_schema: { type: "object", properties: { command: { type: "string" } } },
    cache_control: { type: "ephemeral" },
  }],
  messages: [
    { role: "user", content: [{ type: "text", text: "go" }] },
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Plan.", signature: "sig" },
        { type: "redacted_thinking", data: "xyz" },
        { type: "text", text: "Running." },
        { type: "tool_use", id: "t1", name: "bash", input: { command: "ls" } },
      ],
    },
    {
      role: "user",
      content: [{
        type: "tool_result",
        tool_use_id: "t1",
        content: "a.txt",
        is_error: true,
        cache_control: { type: "ephemeral" },
      }],
    },
  ],
  thinking: { type: "enabled", budget_tokens: 500 },
  stream: true,
};

Deno.test("the SDK's request carries exactly what rein recorded a digest of", () => {
  const { stream: _stream, model: _model, ...rest } = body;
  const sent = JSON.parse(JSON.stringify(sdkRequest(body, "claude-opus-4-8")));
  assert.deepEqual(sent, { ...JSON.parse(JSON.stringify(rest)), model: "claude-opus-4-8" });
});

Deno.test("a block of a type rein never records is refused, naming it", () => {
  const odd: MessagesRequest = {
    ...body,
    messages: [{ role: "user", content: [{ type: "image", source: {} }] }],
  };
  assert.throws(() => sdkRequest(odd, "m"), /Cannot send a "image" block to the model/);
});
