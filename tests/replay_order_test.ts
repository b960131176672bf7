/**
 * Replay of what mechanisms and concurrent agents add to a log: stage events before a prompt,
 * deciders two agents share, arrivals from outside the loop, stages that throw, and events a
 * replay would add that the log never had.
 */
import assert from "node:assert/strict";
import type { NewEvent } from "../events/event_types.ts";
import type { Mechanism } from "../core/mechanism.ts";
import { replaySession } from "../core/replay/replay_session.ts";
import { message, text, toolUse } from "../testing/fake_anthropic.ts";
import type { FakeScriptFn } from "../testing/fake_replies.ts";
import { echo, firstUserText, toolResultCount } from "../testing/scenarios.ts";
import { startTestSession } from "../testing/test_session.ts";
import { tallyEverywhere as tallyMechanism, tallyOf } from "../testing/tally/mod.ts";

declare module "../events/event_types.ts" {
  interface ExtensionPayloads {
    /** Something arrived from outside the agent's loop (test only). */
    "ping.arrived": { n: number };
  }
}

const run = () => ({ signal: new AbortController().signal, maxTurns: null });

const oneCall: FakeScriptFn = (request) =>
  toolResultCount(request.body) === 0
    ? message([text("calling"), toolUse("toolu_1", "bash", { command: "true" })])
    : message("done");

Deno.test("events a beforePrompt stage records replay before their prompt", async () => {
  const noter: Mechanism = {
    name: "noter",
    eventTypes: ["ping.arrived"],
    stages: {
      beforePrompt: () => Promise.resolve({ events: [{ type: "ping.arrived", data: { n: 1 } }] }),
    },
  };
  await using t = await startTestSession(echo(), { mechanisms: [noter] });
  await t.session.prompt("hello", run());
  await t.reopen().resume("resume", "again", run());
  assert.deepEqual(t.events().slice(1, 3).map((e) => e.type), ["ping.arrived", "user.prompted"]);
  const replayed = await replaySession(t.events(), { mechanisms: [noter] });
  assert.equal(replayed.divergence, null, JSON.stringify(replayed.divergence));
  assert.equal(replayed.matched, t.events().length);
});

/** The lead adds, waits, adds; the helper waits less, then adds: their tallies interleave. */
const sharedTally: FakeScriptFn = (request) => {
  const task = firstUserText(request.body?.messages ?? []);
  const done = toolResultCount(request.body);
  const plan: Record<string, [string, Record<string, unknown>][]> = {
    lead: [["tally_add", { by: 1 }], ["bash", { command: "sleep 1" }], ["tally_add", { by: 1 }]],
    helper: [["bash", { command: "sleep 0.5" }], ["tally_add", { by: 1 }]],
  };
  const step = plan[task]?.[done];
  if (!step) return message(`${task} done`);
  return message([text(`${task} ${done}`), toolUse(`toolu_${task}_${done}`, step[0], step[1])]);
};

Deno.test("two agents deciding on one shared slice replay in the log's order", async () => {
  await using t = await startTestSession(sharedTally, { mechanisms: [tallyMechanism] });
  const helper = t.session.sibling("helper");
  await Promise.all([t.session.prompt("lead", run()), helper.prompt("helper", run())]);
  const totals = t.events().flatMap((e) =>
    e.type === "tally.added" ? [`${e.agent}:${e.data.total}`] : []
  );
  assert.deepEqual(totals, ["lead:1", "helper:2", "lead:3"]);
  assert.equal(tallyOf(t.harness.state, "session-1"), 3);
  const replayed = await replaySession(t.events(), { mechanisms: [tallyMechanism] });
  assert.equal(replayed.divergence, null, JSON.stringify(replayed.divergence));
  assert.equal(replayed.matched, t.events().length);
});

