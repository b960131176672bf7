import assert from "node:assert/strict";
import { lastMessageText } from "../../testing/scenarios.ts";
import type { Envelope, EnvelopeOf, EventType } from "../../events/event_types.ts";
import { TEAMS_ENV } from "../mail/mod.ts";
import { type FakeScriptFn, message, toolUse } from "../../testing/fake_anthropic.ts";
import { firstUserText } from "../../testing/scenarios.ts";
import { startTestSession } from "../../testing/test_session.ts";
import { CLAIM_WHILE_STOPPING_FEATURE, idleClaim } from "./idle_claim.ts";
import { catalogSliceOf } from "../state/catalog.ts";
import type { State } from "../state/state.ts";
import { taskLine } from "../tasks/describe_task.ts";
import { taskGraphProjection } from "../tasks/tasks_projection.ts";
import { identityReminder, identityText } from "./identity_reminder.ts";
import { DEFAULT_IDLE_TIMEOUT_MS, idleStop, idleTimeoutMs } from "./idle_timeout.ts";

const graphOf = (state: State) => catalogSliceOf(state.catalog, taskGraphProjection);

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

Deno.test("an idle teammate with unread mail, a task in progress or another role, and the lead, claim nothing", async () => {
  const mixed: FakeScriptFn = (request) => {
    const first = firstUserText(request.body?.messages ?? []);
    const last = lastMessageText(request);
    if (first === "hold one") {
      if (last === "hold one") {
        return message([toolUse("toolu_hold", "claim_task", { task_id: 1 })]);
      }
      return message("Holding.");
    }
    if (last === "plan") {
      return message([
        toolUse("toolu_1", "create_task", { subject: "one" }),
        toolUse("toolu_2", "create_task", { subject: "two", role: "reviewer" }),
        toolUse("toolu_alice", "spawn_teammate", { name: "alice", prompt: "hold one" }),
        toolUse("toolu_bob", "spawn_teammate", { name: "bob", prompt: "wait", role: "writer" }),
      ]);
    }
    if (last === "mail bob") {
      return message([toolUse("toolu_mail", "send_message", { to: "bob", content: "hi" })]);
    }
    return message("Ok.");
  };
  await using t = await startTestSession(mixed, recorded());
  const lead = t.session;
  await lead.prompt("plan", run());
  const session = lead.id;
  await lead.sibling("alice").prompt("hold one", run());
  await lead.sibling("bob").prompt("wait", run());
  // Alice holds task 1; task 2 is a reviewer's, and bob is a writer.
  assert.equal(idleClaim(t.harness.state, session, "alice"), undefined);
  assert.equal(idleClaim(t.harness.state, session, "bob"), undefined);
  await lead.prompt("release nothing", run());
  // The lead is not a teammate: it never claims by itself.
  assert.equal(idleClaim(t.harness.state, session, "lead"), undefined);
  // Bob with mail unread: the mail comes first.
  await t.store.append([{
    type: "task.created",
    session,
    agent: "lead",
    data: { id: 3, subject: "three", description: "", blockedBy: [] },
  }]);
  assert.equal(idleClaim(t.harness.state, session, "bob")?.task.id, 3);
  await lead.prompt("mail bob", run());
  assert.equal(idleClaim(t.harness.state, session, "bob"), undefined);
});

Deno.test("a session recorded without autonomy claims nothing by itself and has no release_task", async () => {
  await using t = await startTestSession(script, recorded(["todos", "agents", "teams", "tasks"]));
  const lead = t.session;
  await lead.prompt("plan the work", run());
  await lead.sibling("alice").prompt("wait for work", run());
  assert.equal(idleClaim(t.harness.state, lead.id, "alice")?.task.id, 1);
  assert.equal(await lead.sibling("alice").wake(run()), null);
  const tools = t.fake.requests[0]?.body?.tools?.map((tool) => tool.name) ?? [];
  assert.ok(!tools.includes("release_task"));
  assert.ok(eventsOf(t.events(), "task.claimed").length === 0);
});

