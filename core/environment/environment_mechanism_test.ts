import assert from "node:assert/strict";
import type { Envelope, ReinEvent } from "../../events/event_types.ts";
import type { StageContext } from "../loop/stages.ts";
import { testStageContext } from "../../testing/stage_context.ts";
import { evolve, initialState, type State } from "../state/state.ts";
import { datesProjection } from "./date_projection.ts";
import { createEnvironmentMechanism } from "./environment_mechanism.ts";

function envelope(seq: number, event: ReinEvent): Envelope {
  return { v: 2, seq, ts: "", session: "s1", agent: "lead", ...event } as Envelope;
}

function started(startedAt: string): State {
  const state = initialState([datesProjection]);
  evolve(
    state,
    envelope(1, {
      type: "session.started",
      data: {
        model: "m",
        workspace: "/w",
        startedAt,
        maxTokens: 1,
        platform: "linux",
        settings: { sources: [], flags: {}, home: "/h", interactive: false },
      },
    }),
    [datesProjection],
  );
  return state;
}

function live(state: State): StageContext {
  return testStageContext(state, { observeMaybe: (_type, _matches, read) => read() });
}

Deno.test("past midnight the model hears the new date once, as a reminder", async () => {
  let now = new Date("2026-11-22T23:59:00.000Z");
  const mechanism = createEnvironmentMechanism(() => now);
  const state = started("2026-11-22T10:00:00.000Z");
  const beforeModel = mechanism.stages?.beforeModel;
  assert.ok(beforeModel);
  assert.deepEqual(await beforeModel(live(state)), []);
  now = new Date("2026-11-23T00:01:00.000Z");
  const events = await beforeModel(live(state));
  assert.deepEqual(events, [{
    type: "reminder.added",
    data: { source: "date", text: "The date is now 2026-11-23." },
  }]);
  evolve(state, envelope(2, events[0] as ReinEvent), [datesProjection]);
  assert.deepEqual(await beforeModel(live(state)), [], "once, not every round");
});

Deno.test("replay serves the recorded date change and reads no clock", async () => {
  const mechanism = createEnvironmentMechanism(() => {
    throw new Error("replay reads no clock");
  });
  const state = started("2026-11-22T10:00:00.000Z");
  const recorded = { source: "date", text: "The date is now 2026-11-23." };
  const served = (found: typeof recorded | undefined): StageContext => ({
    ...live(state),
    observeMaybe: () => Promise.resolve(found as never),
  });
  const beforeModel = mechanism.stages?.beforeModel;
  assert.ok(beforeModel);
  assert.deepEqual(await beforeModel(served(recorded)), [{
    type: "reminder.added",
    data: recorded,
  }]);
  assert.deepEqual(await beforeModel(served(undefined)), []);
});
