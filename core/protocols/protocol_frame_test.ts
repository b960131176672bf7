import assert from "node:assert/strict";
import { foldAs, protocolState } from "./_protocol_fixture.ts";
import { protocolFrame } from "./protocol_frame.ts";
import { sessionProtocols } from "./protocols_of.ts";

const lead = (callId: string) => ({ session: "s1", agent: "lead", callId });
const alice = (callId: string) => ({ session: "s1", agent: "alice", callId });

Deno.test("protocolFrame: plain text and other JSON are not frames (plain mail)", () => {
  const state = protocolState(undefined);
  assert.equal(protocolFrame(state, lead("c1"), "alice", "hello"), undefined);
  assert.equal(
    protocolFrame(state, lead("c1"), "alice", '{"type":"idle_notification"}'),
    undefined,
  );
  assert.equal(protocolFrame(state, lead("c1"), "alice", "{not json"), undefined);
});

Deno.test("protocolFrame: SendMessage's shutdown_request and shutdown_response drive the shutdown protocol as the rein tools do", () => {
  const state = protocolState(undefined);
  const asked = protocolFrame(state, lead("c1"), "alice", {
    type: "shutdown_request",
    reason: "done",
  });
  assert.equal(asked?.events?.[0]?.type, "protocol.requested");
  foldAs(state, "lead", asked?.events);
  const answer = protocolFrame(
    state,
    alice("c2"),
    "team-lead",
    JSON.stringify({ type: "shutdown_response", request_id: "c1", approve: true }),
  );
  foldAs(state, "alice", answer?.events);
  assert.equal(sessionProtocols(state, "s1").byId["c1"]?.status, "approved");
  const late = protocolFrame(state, alice("c3"), "team-lead", {
    type: "shutdown_response",
    request_id: "c1",
    approve: false,
    reason: "wait",
  });
  assert.equal(late?.isError, true);
});

Deno.test("protocolFrame: plan_approval_response answers the teammate's plan, by request id or by the teammate it is sent to", () => {
  const state = protocolState("plan", [
    ["alice", {
      type: "protocol.requested",
      data: { id: "p1", kind: "plan_approval", from: "alice", to: "lead", plan: "x" },
    }],
  ]);
  const rejected = protocolFrame(state, lead("c1"), "alice", {
    type: "plan_approval_response",
    approve: false,
    feedback: "smaller steps",
  });
  foldAs(state, "lead", rejected?.events);
  assert.equal(sessionProtocols(state, "s1").byId["p1"]?.answer, "smaller steps");
  const missing = protocolFrame(state, lead("c2"), "alice", {
    type: "plan_approval_response",
    request_id: "p1",
  });
  assert.match(missing?.content ?? "", /needs "approve"/);
});
