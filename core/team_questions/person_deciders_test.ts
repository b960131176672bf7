import assert from "node:assert/strict";
import { leadAndTeammate } from "./_questions_fixture.ts";
import { personMail, personReview, stopTeammate } from "./person_deciders.ts";
import { byPerson } from "./team_questions_mechanism.ts";
import { nextQuestion } from "./next_question.ts";
import type { Envelope } from "../../events/event_types.ts";

const DESK = { session: "s1", lead: "lead" };

Deno.test("@alice text is the lead's mail to alice, marked as the person's words", async () => {
  const { lead } = await leadAndTeammate();
  const decided = personMail(lead.state(), DESK, "Alice", "run the tests", "person-1");
  assert.ok("events" in decided);
  assert.deepEqual(decided.events, [{
    type: "mail.sent",
    session: "s1",
    agent: "lead",
    data: {
      id: "person-1",
      from: "lead",
      to: "alice",
      recipients: ["alice"],
      content: "(From the user, typed at the lead's terminal) run the tests",
      kind: "message",
      person: true,
    },
  }]);
  assert.equal(byPerson({ ...decided.events[0], seq: 3, v: 2, ts: "" } as Envelope), true);
  assert.deepEqual(personMail(lead.state(), DESK, "carol", "hi", "person-2"), {
    error: 'No teammate named "carol": the teammates are alice',
  });
});

Deno.test("/team stop stops a live teammate by force, and not one already stopped", async () => {
  const { lead } = await leadAndTeammate();
  const decided = stopTeammate(lead.state(), DESK, "alice");
  assert.ok("events" in decided);
  await lead.store.append(decided.events);
  assert.deepEqual(lead.store.events.at(-1)?.data, { reason: "shutdown", forced: true });
  assert.deepEqual(stopTeammate(lead.state(), DESK, "alice"), {
    error: 'No live teammate named "alice": the teammates are none',
  });
});

Deno.test("a plan waiting for approval is asked of the person at the prompt and reviewed through review_plan", async () => {
  const { lead } = await leadAndTeammate("plan");
  await lead.store.append([{
    type: "protocol.requested",
    session: "s1",
    agent: "alice",
    data: { id: "toolu_plan", kind: "plan_approval", from: "alice", to: "lead", plan: "v1" },
  }]);
  assert.equal(nextQuestion(lead.state(), "s1", { plans: false }), undefined);
  const next = nextQuestion(lead.state(), "s1", { plans: true });
  assert.equal(next?.kind === "plan" && next.request.id, "toolu_plan");
  const review = personReview(lead.state(), DESK, "toolu_plan", {
    approve: false,
    feedback: "add a test first",
  });
  assert.ok("events" in review);
  assert.deepEqual(review.events, [{
    type: "protocol.answered",
    session: "s1",
    agent: "lead",
    data: {
      id: "toolu_plan",
      approve: false,
      by: "lead",
      reason: "add a test first",
      person: true,
    },
  }]);
  await lead.store.append(review.events);
  assert.equal(nextQuestion(lead.state(), "s1", { plans: true }), undefined);
  assert.ok("error" in personReview(lead.state(), DESK, "toolu_plan", { approve: true }));
});
