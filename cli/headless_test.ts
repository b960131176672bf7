import assert from "node:assert/strict";
import type { TurnEndReason } from "../events/event_types.ts";
import { emptyUsage } from "../core/state/sessions.ts";
import { exitCode, type HeadlessOutcome, headlessResult } from "./headless.ts";

function outcome(overrides: Partial<HeadlessOutcome> = {}): HeadlessOutcome {
  return {
    reason: "completed",
    rounds: 2,
    lastText: "The answer is 4.",
    sessionId: "s1",
    usage: { ...emptyUsage(), input_tokens: 30, output_tokens: 12 },
    durationMs: 1500,
    ...overrides,
  };
}

Deno.test("a completed run is a success whose result is the assistant's last text", () => {
  assert.deepEqual(headlessResult(outcome()), {
    type: "result",
    subtype: "success",
    is_error: false,
    result: "The answer is 4.",
    session_id: "s1",
    num_turns: 2,
    usage: { ...emptyUsage(), input_tokens: 30, output_tokens: 12 },
    duration_ms: 1500,
  });
});

Deno.test("each way a turn can end maps to its result subtype", () => {
  const subtypes: Record<TurnEndReason, string> = {
    completed: "success",
    max_turns: "error_max_turns",
    cancelled: "error_cancelled",
    failed: "error_during_execution",
    interrupted: "error_during_execution",
  };
  for (const [reason, subtype] of Object.entries(subtypes)) {
    const result = headlessResult(outcome({ reason: reason as TurnEndReason }));
    assert.equal(result.subtype, subtype, reason);
    assert.equal(result.is_error, reason !== "completed", reason);
  }
});

Deno.test("a run that did not complete reports the turn's message, not the last text", () => {
  const result = headlessResult(
    outcome({ reason: "failed", message: "Overloaded: gave up after 5 attempts" }),
  );
  assert.equal(result.result, "Overloaded: gave up after 5 attempts");
});

Deno.test("a run that did not complete and has no message reports its reason", () => {
  assert.equal(headlessResult(outcome({ reason: "interrupted" })).result, "interrupted");
});

Deno.test("a completed run ignores a message and reports an empty last text as it is", () => {
  const result = headlessResult(outcome({ message: "unused", lastText: "" }));
  assert.equal(result.result, "");
  assert.equal(result.is_error, false);
});

Deno.test("a headless run exits 0 when completed, 130 when cancelled and 1 otherwise", () => {
  assert.equal(exitCode("completed"), 0);
  assert.equal(exitCode("cancelled"), 130);
  assert.equal(exitCode("failed"), 1);
  assert.equal(exitCode("max_turns"), 1);
  assert.equal(exitCode("interrupted"), 1);
});
