/**
 * The idle cycle of autonomous teammates (s17) in one process: teammates' loops driven here as
 * agents of the session (as `rein teammate` drives each in its own process), against the fake
 * model. An idle teammate is woken by a task it can claim, claims it and works on it in the turn
 * the claim starts; of two woken for one task one claims it; the log replays with `--verify`.
 */
import assert from "node:assert/strict";
import type { Envelope, EnvelopeOf, EventType } from "../events/event_types.ts";
import { TEAMS_ENV } from "../core/mail/mod.ts";
import { replaySession } from "../core/replay/replay_session.ts";
import { Runner } from "../core/runner/runner.ts";
import { runWake } from "../core/runner/wake.ts";
import { type FakeScriptFn, message, toolUse } from "../testing/fake_anthropic.ts";
import { firstUserText, lastMessageText } from "../testing/scenarios.ts";
import { startTestSession } from "../testing/test_session.ts";
import { idleClaim, idleWait } from "../core/autonomy/mod.ts";

const run = () => ({ signal: new AbortController().signal, maxTurns: null });

function eventsOf<T extends EventType>(events: readonly Envelope[], type: T): EnvelopeOf<T>[] {
  return events.filter((event): event is EnvelopeOf<T> => event.type === type);
}

/** The session as the CLI records one with teams on, autonomy included (or not). */
function recorded(features = ["todos", "agents", "teams", "tasks", "autonomy"]) {
  return {
    recordSettings: {
      settings: {},
      flags: { permissionMode: "bypassPermissions" as const },
      env: { [TEAMS_ENV]: "1" },
      features,
    },
  };
}

/** The lead makes the graph and two teammates; each teammate does the task it claims. */
const script: FakeScriptFn = (request) => {
  const first = firstUserText(request.body?.messages ?? []);
  const last = lastMessageText(request);
  if (first === "wait for work") {
    const claimed = /claimed task #(\d+)/.exec(last);
    if (claimed) {
      const id = Number(claimed[1]);
      return message([toolUse(`toolu_done_${id}`, "complete_task", { task_id: id })]);
    }
    return message("Done.");
  }
  if (last === "plan the work") {
    return message([
      toolUse("toolu_a", "create_task", { subject: "A", description: "do A" }),
      toolUse("toolu_b", "create_task", { subject: "B", role: "tester" }),
      toolUse("toolu_c", "create_task", { subject: "C", blockedBy: [1, 2] }),
      toolUse("toolu_alice", "spawn_teammate", { name: "alice", prompt: "wait for work" }),
      toolUse("toolu_bob", "spawn_teammate", {
        name: "bob",
        prompt: "wait for work",
        role: "tester",
      }),
    ]);
  }
  return message("Ok.");
};

