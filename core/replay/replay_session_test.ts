import assert from "node:assert/strict";
import type { Envelope } from "../../events/event_types.ts";
import { message, overloaded, text, toolUse } from "../../testing/fake_anthropic.ts";
import { allSixTools, faultThen, plainAnswer, sequentialBash } from "../../testing/scenarios.ts";
import { startTestSession, type TestSession } from "../../testing/test_session.ts";
import { replaySession } from "./replay_session.ts";

const run = () => ({ signal: new AbortController().signal, maxTurns: null });

async function replayOf(t: TestSession, events = t.events()) {
  return await replaySession(events);
}

Deno.test("a replayed run reproduces every recorded event without the model or the tools", async () => {
  await using t = await startTestSession(allSixTools("a/b.txt"));
  await t.session.prompt("use every tool", run());
  await t.session.prompt("and again", run());
  const served = t.fake.requests.length;
  await Deno.remove(`${t.workspace}/a`, { recursive: true });
  const result = await replayOf(t);
  assert.equal(result.divergence, null);
  assert.equal(result.matched, t.events().length);
  assert.equal(t.fake.requests.length, served, "replay made no request");
  await assert.rejects(Deno.stat(`${t.workspace}/a/b.txt`), "replayed write_file touched the disk");
});

Deno.test("retries, failures and cancellations replay exactly", async () => {
  await using t = await startTestSession(
    faultThen(
      [overloaded(), overloaded(), overloaded(), overloaded()],
      sequentialBash(2, (i) => i === 1 ? "sleep 20" : "true"),
    ),
  );
  await t.session.prompt("fails after retries", run());
  const controller = new AbortController();
  const running = t.session.prompt("now sleep", { signal: controller.signal, maxTurns: null });
  while (!t.events().some((e) => e.type === "tool.requested")) {
    await new Promise((r) => setTimeout(r, 5));
  }
  controller.abort();
  await running;
  await t.session.prompt("max turns", { signal: new AbortController().signal, maxTurns: 1 });
  assert.ok(t.events().some((e) => e.type === "turn.ended" && e.data.reason === "failed"));
  assert.ok(t.events().some((e) => e.type === "turn.ended" && e.data.reason === "cancelled"));
  assert.ok(t.events().some((e) => e.type === "turn.ended" && e.data.reason === "max_turns"));
  const result = await replayOf(t);
  assert.equal(result.divergence, null, JSON.stringify(result.divergence));
  assert.equal(result.matched, t.events().length);
});

Deno.test("a run that died and was resumed replays through the crash and the resume", async () => {
  await using t = await startTestSession((request) =>
    (request.body?.messages.length ?? 0) === 1
      ? message([
        text("two"),
        toolUse("t1", "bash", { command: "echo 1" }),
        toolUse("t2", "bash", { command: "echo 2" }),
      ])
      : message("done")
  );
  const { effects } = t.harness.deps;
  const live = effects.runCall;
  effects.runCall = () => new Promise(() => {});
  void t.session.prompt("go", run());
  while (!t.events().some((e) => e.type === "tool.requested")) {
    await new Promise((r) => setTimeout(r, 5));
  }
  effects.runCall = live;
  await t.reopen().resume("continue", undefined, run());
  await t.reopen().resume("resume", "one more", run());
  const result = await replayOf(t);
  assert.equal(result.divergence, null, JSON.stringify(result.divergence));
  assert.equal(result.matched, t.events().length);
});

Deno.test("an edited tool input inside a model response is caught at that tool call", async () => {
  await using t = await startTestSession(sequentialBash(3, (i) => `echo ${i}`));
  await t.session.prompt("go", run());
  const events = structuredClone(t.events());
  const responded = events.filter((e) => e.type === "model.responded")[1] as Envelope & {
    type: "model.responded";
  };
  const call = responded.data.content.find((b) => b.type === "tool_use");
  assert.ok(call?.type === "tool_use");
  call.input = { command: "rm -rf /" };
  const requested = events.find((e) => e.type === "tool.requested" && e.data.callId === call.id);
  const result = await replayOf(t, events);
  assert.equal(result.divergence?.seq, requested?.seq);
  assert.match(result.divergence?.reason ?? "", /a different tool\.requested/);
});

Deno.test("an edited tool result is caught at the next model request", async () => {
  await using t = await startTestSession(sequentialBash(3, (i) => `echo ${i}`));
  await t.session.prompt("go", run());
  const events = structuredClone(t.events());
  const index = events.findIndex((e) => e.type === "tool.completed");
  const completed = events[index] as Envelope & { type: "tool.completed" };
  completed.data.content = "tampered";
  const nextRequest = events.slice(index).find((e) => e.type === "model.requested");
  const result = await replayOf(t, events);
  assert.equal(result.divergence?.seq, nextRequest?.seq);
});

Deno.test("a changed system prompt or tool set shows up as a divergence", async () => {
  await using t = await startTestSession(plainAnswer("hi"));
  await t.session.prompt("hello", run());
  const extra = t.harness.findTool("read_file");
  assert.ok(extra);
  const result = await replaySession(t.events(), {
    mechanisms: [{ name: "more tools", tools: () => [{ ...extra, name: "read_more" }] }],
  });
  const firstRequest = t.events().find((e) => e.type === "model.requested");
  assert.equal(result.divergence?.seq, firstRequest?.seq);
});