Deno.test("release_task hands a claimed task back: pending and unowned, claimable again, the reason kept; only its owner may", async () => {
  const releasing: FakeScriptFn = (request) => {
    const first = firstUserText(request.body?.messages ?? []);
    const last = lastMessageText(request);
    if (first === "take one") {
      if (last === "take one") {
        return message([toolUse("toolu_take", "claim_task", { task_id: 1 })]);
      }
      if (last.startsWith("toolu_take")) {
        return message([toolUse("toolu_give", "release_task", {
          task_id: 1,
          reason: "needs a database I cannot reach",
        })]);
      }
      return message("Released.");
    }
    if (last === "plan") {
      return message([
        toolUse("toolu_1", "create_task", { subject: "one" }),
        toolUse("toolu_alice", "spawn_teammate", { name: "alice", prompt: "take one" }),
      ]);
    }
    if (last === "steal") {
      return message([toolUse("toolu_steal", "release_task", { task_id: 1, reason: "mine" })]);
    }
    return message("Ok.");
  };
  await using t = await startTestSession(releasing, recorded());
  const lead = t.session;
  await lead.prompt("plan", run());
  await lead.sibling("alice").prompt("take one", run());
  const released = eventsOf(t.events(), "task.released");
  assert.deepEqual(released.map((e) => [e.agent, e.data]), [
    ["alice", { id: 1, reason: "needs a database I cannot reach" }],
  ]);
  const graph = t.harness.state.catalog.tasks as {
    tasks: { status: string; owner: unknown; releaseReason?: string }[];
  };
  assert.equal(graph.tasks[0]?.status, "pending");
  assert.equal(graph.tasks[0]?.owner, null);
  assert.equal(graph.tasks[0]?.releaseReason, "needs a database I cannot reach");
  // Listed as ready again, with why it was handed back.
  const line = taskLine(graphOf(t.harness.state), graphOf(t.harness.state).tasks[0]!);
  assert.equal(
    line,
    "#1 [pending] one — ready to claim (released: needs a database I cannot reach)",
  );
  // Idle, holding nothing, alice may claim it again by herself.
  assert.equal(idleClaim(t.harness.state, lead.id, "alice")?.task.id, 1);
  // The lead does not own it: refused, nothing recorded.
  await lead.prompt("steal", run());
  const steal = eventsOf(t.events(), "tool.completed").find((e) => e.data.callId === "toolu_steal");
  assert.equal(steal?.data.isError, true);
  assert.match(steal?.data.content ?? "", /Cannot release task 1: nobody has claimed it/);
  assert.equal(eventsOf(t.events(), "task.released").length, 1);
});

