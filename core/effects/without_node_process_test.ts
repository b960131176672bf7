import assert from "node:assert/strict";
import { createAnthropicModel, withoutNodeProcess } from "./anthropic_model.ts";
import { message, startFakeAnthropic } from "../../testing/fake_anthropic.ts";

Deno.test("withoutNodeProcess hides globalThis.process while make runs and puts the same global back", () => {
  const before = Object.getOwnPropertyDescriptor(globalThis, "process");
  const seen = withoutNodeProcess(() => typeof (globalThis as { process?: unknown }).process);
  assert.equal(seen, "undefined");
  assert.deepEqual(Object.getOwnPropertyDescriptor(globalThis, "process"), before);
});

Deno.test("withoutNodeProcess puts the global back when make throws", () => {
  const before = Object.getOwnPropertyDescriptor(globalThis, "process");
  assert.throws(() =>
    withoutNodeProcess(() => {
      throw new Error("boom");
    }), /boom/);
  assert.deepEqual(Object.getOwnPropertyDescriptor(globalThis, "process"), before);
});

Deno.test("the model client still honours the SDK's environment variables (ANTHROPIC_CUSTOM_HEADERS)", async () => {
  await using fake = await startFakeAnthropic({ script: [message("hi")] });
  Deno.env.set("ANTHROPIC_CUSTOM_HEADERS", "x-rein-probe: yes");
  try {
    const model = createAnthropicModel({ apiKey: "sk-test-key-123", baseURL: fake.url });
    await model.send(
      {
        model: "claude-sonnet-4-5",
        max_tokens: 64,
        system: [],
        tools: [],
        stream: true,
        messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
      },
      { origin: { session: "s", agent: "lead" }, signal: new AbortController().signal },
    );
    assert.equal(fake.requests[0]?.headers["x-rein-probe"], "yes");
  } finally {
    Deno.env.delete("ANTHROPIC_CUSTOM_HEADERS");
  }
});
