import assert from "node:assert/strict";
import type { Envelope } from "../../events/event_types.ts";
import { MemoryEventStore } from "../../events/memory_store.ts";
import { testStageContext } from "../../testing/stage_context.ts";
import { evolve, initialState } from "../state/state.ts";
import type { ToolRun } from "../tools/executor.ts";
import { foldAs, PROJECTIONS, protocolState, teammateSpawned } from "./_protocol_fixture.ts";
import { requestShutdown } from "./protocol_deciders.ts";
import { protocolsMechanism, reinjectPending } from "./protocols_mechanism.ts";

const names = (state: ReturnType<typeof protocolState>, agent: string) =>
  (protocolsMechanism().tools?.({ state, session: "s1", agent }) ?? []).map((tool) => tool.name);

Deno.test("the protocols' tools: the lead's, a teammate's, submit_plan for one spawned in plan mode, none with teams off", () => {
  assert.deepEqual(names(protocolState(undefined, [], true), "lead"), [
    "request_shutdown",
    "review_plan",
  ]);
  assert.deepEqual(names(protocolState(undefined, [], true), "alice"), ["respond_shutdown"]);
  assert.deepEqual(names(protocolState("plan", [], true), "alice"), [
    "respond_shutdown",
    "submit_plan",
  ]);
  assert.deepEqual(names(protocolState(undefined, [], true), "general-purpose@toolu_1"), []);
  assert.deepEqual(names(protocolState("plan", [], false), "lead"), []);
  assert.deepEqual(names(protocolState("plan", [], false), "alice"), []);
});

Deno.test("a teammate that approved its shutdown ends its turn after that call", async () => {
  const stop = protocolsMechanism().stages?.stopAfterCalls;
  const state = protocolState(undefined);
  const context = testStageContext(state, { agent: "alice" });
  assert.equal(await stop?.(context, []), undefined);
  foldAs(
    state,
    "lead",
    requestShutdown(state, { session: "s1", agent: "lead", callId: "r1" }, {
      to: "alice",
    }).events,
  );
  foldAs(state, "alice", [{
    type: "protocol.answered",
    data: { id: "r1", approve: true, by: "alice" },
  }]);
  assert.equal(await stop?.(context, []), "The lead's shutdown request was approved");
});

Deno.test("live, the lead's pending shutdown request is watched after its call and expired past the timeout, which rein -p waits for", async () => {
  const state = initialState(PROJECTIONS);
  const store = new MemoryEventStore({
    clock: () => new Date("2026-11-29T06:00:00.000Z"),
    onEvent: (event: Envelope) => void evolve(state, event, PROJECTIONS),
  });
  await store.append([
    {
      type: "session.started",
      session: "s1",
      agent: "lead",
      data: {
        model: "claude-test",
        workspace: "/w",
        startedAt: "2026-11-29T06:00:00.000Z",
        maxTokens: 1000,
        platform: "linux x86_64",
      },
    },
    { type: "agent.spawned", session: "s1", agent: "alice", data: teammateSpawned() },
  ]);
  const events = requestShutdown(state, { session: "s1", agent: "lead", callId: "r1" }, {
    to: "alice",
  }).events ?? [];
  await store.append(events.map((event) => ({ ...event, session: "s1", agent: "lead" })));
  const mechanism = protocolsMechanism({
    watch: { log: () => store, clock: () => new Date("2026-11-29T06:00:30.000Z"), timeoutMs: 20 },
  });
  const scope = { state, session: "s1", agent: "lead" };
  assert.deepEqual(mechanism.wake?.awaited?.(scope, 0), [{
    kind: "teammate shutdown",
    label: "alice (r1)",
  }]);
  const call = { id: "r1", name: "request_shutdown", input: { to: "alice" } };
  await mechanism.stages?.afterCall?.(testStageContext(state), call, {} as ToolRun);
  for (
    let tries = 0;
    tries < 500 && !store.events.some((e) => e.type === "protocol.expired");
    tries++
  ) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.deepEqual(store.events.slice(-2).map((e) => [e.type, e.agent]), [
    ["protocol.expired", "lead"],
    ["agent.stopped", "alice"],
  ]);
  assert.deepEqual(mechanism.wake?.awaited?.(scope, 0), []);
  await mechanism.close?.();
});

Deno.test("without the live side (replay, no teammates) nothing is watched and -p waits for nothing", async () => {
  const state = protocolState(undefined, [
    ["lead", {
      type: "protocol.requested",
      data: { id: "r1", kind: "shutdown", from: "lead", to: "alice" },
    }],
  ]);
  const mechanism = protocolsMechanism();
  assert.deepEqual(mechanism.wake?.awaited?.({ state, session: "s1", agent: "lead" }, 0), []);
  const call = { id: "r1", name: "request_shutdown", input: { to: "alice" } };
  assert.deepEqual(
    await mechanism.stages?.afterCall?.(testStageContext(state), call, {} as ToolRun),
    [],
  );
});

Deno.test("after a compaction, the requests an agent asked or must answer and that are still pending are put back as a reminder", () => {
  const state = protocolState("plan", [
    ["lead", {
      type: "protocol.requested",
      data: { id: "r1", kind: "shutdown", from: "lead", to: "alice" },
    }],
    ["alice", {
      type: "protocol.requested",
      data: { id: "p1", kind: "plan_approval", from: "alice", to: "lead", plan: "x" },
    }],
  ]);
  assert.deepEqual(reinjectPending(testStageContext(state, { agent: "alice" })), [{
    type: "reminder.added",
    data: {
      source: "protocols",
      text: "Protocol requests still pending after the compaction:\n" +
        "- lead asks you to shut down (request r1): answer with respond_shutdown\n" +
        "- you asked lead to approve a plan (request p1): no answer yet",
    },
  }]);
  foldAs(state, "alice", [{
    type: "protocol.answered",
    data: { id: "r1", approve: false, by: "alice", reason: "no" },
  }]);
  foldAs(state, "lead", [{
    type: "protocol.answered",
    data: { id: "p1", approve: true, by: "lead" },
  }]);
  assert.deepEqual(reinjectPending(testStageContext(state, { agent: "alice" })), []);
});