Deno.test("an arrival from outside the loop is fed where the log has it", async () => {
  let arrive: ((event: NewEvent) => Promise<unknown>) | undefined;
  const pinger: Mechanism = {
    name: "pinger",
    eventTypes: ["ping.arrived"],
    fedTypes: ["ping.arrived"],
    stages: {
      async afterCall(context) {
        // Another process appends while this stage runs.
        const { session, agent } = context;
        await arrive?.({ type: "ping.arrived", data: { n: 1 }, session, agent });
        return [];
      },
    },
  };
  await using t = await startTestSession(oneCall, { mechanisms: [pinger] });
  arrive = (event) => t.harness.store.append([event]);
  await t.session.prompt("go", run());
  const types = t.events().map((e) => e.type);
  assert.equal(types[types.indexOf("tool.completed") + 1], "ping.arrived");
  arrive = undefined;
  const replayed = await replaySession(t.events(), { mechanisms: [pinger] });
  assert.equal(replayed.divergence, null, JSON.stringify(replayed.divergence));
  assert.equal(replayed.matched, t.events().length);
});

Deno.test("a stage that throws ends the turn as failed instead of leaving it open", async () => {
  let calls = 0;
  const flaky: Mechanism = {
    name: "flaky",
    stages: {
      beforeModel: () => {
        if (calls++ === 1) return Promise.reject(new Error("hook crashed"));
        return Promise.resolve([]);
      },
    },
  };
  await using t = await startTestSession(oneCall, { mechanisms: [flaky] });
  const result = await t.session.prompt("go", run());
  assert.deepEqual(result, {
    reason: "failed",
    rounds: 1,
    message: "Stopped by an internal error: hook crashed",
  });
  assert.equal(t.session.conversation.status, "failed");
  assert.equal(t.session.hasUnfinishedWork, true, "the model's answer to the result is owed");
  const again = await t.session.prompt("try again", run());
  assert.equal(again.reason, "completed");
});

Deno.test("an event the replay would add after a turn ended fails verification", async () => {
  await using t = await startTestSession(echo());
  await t.session.prompt("one", run());
  await t.reopen().resume("resume", "two", run());
  const extra: Mechanism = {
    name: "extra",
    stages: {
      turnEnded: () => Promise.resolve([{ type: "user.prompted", data: { text: "INJECTED" } }]),
    },
  };
  const replayed = await replaySession(t.events(), { mechanisms: [extra] });
  const firstEnd = t.events().find((e) => e.type === "turn.ended");
  assert.match(replayed.divergence?.reason ?? "", /after its turn ended/);
  assert.equal(replayed.divergence?.seq, (firstEnd?.seq ?? 0) + 1);
});

Deno.test("read-only calls of one answer run at once, are recorded in call order, and replay", async () => {
  const script: FakeScriptFn = (request) =>
    toolResultCount(request.body) === 0
      ? message([
        toolUse("toolu_r1", "read_file", { path: "a.txt" }),
        toolUse("toolu_r2", "grep", { pattern: "beta" }),
        toolUse("toolu_w3", "bash", { command: "echo written" }),
        toolUse("toolu_r4", "glob", { pattern: "*.txt" }),
      ])
      : message("done");
  await using t = await startTestSession(script);
  await Deno.writeTextFile(`${t.workspace}/a.txt`, "alpha\nbeta\n");
  await t.session.prompt("look", run());
  const calls = t.events().flatMap((e) =>
    e.type === "tool.requested" || e.type === "tool.completed"
      ? [`${e.type === "tool.requested" ? "start" : "end"} ${e.data.callId}`]
      : []
  );
  assert.deepEqual(calls, [
    "start toolu_r1",
    "start toolu_r2",
    "end toolu_r1",
    "end toolu_r2",
    "start toolu_w3",
    "end toolu_w3",
    "start toolu_r4",
    "end toolu_r4",
  ]);
  const replayed = await replaySession(t.events());
  assert.equal(replayed.divergence, null, JSON.stringify(replayed.divergence));
  assert.equal(replayed.matched, t.events().length);
});