Deno.test("an idle teammate claims a ready task for its role by itself, the claim and the task's turn one append; the lead is mailed what completing it unblocked; the log replays", async () => {
  await using t = await startTestSession(script, recorded());
  const lead = t.session;
  assert.equal((await lead.prompt("plan the work", run())).reason, "completed");
  const session = lead.id;
  const alice = lead.sibling("alice");
  const bob = lead.sibling("bob");
  // Not idle before their first turn.
  assert.equal(idleClaim(t.harness.state, session, "alice"), undefined);
  await alice.prompt("wait for work", run());
  await bob.prompt("wait for work", run());
  // Alice (no role) takes the first ready task; B is for a tester, which bob is.
  assert.equal(idleClaim(t.harness.state, session, "alice")?.task.id, 1);
  assert.equal(idleClaim(t.harness.state, session, "bob")?.task.id, 1);

  const runner = new Runner(t.harness);
  const aliceWake = await runner.nextWake(alice, AbortSignal.timeout(5_000));
  assert.deepEqual([aliceWake.source, aliceWake.key], ["autonomy", "task-1"]);
  assert.equal((await runWake(alice, aliceWake, run()))?.reason, "completed");
  // Task 1 is done: bob's choice is now B, the tester's.
  assert.equal(idleClaim(t.harness.state, session, "bob")?.task.id, 2);
  const bobWake = await runner.nextWake(bob, AbortSignal.timeout(5_000));
  assert.equal(bobWake.key, "task-2");
  await runWake(bob, bobWake, run());
  // C was unblocked by B: alice claims it (bob's wake would too; one of them does).
  const cWake = await runner.nextWake(alice, AbortSignal.timeout(5_000));
  assert.equal(cWake.key, "task-3");
  await runWake(alice, cWake, run());
  assert.equal(idleClaim(t.harness.state, session, "alice"), undefined);

  const events = t.events();
  // Each claim is its teammate's task.claimed, then the arrival that starts its turn, adjacent.
  const claims = eventsOf(events, "task.claimed");
  assert.deepEqual(claims.map((e) => [e.agent, e.data.id]), [["alice", 1], ["bob", 2], [
    "alice",
    3,
  ]]);
  for (const claim of claims) {
    const next = events.find((e) => e.seq === claim.seq + 1);
    assert.equal(next?.type, "arrival.injected");
    assert.equal(next?.agent, claim.agent);
    if (next?.type === "arrival.injected") {
      assert.equal(next.data.source, "autonomy");
      assert.equal(next.data.key, `task-${claim.data.id}`);
    }
    assert.equal(events.find((e) => e.seq === claim.seq + 2)?.type, "turn.started");
  }
  // The turn's prompt is the task: its id, subject and description.
  const aTurn = t.fake.requests.find((r) => lastMessageText(r).includes("claimed task #1"));
  assert.ok(aTurn);
  assert.match(lastMessageText(aTurn), /task #1 of the task graph by yourself: A[^]*do A/);
  // The lead is told by mail what each completion made ready.
  const mail = eventsOf(events, "mail.sent").filter((e) => e.data.to === "lead");
  assert.deepEqual(mail.map((e) => [e.agent, e.data.content]), [
    ["alice", "alice completed task #1 (A). No task became ready to claim."],
    ["bob", "bob completed task #2 (B). Now ready to claim: #3 (C)."],
    ["alice", "alice completed task #3 (C). No task became ready to claim."],
  ]);

  const replay = await replaySession(events);
  assert.equal(replay.divergence, null, JSON.stringify(replay.divergence));
  assert.equal(replay.matched, events.length);
});

Deno.test("of two idle teammates woken for one task, one claims it; the other runs no turn", async () => {
  const one: FakeScriptFn = (request) => {
    const last = lastMessageText(request);
    if (last === "plan one") {
      return message([
        toolUse("toolu_a", "create_task", { subject: "only" }),
        toolUse("toolu_alice", "spawn_teammate", { name: "alice", prompt: "wait" }),
        toolUse("toolu_bob", "spawn_teammate", { name: "bob", prompt: "wait" }),
      ]);
    }
    return message("Ok.");
  };
  await using t = await startTestSession(one, recorded());
  const lead = t.session;
  await lead.prompt("plan one", run());
  const alice = lead.sibling("alice");
  const bob = lead.sibling("bob");
  await alice.prompt("wait", run());
  await bob.prompt("wait", run());
  // Both see the task as theirs to claim, and both wake at once.
  const turns = await Promise.all([alice.wake(run()), bob.wake(run())]);
  assert.equal(turns.filter((turn) => turn !== null).length, 1);
  const claims = eventsOf(t.events(), "task.claimed");
  assert.equal(claims.length, 1);
  const winner = claims[0]!.agent;
  const loser = winner === "alice" ? "bob" : "alice";
  assert.equal(
    t.events().filter((e) => e.agent === loser && e.type === "turn.started").length,
    1,
    "the loser ran only its first turn",
  );
});

Deno.test("after a teammate's conversation is compacted, its name, role, lead and the task it claimed are put back and reach its next request", async () => {
  const compacting: FakeScriptFn = (request) => {
    const messages = request.body?.messages ?? [];
    const last = JSON.stringify(messages.at(-1) ?? "");
    if (last.includes("summar")) return message("Summary: the work so far.");
    if (firstUserText(messages) === "wait for work") return message("Looking at it.");
    if (lastMessageText(request) === "plan") {
      return message([
        toolUse("toolu_a", "create_task", { subject: "Write the parser", role: "writer" }),
        toolUse("toolu_alice", "spawn_teammate", {
          name: "alice",
          prompt: "wait for work",
          role: "writer",
        }),
      ]);
    }
    return message("Ok.");
  };
  await using t = await startTestSession(compacting, {
    recordSettings: {
      ...recorded().recordSettings,
      features: ["todos", "agents", "teams", "tasks", "autonomy", "compaction"],
    },
  });
  const lead = t.session;
  await lead.prompt("plan", run());
  const alice = lead.sibling("alice");
  await alice.prompt("wait for work", run());
  // Woken by the task, she claims it; her turn ends without finishing it.
  assert.notEqual(await alice.wake(run()), null);
  assert.equal((await alice.compact(undefined, AbortSignal.timeout(10_000))).compacted, true);
  const identity = eventsOf(t.events(), "reminder.added").filter((e) =>
    e.agent === "alice" && e.data.source === "autonomy"
  );
  assert.equal(identity.length, 1);
  assert.equal(
    identity[0]?.data.text,
    'Who you are, after the compaction:\nYou are "alice", a teammate (role: writer) in a team ' +
      'led by "team-lead" (the session\'s lead; write to it with send_message).\nYour current ' +
      "task: #1 Write the parser (in progress, yours). Complete it with complete_task, or hand " +
      "it back with release_task.",
  );
  await alice.prompt("go on", run());
  const asked = JSON.stringify(t.fake.requests.at(-1)?.body?.messages ?? []);
  assert.ok(asked.includes("Your current task: #1 Write the parser"), asked);
  const events = t.events();
  const replay = await replaySession(events);
  assert.equal(replay.divergence, null, JSON.stringify(replay.divergence));
});

Deno.test("a teammate idle past its timeout stops itself, handing back the task it still holds; the log replays with the release fed", async () => {
  const holding: FakeScriptFn = (request) => {
    const first = firstUserText(request.body?.messages ?? []);
    if (first === "wait for work") return message("Thinking about it.");
    if (lastMessageText(request) === "plan") {
      return message([
        toolUse("toolu_a", "create_task", { subject: "Hard one" }),
        toolUse("toolu_alice", "spawn_teammate", { name: "alice", prompt: "wait for work" }),
      ]);
    }
    return message("Ok.");
  };
  await using t = await startTestSession(holding, recorded());
  const lead = t.session;
  await lead.prompt("plan", run());
  const alice = lead.sibling("alice");
  await alice.prompt("wait for work", run());
  // She claims the task by herself, and her turn ends with it unfinished.
  assert.notEqual(await alice.wake(run()), null);
  const runner = new Runner(t.harness);
  const scope = { session: lead.id, agent: "alice" };
  const woken = await idleWait(
    t.harness,
    scope,
    (signal) => runner.nextWake(alice, signal),
    50,
    AbortSignal.timeout(10_000),
  );
  assert.equal(woken, "stopped");
  const events = t.events();
  const tail = events.slice(-2).map((e) => [e.type, e.agent, e.data]);
  assert.deepEqual(tail, [
    ["task.released", "alice", {
      id: 1,
      reason: "alice stopped after idling with it unfinished",
      idle: true,
    }],
    ["agent.stopped", "alice", { reason: "idle" }],
  ]);
  // Pending and unowned again; alice, stopped, claims nothing more.
  const graph = t.harness.state.catalog.tasks as { tasks: { status: string; owner: unknown }[] };
  assert.deepEqual([graph.tasks[0]?.status, graph.tasks[0]?.owner], ["pending", null]);
  assert.equal(idleClaim(t.harness.state, lead.id, "alice"), undefined);
  const replay = await replaySession(events);
  assert.equal(replay.divergence, null, JSON.stringify(replay.divergence));
  assert.equal(replay.matched, events.length);
});
