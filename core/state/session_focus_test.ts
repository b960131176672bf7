import assert from "node:assert/strict";
import type { Envelope, NewEvent } from "../../events/event_types.ts";
import { startedData } from "../../testing/event_factory.ts";
import { SessionFocus, type SessionsRequest } from "./session_focus.ts";
import { evolve, foldEvents, initialState, type State } from "./state.ts";

function envelopes(events: NewEvent[]): Envelope[] {
  return events.map((event, i) =>
    ({ v: 2, seq: i + 1, ts: "2026-11-22T10:00:00.000Z", ...event }) as Envelope
  );
}

const log = envelopes([
  { type: "session.started", session: "s1", agent: "lead", data: startedData() },
  { type: "session.started", session: "s2", agent: "lead", data: startedData() },
  { type: "user.prompted", session: "s2", agent: "lead", data: { text: "one" } },
  { type: "user.prompted", session: "s1", agent: "lead", data: { text: "two" } },
  { type: "user.prompted", session: "s2", agent: "lead", data: { text: "three" } },
]);

Deno.test("a session focused while events arrive holds them once loaded, and each change is told", async () => {
  const state = initialState();
  let changes = 0;
  const asked: SessionsRequest[] = [];
  let loaded: (state: State) => void = () => {};
  const focus = new SessionFocus(state, [], [], (request) => {
    asked.push(request);
    return new Promise((resolve) => loaded = resolve);
  }, () => changes += 1);
  const fold = (event: Envelope) => {
    evolve(state, event, [], focus.focused);
    focus.folded(event);
  };
  log.slice(0, 3).forEach(fold);
  assert.deepEqual(state.sessions.order, []);
  const focusing = focus.focus(["s2"]);
  assert.deepEqual(asked.map(({ ids, upTo }) => ({ ids, upTo })), [{ ids: ["s2"], upTo: 3 }]);
  log.slice(3).forEach(fold);
  loaded(foldEvents(log.slice(0, 3), [], new Set(["s2"])));
  await focusing;
  assert.deepEqual(state.sessions.byId["s2"], foldEvents(log).sessions.byId["s2"]);
  assert.deepEqual(state.sessions.order, ["s2"]);
  assert.equal(changes, 2);
  focus.starting("s3");
  assert.ok(focus.focused !== "all" && focus.focused.has("s3"));
  await assert.rejects(focus.focus(["nope"]), { message: 'No session "nope" in the log' });
});

Deno.test("focusing more without a loader is refused, unless every session is followed", async () => {
  const state = foldEvents(log.slice(0, 2), [], new Set());
  await assert.rejects(
    new SessionFocus(state, [], [], undefined, () => {}).focus(["s1"]),
    { message: "This harness cannot load sessions into focus" },
  );
  await new SessionFocus(state, [], "all", undefined, () => {}).focus(["s1"]);
});
