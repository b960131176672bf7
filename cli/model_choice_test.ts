import assert from "node:assert/strict";
import { chooseModel } from "./model_choice.ts";

Deno.test("--model beats ANTHROPIC_MODEL, which beats the setting, which beats the default", () => {
  const all = { flag: "opus", env: "haiku", setting: "fable" };
  assert.equal(chooseModel(all).model, "claude-opus-4-8");
  assert.equal(chooseModel({ ...all, flag: undefined }).model, "claude-haiku-4-5");
  assert.equal(chooseModel({ setting: "fable" }).model, "claude-fable-5");
  assert.equal(chooseModel({}).model, "claude-sonnet-5");
  assert.equal(chooseModel({ env: "", setting: "fable" }).model, "claude-fable-5");
});

Deno.test("requests ask for 32k output tokens, or fewer where the model allows fewer", () => {
  assert.deepEqual(chooseModel({}), { model: "claude-sonnet-5", maxTokens: 32_000 });
  assert.deepEqual(chooseModel({ flag: "my-proxy" }), { model: "my-proxy", maxTokens: 32_000 });
});

Deno.test("a bad model names where it came from", () => {
  assert.throws(
    () => chooseModel({ setting: "haiku[1m]" }),
    /^Error: Invalid model from the "model" setting: Model "claude-haiku-4-5" has no 1M/,
  );
  assert.throws(() => chooseModel({ flag: " " }), /Invalid model from --model: Empty model name/);
});
