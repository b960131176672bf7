import assert from "node:assert/strict";
import type { ReinEvent } from "../../events/event_types.ts";
import { initialState } from "../state/state.ts";
import { composeStages } from "./stages.ts";
import { testStageContext } from "../../testing/stage_context.ts";

const context = testStageContext(initialState(), {
  observe: (_type, _matches, read) => read(),
  observeMaybe: (_type, _matches, read) => read(),
});
const call = { id: "toolu_1", name: "bash", input: { command: "rm -rf build" } };
const note = (text: string): ReinEvent => ({ type: "user.prompted", data: { text } });

Deno.test("composed stages concatenate their handlers' events in registration order", async () => {
  const stages = composeStages([
    { beforeModel: () => Promise.resolve([note("a")]) },
    {},
    { beforeModel: () => Promise.resolve([note("b"), note("c")]) },
  ]);
  assert.deepEqual(await stages.beforeModel(context), [note("a"), note("b"), note("c")]);
  assert.deepEqual(await stages.beforePrompt(context, "hi"), { events: [] });
});

Deno.test("the first gate that refuses a call decides, and the events of earlier gates are kept", async () => {
  let askedThird = false;
  const stages = composeStages([
    { gateCall: () => Promise.resolve({ run: true, events: [note("checked")] }) },
    {
      gateCall: () =>
        Promise.resolve({ run: false, outcome: "denied", reason: "no", events: [note("denied")] }),
    },
    {
      gateCall: () => {
        askedThird = true;
        return Promise.resolve({ run: true });
      },
    },
  ]);
  assert.deepEqual(await stages.gateCall(context, call), {
    run: false,
    outcome: "denied",
    reason: "no",
    events: [note("checked"), note("denied")],
  });
  assert.equal(askedThird, false);
  assert.deepEqual(await composeStages([]).gateCall(context, call), { run: true, events: [] });
});

Deno.test("the turn continues after an answer when any handler says so", async () => {
  const reply = {
    messageId: "m",
    model: "x",
    content: [],
    stopReason: "end_turn",
    usage: { input_tokens: 1, output_tokens: 1 },
    requestId: null,
  };
  const stages = composeStages([
    { afterModel: () => Promise.resolve({ events: [], continueTurn: false }) },
    { afterModel: () => Promise.resolve({ events: [note("not done")], continueTurn: true }) },
  ]);
  assert.deepEqual(await stages.afterModel(context, reply, 0), {
    events: [note("not done")],
    continueTurn: true,
  });
});
