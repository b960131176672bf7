import assert from "node:assert/strict";
import { foldAs, protocolState } from "./_protocol_fixture.ts";
import {
  expireShutdown,
  planAnswer,
  requestShutdown,
  respondShutdown,
  reviewPlan,
  submitPlanEvents,
} from "./protocol_deciders.ts";
import { sessionProtocols } from "./protocols_of.ts";

const lead = (callId = "toolu_req") => ({ session: "s1", agent: "lead", callId });
const alice = (callId = "toolu_ans") => ({ session: "s1", agent: "alice", callId });

Deno.test("request_shutdown: the lead's request is pending and its mail carries Claude Code's shutdown_request frame to the teammate", () => {
  const state = protocolState(undefined);
  const result = requestShutdown(state, lead(), { to: "Alice", reason: "all done" });
  assert.equal(result.isError, undefined);
  assert.deepEqual(result.events?.[0], {
    type: "protocol.requested",
    data: { id: "toolu_req", kind: "shutdown", from: "lead", to: "alice", reason: "all done" },
  });
  const mail = result.events?.[1];
  assert.equal(mail?.type, "mail.sent");
  if (mail?.type !== "mail.sent") return;
  assert.deepEqual(mail.data.recipients, ["alice"]);
  assert.deepEqual(JSON.parse(mail.data.content.split("\n")[0]!), {
    type: "shutdown_request",
    request_id: "toolu_req",
    from: "team-lead",
    reason: "all done",
  });
  // Asked again while pending: nothing more is recorded.
  foldAs(state, "lead", result.events);
  const again = requestShutdown(state, lead("toolu_req2"), { to: "alice" });
  assert.equal(again.events, undefined);
  assert.match(again.content, /already asked.*toolu_req/);
});

Deno.test("request_shutdown: only the lead asks, and only a teammate of the session", () => {
  const state = protocolState(undefined);
  assert.match(requestShutdown(state, alice(), { to: "alice" }).content, /Only the lead/);
  const unknown = requestShutdown(state, lead(), { to: "bob" });
  assert.equal(unknown.isError, true);
  assert.match(unknown.content, /No teammate named "bob": the teammates are alice/);
});

Deno.test("respond_shutdown: approving answers the pending request and tells the lead; refusing needs a reason, which the lead gets", () => {
  const asked = () => {
    const state = protocolState(undefined);
    return foldAs(state, "lead", requestShutdown(state, lead(), { to: "alice" }).events);
  };
  const approved = respondShutdown(asked(), alice(), { approve: true });
  assert.deepEqual(approved.events?.[0], {
    type: "protocol.answered",
    data: { id: "toolu_req", approve: true, by: "alice" },
  });
  const told = approved.events?.[1];
  assert.equal(told?.type === "mail.sent" && told.data.recipients[0], "lead");
  assert.match(told?.type === "mail.sent" ? told.data.content : "", /"shutdown_approved"/);

  assert.match(respondShutdown(asked(), alice(), { approve: false }).content, /reason is required/);
  const refused = respondShutdown(asked(), alice(), { approve: false, reason: "tests running" });
  const why = refused.events?.[1];
  assert.equal(why?.type, "mail.sent");
  if (why?.type !== "mail.sent") return;
  assert.deepEqual(JSON.parse(why.data.content), {
    type: "shutdown_rejected",
    request_id: "toolu_req",
    from: "alice",
    reason: "tests running",
  });
});

Deno.test("respond_shutdown: nothing pending, a settled request or another agent's request is refused", () => {
  const state = protocolState(undefined);
  assert.match(respondShutdown(state, alice(), { approve: true }).content, /No shutdown request/);
  foldAs(state, "lead", requestShutdown(state, lead(), { to: "alice" }).events);
  assert.equal(
    respondShutdown(state, { ...alice(), agent: "lead" }, { approve: true }).isError,
    true,
  );
  foldAs(state, "alice", respondShutdown(state, alice(), { approve: true }).events);
  const second = respondShutdown(state, alice("toolu_2"), {
    approve: false,
    reason: "no",
    request_id: "toolu_req",
  });
  assert.equal(second.isError, true);
  assert.match(second.content, /no longer pending: it was approved/);
});

