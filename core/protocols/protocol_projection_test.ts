import assert from "node:assert/strict";
import { foldAs, protocolState } from "./_protocol_fixture.ts";
import { nextStatus } from "./protocol_projection.ts";
import { pendingRequests, planGated, sessionProtocols } from "./protocols_of.ts";

Deno.test("nextStatus: pending goes to approved, rejected or expired, and nothing leaves a settled request", () => {
  assert.equal(nextStatus("pending", { answer: true }), "approved");
  assert.equal(nextStatus("pending", { answer: false }), "rejected");
  assert.equal(nextStatus("pending", "expire"), "expired");
  for (const settled of ["approved", "rejected", "expired"] as const) {
    assert.equal(nextStatus(settled, { answer: true }), undefined);
    assert.equal(nextStatus(settled, { answer: false }), undefined);
    assert.equal(nextStatus(settled, "expire"), undefined);
  }
});

Deno.test("the fold: a request is pending until its first answer, a second answer or an expiry changes nothing", () => {
  const state = protocolState(undefined, [
    ["lead", {
      type: "protocol.requested",
      data: { id: "r1", kind: "shutdown", from: "lead", to: "alice", reason: "done" },
    }],
  ]);
  assert.deepEqual(pendingRequests(state, "s1").map((r) => r.id), ["r1"]);
  foldAs(state, "alice", [{
    type: "protocol.answered",
    data: { id: "r1", approve: false, by: "alice", reason: "still testing" },
  }]);
  foldAs(state, "alice", [{
    type: "protocol.answered",
    data: { id: "r1", approve: true, by: "alice" },
  }]);
  foldAs(state, "lead", [{
    type: "protocol.expired",
    data: { id: "r1", timeoutMs: 10, at: "2026-11-29T06:00:01.000Z", forced: true },
  }]);
  const request = sessionProtocols(state, "s1").byId["r1"];
  assert.equal(request?.status, "rejected");
  assert.equal(request?.answer, "still testing");
  assert.equal(sessionProtocols(state, "s1").stopped["alice"], undefined);
  assert.deepEqual(pendingRequests(state, "s1"), []);
});

Deno.test("the fold: an approved or expired shutdown marks the teammate stopped", () => {
  const approved = protocolState(undefined, [
    ["lead", {
      type: "protocol.requested",
      data: { id: "r1", kind: "shutdown", from: "lead", to: "alice" },
    }],
    ["alice", { type: "protocol.answered", data: { id: "r1", approve: true, by: "alice" } }],
  ]);
  assert.equal(sessionProtocols(approved, "s1").stopped["alice"], true);
  const expired = protocolState(undefined, [
    ["lead", {
      type: "protocol.requested",
      data: { id: "r1", kind: "shutdown", from: "lead", to: "alice" },
    }],
    ["lead", {
      type: "protocol.expired",
      data: { id: "r1", timeoutMs: 10, at: "2026-11-29T06:00:01.000Z", forced: true },
    }],
  ]);
  assert.equal(sessionProtocols(expired, "s1").byId["r1"]?.status, "expired");
  assert.equal(sessionProtocols(expired, "s1").stopped["alice"], true);
});

Deno.test("the fold: a teammate spawned in plan mode is gated until a plan of its own is approved", () => {
  const state = protocolState("plan");
  assert.equal(planGated(state, "s1", "alice"), true);
  assert.equal(planGated(protocolState(undefined), "s1", "alice"), false);
  foldAs(state, "alice", [{
    type: "protocol.requested",
    data: { id: "p1", kind: "plan_approval", from: "alice", to: "lead", plan: "v1" },
  }]);
  foldAs(state, "lead", [{
    type: "protocol.answered",
    data: { id: "p1", approve: false, by: "lead", reason: "add tests" },
  }]);
  assert.equal(planGated(state, "s1", "alice"), true);
  foldAs(state, "alice", [{
    type: "protocol.requested",
    data: { id: "p2", kind: "plan_approval", from: "alice", to: "lead", plan: "v2" },
  }]);
  foldAs(state, "lead", [{
    type: "protocol.answered",
    data: { id: "p2", approve: true, by: "lead" },
  }]);
  assert.equal(planGated(state, "s1", "alice"), false);
  assert.deepEqual(
    sessionProtocols(state, "s1").order.map((id) => sessionProtocols(state, "s1").byId[id]?.status),
    ["rejected", "approved"],
  );
});