Deno.test("after a compaction a teammate is told who it is and what it holds; the idle stop is decided only when nothing is left to do", async () => {
  const holding: FakeScriptFn = (request) => {
    const first = firstUserText(request.body?.messages ?? []);
    const last = lastMessageText(request);
    if (first === "take one") {
      if (last === "take one") {
        return message([toolUse("toolu_take", "claim_task", { task_id: 1 })]);
      }
      return message("Working on it.");
    }
    if (last === "plan") {
      return message([
        toolUse("toolu_1", "create_task", { subject: "Write the parser", role: "writer" }),
        toolUse("toolu_alice", "spawn_teammate", {
          name: "alice",
          prompt: "take one",
          role: "writer",
        }),
      ]);
    }
    return message("Ok.");
  };
  await using t = await startTestSession(holding, recorded());
  const lead = t.session;
  await lead.prompt("plan", run());
  assert.equal(identityText(t.harness.state, lead.id, "lead"), undefined);
  // Working, then idle while holding task 1.
  await lead.sibling("alice").prompt("take one", run());
  const text = identityText(t.harness.state, lead.id, "alice") ?? "";
  assert.match(text, /You are "alice", a teammate \(role: writer\)/);
  const graph = graphOf(t.harness.state);
  assert.equal(
    taskLine(graph, graph.tasks[0]!),
    "#1 [in_progress] Write the parser — claimed by alice@session-, for a writer",
  );
  assert.match(text, /Your current task: #1 Write the parser \(in progress, yours\)/);
  const reminder = identityReminder(t.harness.state, lead.id, "alice");
  assert.equal(reminder[0]?.type, "reminder.added");
  // Stopping, she hands back the task she holds.
  assert.deepEqual(idleStop(t.harness.state, lead.id, "alice"), [{
    type: "task.released",
    session: lead.id,
    agent: "alice",
    data: { id: 1, reason: "alice stopped after idling with it unfinished", idle: true },
  }, {
    type: "agent.stopped",
    session: lead.id,
    agent: "alice",
    data: { reason: "idle" },
  }]);
  // A ready task to claim: no idle stop.
  await t.store.append([{
    type: "task.created",
    session: lead.id,
    agent: "lead",
    data: { id: 2, subject: "two", description: "", blockedBy: [] },
  }]);
  // Holding task 1, task 2 is not hers to claim: she may still stop.
  assert.equal(idleStop(t.harness.state, lead.id, "alice").length, 2);
  await t.store.append([{
    type: "task.completed",
    session: lead.id,
    agent: "alice",
    data: { id: 1 },
  }]);
  assert.equal(idleClaim(t.harness.state, lead.id, "alice")?.task.id, 2);
  assert.deepEqual(idleStop(t.harness.state, lead.id, "alice"), []);
});

Deno.test("the idle timeout is REIN_IDLE_TIMEOUT_MS, else the idleTimeout setting, else 5 minutes", () => {
  assert.equal(idleTimeoutMs("1500", 9000), 1500);
  assert.equal(idleTimeoutMs(undefined, 9000), 9000);
  assert.equal(idleTimeoutMs(" 20 ", undefined), 20);
  assert.equal(idleTimeoutMs("soon", "later"), DEFAULT_IDLE_TIMEOUT_MS);
  assert.equal(idleTimeoutMs(undefined, -1), DEFAULT_IDLE_TIMEOUT_MS);
  assert.equal(DEFAULT_IDLE_TIMEOUT_MS, 300_000);
});

Deno.test("a teammate that approved its shutdown claims nothing before its stop is recorded (sessions with the feature; older ones as recorded)", async () => {
  const stopping: FakeScriptFn = (request) => {
    const first = firstUserText(request.body?.messages ?? []);
    const last = lastMessageText(request);
    if (first === "wait") {
      if (last.includes("shutdown_request")) {
        return message([toolUse("toolu_bye", "respond_shutdown", { approve: true })]);
      }
      return message("Waiting.");
    }
    if (last === "plan") {
      return message([
        toolUse("toolu_1", "create_task", { subject: "one", blockedBy: [] }),
        toolUse("toolu_bob", "spawn_teammate", { name: "bob", prompt: "wait" }),
      ]);
    }
    if (last === "stop bob") {
      return message([toolUse("toolu_stop", "request_shutdown", { to: "bob" })]);
    }
    return message("Ok.");
  };
  for (const feature of [true, false]) {
    const features = ["todos", "agents", "teams", "tasks", "autonomy"];
    await using t = await startTestSession(
      stopping,
      recorded(feature ? [...features, CLAIM_WHILE_STOPPING_FEATURE] : features),
    );
    const lead = t.session;
    await lead.prompt("plan", run());
    const bob = lead.sibling("bob");
    await bob.prompt("wait", run());
    // Idle with a task ready: he would claim it.
    assert.equal(idleClaim(t.harness.state, lead.id, "bob")?.task.id, 1);
    await lead.prompt("stop bob", run());
    await bob.prompt("", run());
    const answered = t.store.events.filter((e) => e.type === "protocol.answered");
    assert.equal(answered.length, 1, "bob answered the shutdown");
    assert.equal(
      idleClaim(t.harness.state, lead.id, "bob")?.task.id,
      feature ? undefined : 1,
      feature ? "stopping: no claim" : "recorded without the feature: as before",
    );
  }
});
