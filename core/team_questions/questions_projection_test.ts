import assert from "node:assert/strict";
import type { Envelope } from "../../events/event_types.ts";
import { questionsProjection, type QuestionsSlice } from "./questions_projection.ts";

let seq = 0;
function event(type: string, agent: string, data: unknown): Envelope {
  seq += 1;
  return {
    v: 2,
    seq,
    ts: "2026-11-29T09:00:00.000Z",
    type,
    session: "s1",
    agent,
    data,
  } as Envelope;
}

function fold(events: Envelope[]): QuestionsSlice {
  return events.reduce(questionsProjection.evolve, questionsProjection.initial());
}

const asked = (id: string, agent = "alice") =>
  event("question.asked", agent, {
    id,
    kind: "permission",
    tool: "bash",
    input: { command: "npm install" },
    asked: "no permission rule allows it",
    suggestion: "Bash(npm install)",
  });

Deno.test("a question asked twice for one call is one question; the first answer holds", () => {
  const slice = fold([
    asked("toolu_1"),
    asked("toolu_1"),
    event("question.answered", "lead", { id: "toolu_1", to: "alice", answer: "yes" }),
    event("question.answered", "lead", { id: "toolu_1", to: "alice", answer: "no" }),
  ]);
  assert.deepEqual(slice["s1"]?.order, ["toolu_1"]);
  assert.deepEqual(slice["s1"]?.byId["toolu_1"]?.answer, { answer: "yes" });
  assert.equal(slice["s1"]?.byId["toolu_1"]?.from, "alice");
});

Deno.test("the asking teammate's decision without an answer closes its question; another agent's does not", () => {
  const decided = (agent: string) =>
    event("permission.decided", agent, {
      callId: "toolu_2",
      tool: "bash",
      decision: "deny",
      source: { kind: "user", answer: "no", cancelled: true },
      reason: "cancelled",
    });
  assert.equal(fold([asked("toolu_2"), decided("bob")])["s1"]?.byId["toolu_2"]?.closed, undefined);
  assert.equal(fold([asked("toolu_2"), decided("alice")])["s1"]?.byId["toolu_2"]?.closed, true);
});
