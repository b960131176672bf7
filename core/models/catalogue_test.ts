import assert from "node:assert/strict";
import {
  contextWindowOf,
  DEFAULT_MODEL,
  describeModels,
  maxOutputOf,
  MODELS,
  resolveModel,
} from "./catalogue.ts";

function idOf(name: string): string {
  const resolved = resolveModel(name);
  return resolved.known ? resolved.info.id : resolved.id;
}

Deno.test("each alias names the newest model of its family", () => {
  assert.equal(idOf("opus"), "claude-opus-4-8");
  assert.equal(idOf("sonnet"), "claude-sonnet-5");
  assert.equal(idOf("Haiku"), "claude-haiku-4-5");
  assert.equal(idOf("fable"), "claude-fable-5");
  assert.equal(DEFAULT_MODEL, "claude-sonnet-5");
  assert.ok(MODELS.some((m) => m.id === DEFAULT_MODEL));
});

Deno.test("a known id is itself, with its window, output limit and prices", () => {
  const resolved = resolveModel("claude-sonnet-4-6");
  assert.ok(resolved.known);
  assert.deepEqual(resolved.info, {
    id: "claude-sonnet-4-6",
    family: "sonnet",
    contextWindow: 200_000,
    maxOutputTokens: 32_000,
    inputPrice: 3,
    outputPrice: 15,
  });
});

Deno.test("[1m] selects the 1M window where the model has one, and is refused elsewhere", () => {
  const resolved = resolveModel("opus[1m]");
  assert.ok(resolved.known);
  assert.equal(resolved.info.id, "claude-opus-4-8[1m]");
  assert.equal(contextWindowOf("claude-opus-4-8[1m]"), 1_000_000);
  assert.equal(contextWindowOf("claude-opus-4-8"), 200_000);
  assert.throws(() => resolveModel("haiku[1m]"), /"claude-haiku-4-5" has no 1M-token window/);
});

Deno.test("an id rein does not know passes through with the assumed window", () => {
  assert.deepEqual(resolveModel("my-proxy-model"), { known: false, id: "my-proxy-model" });
  assert.equal(contextWindowOf("my-proxy-model"), 200_000);
  assert.equal(maxOutputOf("my-proxy-model"), 32_000);
  assert.throws(() => resolveModel("  "), /Empty model name/);
});

Deno.test("the model list names every known model once", () => {
  const lines = describeModels();
  assert.equal(lines.length, MODELS.length);
  assert.match(lines[1] ?? "", /^claude-sonnet-5 +sonnet +200k window, 64k output, \$3\/\$15/);
});
