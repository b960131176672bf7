import assert from "node:assert/strict";
import { foldAs, protocolState, teammateSpawned } from "./_protocol_fixture.ts";
import { endShutdowns, SESSION_END_REASON } from "./end_shutdowns.ts";

Deno.test("the lead's session ending asks each live teammate not yet asked to shut down, with ids the replay decides again", () => {
  // alice (from the fixture), bob and carol; carol stopped, bob already asked.
  const state = protocolState(undefined, [
    ["bob", { type: "agent.spawned", data: teammateSpawned() }],
    ["carol", { type: "agent.spawned", data: teammateSpawned() }],
    ["carol", { type: "agent.stopped", data: { reason: "crashed" } }],
    ["lead", {
      type: "protocol.requested",
      data: { id: "toolu_stop_bob", kind: "shutdown", from: "lead", to: "bob" },
    }],
    // A teammate's request does not count toward the lead's ids.
    ["alice", {
      type: "protocol.requested",
      data: { id: "toolu_plan", kind: "plan_approval", from: "alice", to: "lead", plan: "x" },
    }],
  ]);
  const events = endShutdowns(state, "s1", "lead");
  assert.deepEqual(events.map((event) => event.type), ["protocol.requested", "mail.sent"]);
  assert.deepEqual(events[0]?.data, {
    id: "end-1-alice",
    kind: "shutdown",
    from: "lead",
    to: "alice",
    reason: SESSION_END_REASON,
  });
  // Once alice's request is in the log, a second end asks nobody.
  foldAs(state, "lead", events);
  assert.deepEqual(endShutdowns(state, "s1", "lead"), []);
  // A teammate's own end asks nobody.
  assert.deepEqual(endShutdowns(protocolState(undefined), "s1", "alice"), []);
});