Deno.test("expireShutdown: a pending request expires forced with the clock reading and stops the teammate; an answered one does not", () => {
  const state = protocolState(undefined);
  foldAs(state, "lead", requestShutdown(state, lead(), { to: "alice" }).events);
  const reading = { timeoutMs: 30_000, at: "2026-11-29T06:01:00.000Z" };
  assert.deepEqual(expireShutdown(state, "s1", "toolu_req", reading), [
    {
      type: "protocol.expired",
      data: { id: "toolu_req", timeoutMs: 30_000, at: "2026-11-29T06:01:00.000Z", forced: true },
      session: "s1",
      agent: "lead",
    },
    {
      type: "agent.stopped",
      data: { reason: "shutdown", forced: true },
      session: "s1",
      agent: "alice",
    },
  ]);
  foldAs(state, "alice", respondShutdown(state, alice(), { approve: true }).events);
  assert.deepEqual(expireShutdown(state, "s1", "toolu_req", reading), []);
});

Deno.test("plan approval: submitted, rejected with feedback (the teammate's result), submitted again, approved", () => {
  const state = protocolState("plan");
  const first = submitPlanEvents(state, alice("toolu_plan1"), "1. edit a.ts");
  assert.equal(first[0]?.type, "protocol.requested");
  assert.equal(first[1]?.type === "mail.sent" && first[1].data.recipients[0], "lead");
  foldAs(state, "alice", first);
  // Recorded once: the gate running again for the same call (after a crash) asks nothing more.
  assert.deepEqual(submitPlanEvents(state, alice("toolu_plan1"), "1. edit a.ts"), []);
  const review = reviewPlan(state, lead("toolu_rev"), {
    teammate: "alice",
    approve: false,
    feedback: "add a test first",
  });
  foldAs(state, "lead", review.events);
  assert.equal(
    planAnswer(state, alice("toolu_plan1")).content,
    "[Plan Rejected] add a test first\nRevise the plan and submit it again with submit_plan.",
  );
  foldAs(state, "alice", submitPlanEvents(state, alice("toolu_plan2"), "1. test 2. edit"));
  foldAs(
    state,
    "lead",
    reviewPlan(state, lead("toolu_rev2"), { request_id: "toolu_plan2", approve: true }).events,
  );
  assert.equal(
    planAnswer(state, alice("toolu_plan2")).content,
    "[Plan Approved] You can now proceed with implementation",
  );
  assert.deepEqual(submitPlanEvents(state, alice("toolu_plan3"), "more"), []);
  assert.deepEqual(
    sessionProtocols(state, "s1").order.map((id) => sessionProtocols(state, "s1").byId[id]?.status),
    ["rejected", "approved"],
  );
});

Deno.test("review_plan: only the lead reviews, and only a pending plan", () => {
  const state = protocolState("plan");
  assert.match(
    reviewPlan(state, alice(), { teammate: "alice", approve: true }).content,
    /Only the team lead can approve plans/,
  );
  assert.match(
    reviewPlan(state, lead(), { teammate: "alice", approve: true }).content,
    /No plan approval request is pending/,
  );
});

Deno.test("review_plan by teammate answers its newest pending plan (one whose wait was cancelled is superseded)", () => {
  const state = protocolState("plan");
  foldAs(state, "alice", submitPlanEvents(state, alice("toolu_old"), "v1"));
  foldAs(state, "alice", submitPlanEvents(state, alice("toolu_new"), "v2"));
  const review = reviewPlan(state, lead("toolu_rev"), { teammate: "alice", approve: true });
  assert.deepEqual(review.events?.[0]?.data, { id: "toolu_new", approve: true, by: "lead" });
});
