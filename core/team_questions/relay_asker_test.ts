import assert from "node:assert/strict";
import type { PermissionQuestion } from "../permissions/permissions_mechanism.ts";
import { leadAndTeammate } from "./_questions_fixture.ts";
import { answerQuestion } from "./person_deciders.ts";
import { nextQuestion } from "./next_question.ts";
import { relayAsker } from "./relay_asker.ts";

const QUESTION: PermissionQuestion = {
  session: "s1",
  agent: "alice",
  callId: "toolu_npm",
  tool: "bash",
  input: { command: "npm install" },
  asked: "no permission rule allows it",
  suggestion: "Bash(npm install)",
};

Deno.test("a teammate's question is recorded once, reaches the lead's process, and the person's answer goes back", async () => {
  const { lead, alice } = await leadAndTeammate();
  const ask = relayAsker(alice, 5);
  const answered = ask(QUESTION, new AbortController().signal);
  // The lead's process sees it as it follows the log.
  while (nextQuestion(lead.state(), "s1", { plans: true }) === undefined) {
    await lead.store.waitForAppend(lead.store.lastSeq, new AbortController().signal);
  }
  const next = nextQuestion(lead.state(), "s1", { plans: true });
  assert.equal(next?.kind, "permission");
  assert.equal(next?.kind === "permission" && next.question.from, "alice");
  await lead.store.appendDecided(() =>
    answerQuestion(lead.state(), { session: "s1", lead: "lead" }, "toolu_npm", {
      answer: "always",
    })
  );
  assert.deepEqual(await answered, { answer: "always" });
  // A second answer changes nothing; asking again (a restart) records no second question.
  assert.deepEqual(
    answerQuestion(lead.state(), { session: "s1", lead: "lead" }, "toolu_npm", { answer: "no" }),
    [],
  );
  assert.deepEqual(await ask(QUESTION, new AbortController().signal), { answer: "always" });
  const types = (await lead.store.catchUp(), lead.store.events.map((e) => e.type));
  assert.deepEqual(types.filter((t) => t.startsWith("question.")), [
    "question.asked",
    "question.answered",
  ]);
  assert.equal(nextQuestion(lead.state(), "s1", { plans: true }), undefined);
});

Deno.test("a refusal carries the person's reason; a cancelled turn stops the wait as cancelled", async () => {
  const { lead, alice } = await leadAndTeammate();
  const ask = relayAsker(alice, 5);
  const stop = new AbortController();
  const waiting = ask({ ...QUESTION, callId: "toolu_a" }, stop.signal);
  stop.abort();
  assert.deepEqual(await waiting, {
    answer: "no",
    reason: "the turn was cancelled",
    cancelled: true,
  });
  const refused = ask({ ...QUESTION, callId: "toolu_b" }, new AbortController().signal);
  await lead.store.catchUp();
  await lead.store.appendDecided(() =>
    answerQuestion(lead.state(), { session: "s1", lead: "lead" }, "toolu_b", {
      answer: "no",
      reason: "use pnpm",
    })
  );
  assert.deepEqual(await refused, { answer: "no", reason: "use pnpm" });
});
