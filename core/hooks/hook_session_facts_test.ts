import assert from "node:assert/strict";
import type { Envelope } from "../../events/event_types.ts";
import { effortOf } from "./hook_session_facts.ts";
import { hooksProjection } from "./hooks_projection.ts";

Deno.test("effortOf: the level of each budget cli/model_choice.ts gives, none without thinking", () => {
  assert.equal(effortOf(null, 32_000), undefined);
  assert.equal(effortOf(2_048, 32_000), "low");
  assert.equal(effortOf(8_192, 32_000), "medium");
  assert.equal(effortOf(16_384, 32_000), "high");
  assert.equal(effortOf(31_999, 32_000), "max");
});

Deno.test("hooksProjection counts each agent's prompts, refused ones too (prompt_id)", () => {
  const prompted = (seq: number, agent: string, refused?: string): Envelope => ({
    v: 1,
    seq,
    ts: "2026-11-29T00:00:00.000Z",
    session: "s1",
    agent,
    type: "user.prompted",
    data: { text: "hi", ...(refused === undefined ? {} : { refused }) },
  });
  let slice = hooksProjection.initial();
  for (const event of [prompted(1, "main"), prompted(2, "main", "no"), prompted(3, "helper")]) {
    slice = hooksProjection.evolve(slice, event);
  }
  assert.deepEqual(slice.s1?.prompts, { main: 2, helper: 1 });
});
