import assert from "node:assert/strict";
import type { Envelope } from "../events/event_types.ts";
import { foldEvents, initialState } from "../core/state/state.ts";
import { eventFactory, startedData } from "../testing/event_factory.ts";
import { findSession, latestSession, sessionOptionsOf } from "./session_choice.ts";

const FIRST = "4f1c2a90-0000-4000-8000-000000000001";
const SECOND = "4f1d7b33-0000-4000-8000-000000000002";

/** Events of several sessions, numbered in the order given as one log would number them. */
function log(...events: Envelope[]): Envelope[] {
  return events.map((event, index) => ({ ...event, seq: index + 1 }));
}

function twoSessions() {
  const first = eventFactory(FIRST);
  const second = eventFactory(SECOND);
  return foldEvents(log(
    first("session.started", startedData()),
    second("session.started", startedData()),
  ));
}

Deno.test("findSession takes an exact id even when it also starts another id", () => {
  const state = foldEvents(log(
    eventFactory("s1")("session.started", startedData()),
    eventFactory("s10")("session.started", startedData()),
  ));
  assert.equal(findSession(state, "s1"), "s1");
  assert.equal(findSession(twoSessions(), SECOND), SECOND);
});

Deno.test("findSession completes a prefix that only one session id starts with", () => {
  const state = twoSessions();
  assert.equal(findSession(state, "4f1c"), FIRST);
  assert.equal(findSession(state, "4f1d7"), SECOND);
});

Deno.test("findSession with a prefix no session has says which prefix was not found", () => {
  const state = twoSessions();
  assert.throws(() => findSession(state, "beef"), {
    message: 'No session "beef" in the log',
  });
});

Deno.test("findSession with a prefix several sessions share lists every match", () => {
  const state = twoSessions();
  assert.throws(() => findSession(state, "4f1"), {
    message: `Session prefix "4f1" is ambiguous: ${FIRST}, ${SECOND}`,
  });
});

Deno.test("latestSession is the session with the most recent event, not the last started", () => {
  const first = eventFactory(FIRST);
  const second = eventFactory(SECOND);
  const state = foldEvents(log(
    first("session.started", startedData()),
    second("session.started", startedData()),
    first("user.prompted", { text: "carry on" }),
  ));
  assert.equal(latestSession(state), FIRST);
});

Deno.test("latestSession is the last started when nothing happened after it", () => {
  const state = twoSessions();
  assert.equal(latestSession(state), SECOND);
});

Deno.test("latestSession of an empty log is undefined", () => {
  assert.equal(latestSession(initialState()), undefined);
});

Deno.test("a new session started from another one takes its fallback, thinking and prompt options", () => {
  const e = eventFactory();
  const state = foldEvents([
    e(
      "session.started",
      startedData({ fallbackModel: "claude-haiku-4-5", systemPrompt: "Terse." }),
    ),
  ]);
  assert.deepEqual(sessionOptionsOf(state.sessions.byId["s1"]!), {
    fallbackModel: "claude-haiku-4-5",
    systemPrompt: "Terse.",
  });
});
