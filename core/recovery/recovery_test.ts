import assert from "node:assert/strict";
import { foldEvents } from "../state/state.ts";
import { eventFactory, startedData } from "../../testing/event_factory.ts";
import { fallBack, restore } from "./fallback.ts";

function overloadedThrice(maxTokens: number) {
  const e = eventFactory();
  const failed = (attempt: number) =>
    e("model.failed", {
      attempt,
      kind: "overloaded",
      status: 529,
      message: "Overloaded",
      retryInMs: 1,
    });
  return foldEvents([
    e(
      "session.started",
      startedData({ model: "claude-sonnet-5", fallbackModel: "claude-haiku-4-5" }),
    ),
    e("model.switched", {
      model: "claude-sonnet-5",
      maxTokens,
      from: "claude-sonnet-5",
      reason: "escalate",
    }),
    failed(1),
    failed(2),
    failed(3),
  ]);
}

Deno.test("the fallback model gets an output limit it can take", () => {
  const [switched] = fallBack(overloadedThrice(64_000), "s1", "lead");
  assert.deepEqual(switched?.data, {
    model: "claude-haiku-4-5",
    maxTokens: 32_000,
    from: "claude-sonnet-5",
    reason: "fallback",
  });
});

Deno.test("two overloaded answers are not yet a reason to fall back", () => {
  const e = eventFactory();
  const state = foldEvents([
    e(
      "session.started",
      startedData({ model: "claude-sonnet-5", fallbackModel: "claude-haiku-4-5" }),
    ),
    e("model.failed", { attempt: 1, kind: "overloaded", status: 529, message: "x", retryInMs: 1 }),
    e("model.failed", { attempt: 2, kind: "overloaded", status: 529, message: "x", retryInMs: 1 }),
  ]);
  assert.deepEqual(fallBack(state, "s1", "lead"), []);
  assert.deepEqual(restore(state, "s1", "lead"), []);
});
