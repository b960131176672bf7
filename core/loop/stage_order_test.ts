import assert from "node:assert/strict";
import type { ReinEvent } from "../../events/event_types.ts";
import { initialState } from "../state/state.ts";
import { testStageContext } from "../../testing/stage_context.ts";
import { composeStages, type StageHandlers } from "./stages.ts";
import { type OrderedStages, orderStages } from "./stage_order.ts";

const context = testStageContext(initialState());
const note = (text: string): ReinEvent => ({ type: "user.prompted", data: { text } });

/** A mechanism whose prompt stage notes its name, and refuses the prompt when `refuses`. */
function noting(name: string, order: Partial<OrderedStages> = {}, refuses = false): OrderedStages {
  const stages: StageHandlers = {
    beforePrompt: () =>
      Promise.resolve({ events: [note(name)], ...(refuses ? { refuse: `${name} refused` } : {}) }),
  };
  return { name, stages, ...order };
}

async function promptNotes(entries: readonly OrderedStages[]): Promise<string[]> {
  const { events } = await composeStages(orderStages(entries)).beforePrompt(context, "hi");
  return events.map((event) => (event.data as { text: string }).text);
}

Deno.test("stages keep the order of registration when no mechanism declares one", async () => {
  assert.deepEqual(await promptNotes([noting("a"), noting("b"), noting("c")]), ["a", "b", "c"]);
});

Deno.test("a mechanism registered too early runs after the mechanisms it declares it runs after", async () => {
  const entries = [noting("rules", { after: ["hooks"] }), noting("clock"), noting("hooks")];
  assert.deepEqual(await promptNotes(entries), ["clock", "hooks", "rules"]);
});

Deno.test("a mechanism registered too late runs before those it declares it runs before, so a refusal cannot skip it", async () => {
  const entries = [noting("hooks", {}, true), noting("cron", { before: ["hooks"] })];
  assert.deepEqual(await promptNotes(entries), ["cron", "hooks"]);
});

Deno.test("an order that names a mechanism not wired is kept without it", async () => {
  const entries = [noting("b", { after: ["absent"], before: ["gone"] }), noting("a")];
  assert.deepEqual(await promptNotes(entries), ["b", "a"]);
});

Deno.test("an order that cannot be kept is refused, naming the mechanisms in the cycle", () => {
  assert.throws(
    () => orderStages([noting("a", { after: ["b"] }), noting("b", { after: ["a"] }), noting("c")]),
    { message: 'Stage order cannot be kept: "a", "b" must each run after another of them' },
  );
  assert.throws(() => orderStages([noting("self", { after: ["self"] })]), /"self"/);
});

Deno.test("an order that names a mechanism two mechanisms are named is refused", () => {
  assert.throws(
    () => orderStages([noting("x"), noting("x"), noting("y", { after: ["x"] })]),
    { message: 'Stage order names "x", which two mechanisms are named' },
  );
  assert.equal(orderStages([noting("x"), noting("x")]).length, 2);
});
