import assert from "node:assert/strict";
import { join } from "node:path";
import { createHarness } from "../core/harness.ts";
import { liveEffects } from "../core/runner/live_effects.ts";
import { loadSessions } from "../core/snapshots/mod.ts";
import { foldEvents } from "../core/state/state.ts";
import { openJsonlStore } from "../events/jsonl_store.ts";
import { readEvents } from "../events/read_log.ts";
import type { NewEvent } from "../events/event_types.ts";
import { respondedData, startedData } from "../testing/event_factory.ts";
import { fixedClock, tempDir } from "../testing/events.ts";

function exchange(session: string, text: string): NewEvent[] {
  const origin = { session, agent: "lead" };
  return [
    { ...origin, type: "user.prompted", data: { text } },
    { ...origin, type: "model.responded", data: respondedData([{ type: "text", text: "ok" }]) },
  ];
}

Deno.test("a harness that follows no session opens one only once focused, with events that came meanwhile", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  const writer = await openJsonlStore(path, { clock: fixedClock() });
  for (const id of ["s1", "s2"]) {
    await writer.append([{
      type: "session.started",
      session: id,
      agent: "lead",
      data: startedData(),
    }]);
  }
  await writer.append([...exchange("s1", "one"), ...exchange("s2", "two")]);
  await writer.close();
  const harness = await createHarness({
    openStore: (onEvent, { eventTypes }) =>
      openJsonlStore(path, { clock: fixedClock(), onEvent, eventTypes }),
    workspace: dir.path,
    effects: liveEffects({ apiKey: "sk-test" }),
    focus: [],
    loadSessions: (request) => loadSessions(path, request),
  });
  try {
    assert.deepEqual(harness.state.catalog.order, ["s1", "s2"]);
    assert.deepEqual(harness.state.sessions.order, []);
    assert.throws(() => harness.openSession("s1"), /Session "s1" is not in focus/);
    const focusing = harness.focus(["s1"]);
    const again = harness.focus(["s1"]);
    await harness.store.append(exchange("s1", "three"));
    await Promise.all([focusing, again]);
    const whole = foldEvents(await readEvents(path));
    assert.deepEqual(harness.state.sessions.byId["s1"], whole.sessions.byId["s1"]);
    assert.deepEqual(harness.state.sessions.order, ["s1"]);
    assert.equal(harness.openSession("s1").id, "s1");
    await assert.rejects(harness.focus(["nope"]), /No session "nope"/);
  } finally {
    await harness.close();
  }
});
