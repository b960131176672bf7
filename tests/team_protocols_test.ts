/**
 * The protocols between the lead and its teammates (s16), end to end in one process: a session
 * with teams on against the fake model, the lead spawning teammates with spawn_teammate and each
 * teammate's loop driven here as an agent of the session (as `rein teammate` drives it in its own
 * process). Plan approval: alice, in plan mode, is refused a write, submits a plan the lead
 * rejects with feedback (her tool's result), submits again, is approved and writes. Shutdown:
 * alice approves the lead's request and stops after that call; bob never answers and the lead's
 * watcher expires his request and stops him (forced). The log replays with `--verify`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Envelope, EnvelopeOf, EventType } from "../events/event_types.ts";
import { TEAMS_ENV } from "../core/mail/mod.ts";
import { PLAN_GATE_REASON, ShutdownWatcher } from "../core/protocols/mod.ts";
import { replaySession } from "../core/replay/replay_session.ts";
import {
  type FakeScriptFn,
  message,
  startFakeAnthropic,
  toolUse,
} from "../testing/fake_anthropic.ts";
import { firstUserText, lastMessageText } from "../testing/scenarios.ts";
import { killProcessesIn } from "../testing/tool_helpers.ts";
import { startTestSession } from "../testing/test_session.ts";
import { runCli } from "./_cli.ts";

const run = () => ({ signal: new AbortController().signal, maxTurns: null });

function eventsOf<T extends EventType>(events: readonly Envelope[], type: T): EnvelopeOf<T>[] {
  return events.filter((event): event is EnvelopeOf<T> => event.type === type);
}

/** The fake model, routed per agent by the conversation's first prompt. */
const script: FakeScriptFn = (request) => {
  const first = firstUserText(request.body?.messages ?? []);
  const last = lastMessageText(request);
  if (first === "change a.txt") {
    if (last.includes("shutdown_request")) {
      return message([toolUse("toolu_bye", "respond_shutdown", { approve: true })]);
    }
    if (last === "change a.txt") {
      return message([toolUse("toolu_w1", "write_file", { path: "a.txt", content: "early\n" })]);
    }
    if (last.startsWith("toolu_w1")) {
      return message([toolUse("toolu_plan1", "submit_plan", { plan: "v1: write a.txt" })]);
    }
    if (last.startsWith("toolu_plan1")) {
      return message([toolUse("toolu_plan2", "submit_plan", { plan: "v2: test, then a.txt" })]);
    }
    if (last.startsWith("toolu_plan2")) {
      return message([toolUse("toolu_w2", "write_file", { path: "a.txt", content: "done\n" })]);
    }
    return message("Wrote a.txt.");
  }
  if (first === "wait for work") return message("Waiting.");
  // The lead.
  if (last.includes("shutdown_approved")) return message("Alice is done.");
  if (last.includes("plan_approval_request") && last.includes("v1:")) {
    return message([toolUse("toolu_review1", "review_plan", {
      teammate: "alice",
      approve: false,
      feedback: "add a test first",
    })]);
  }
  if (last.includes("plan_approval_request") && last.includes("v2:")) {
    return message([toolUse("toolu_review2", "review_plan", {
      request_id: "toolu_plan2",
      approve: true,
    })]);
  }
  if (last === "stop the team") {
    return message([
      toolUse("toolu_stop_alice", "request_shutdown", { to: "alice", reason: "all done" }),
      toolUse("toolu_stop_bob", "request_shutdown", { to: "bob" }),
    ]);
  }
  if (last === "build a team") {
    return message([
      toolUse("toolu_alice", "spawn_teammate", {
        name: "alice",
        prompt: "change a.txt",
        mode: "plan",
      }),
      toolUse("toolu_bob", "spawn_teammate", { name: "bob", prompt: "wait for work" }),
    ]);
  }
  return message("Ok.");
};

/** Wait until the session's log holds an event `found` picks. */
async function until(events: () => Envelope[], found: (event: Envelope) => boolean) {
  for (let tries = 0; tries < 1000; tries++) {
    if (events().some(found)) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("Timed out waiting for an event");
}

const requested = (id: string) => (event: Envelope) =>
  event.type === "protocol.requested" && event.data.id === id;

Deno.test("plan approval gates a plan-mode teammate's write until the lead approves; shutdown by answer and by timeout; the log replays with --verify", async () => {
  await using t = await startTestSession(script, {
    recordSettings: {
      settings: {},
      // Even the widest mode: the plan gate is not a permission mode.
      flags: { permissionMode: "bypassPermissions" },
      env: { [TEAMS_ENV]: "1" },
      features: ["todos", "agents", "teams"],
    },
  });
  const lead = t.session;
  assert.equal((await lead.prompt("build a team", run())).reason, "completed");

  // Alice works in her own loop while the lead answers her plans when their mail wakes it.
  const alice = lead.sibling("alice");
  const aliceTurn = alice.prompt("change a.txt", run());
  await until(t.events, requested("toolu_plan1"));
  assert.notEqual(await lead.wake(run()), null);
  await until(t.events, requested("toolu_plan2"));
  assert.notEqual(await lead.wake(run()), null);
  assert.equal((await aliceTurn).reason, "completed");
  assert.equal(await Deno.readTextFile(join(t.workspace, "a.txt")), "done\n");

  const events = t.events();
  const completed = new Map(
    eventsOf(events, "tool.completed").map((e) => [e.data.callId, e.data]),
  );
  // The write before approval was refused by the gate, whatever the permission mode.
  assert.equal(completed.get("toolu_w1")?.outcome, "denied");
  assert.match(completed.get("toolu_w1")?.content ?? "", new RegExp(PLAN_GATE_REASON.slice(0, 30)));
  assert.equal(
    eventsOf(events, "tool.requested").some((e) => e.data.callId === "toolu_w1"),
    false,
    "the refused write never started",
  );
  const resultOf = (id: string) => {
    const request = t.fake.requests.find((r) => lastMessageText(r).startsWith(id));
    return request ? lastMessageText(request) : "";
  };
  assert.match(resultOf("toolu_plan1"), /\[Plan Rejected\] add a test first/);
  assert.match(resultOf("toolu_plan2"), /\[Plan Approved\]/);
  assert.ok(completed.has("toolu_w2"));
  assert.deepEqual(
    eventsOf(events, "protocol.answered").map((e) => [e.agent, e.data.id, e.data.approve]),
    [["lead", "toolu_plan1", false], ["lead", "toolu_plan2", true]],
  );

  // Shutdown: alice answers, bob does not.
  assert.equal((await lead.sibling("bob").prompt("wait for work", run())).reason, "completed");
  assert.equal((await lead.prompt("stop the team", run())).reason, "completed");
  const watcher = new ShutdownWatcher({
    log: () => t.store,
    view: () => t.harness.state,
    clock: () => new Date("2026-11-29T07:00:00.000Z"),
    timeoutMs: 200,
  });
  const aliceWatch = watcher.watch("session-1", "toolu_stop_alice");
  const bobWatch = watcher.watch("session-1", "toolu_stop_bob");
  const aliceStop = await alice.wake(run());
  assert.notEqual(aliceStop, null);
  assert.equal(await aliceWatch, "answered");
  assert.equal(await bobWatch, "expired");
  assert.notEqual(await lead.wake(run()), null);

  const all = t.events();
  assert.deepEqual(
    eventsOf(all, "protocol.expired").map((e) => [e.agent, e.data]),
    [["lead", {
      id: "toolu_stop_bob",
      timeoutMs: 200,
      at: "2026-11-29T07:00:00.000Z",
      forced: true,
    }]],
  );
  assert.deepEqual(
    eventsOf(all, "agent.stopped").map((e) => [e.agent, e.data]).sort(),
    [["alice", { reason: "shutdown" }], ["bob", { reason: "shutdown", forced: true }]],
  );
  // Alice's turn ended with her answer: no model request after it.
  assert.equal(
    t.fake.requests.filter((r) => lastMessageText(r).startsWith("toolu_bye")).length,
    0,
  );

  const replay = await replaySession(all);
  assert.equal(replay.divergence, null, JSON.stringify(replay.divergence));
  assert.equal(replay.matched, all.length);
  // And as a person checks a log: `rein replay --verify` on it as a JSONL file.
  const log = join(t.workspace, "events.jsonl");
  await Deno.writeTextFile(log, all.map((event) => `${JSON.stringify(event)}\n`).join(""));
  const verified = await runCli(["replay", log, "--verify", "--quiet"]);
  assert.equal(verified.code, 0, `replay --verify failed:\n${verified.stdout}${verified.stderr}`);
});

/** The same protocols driven by Claude Code's SendMessage frames, from both sides. */
const frames: FakeScriptFn = (request) => {
  const first = firstUserText(request.body?.messages ?? []);
  const last = lastMessageText(request);
  if (first === "plan it") {
    if (last.includes("shutdown_request")) {
      return message([toolUse("toolu_no", "send_message", {
        to: "team-lead",
        content: JSON.stringify({
          type: "shutdown_response",
          request_id: "toolu_frame_stop",
          approve: false,
          reason: "still writing b.txt",
        }),
      })]);
    }
    if (last === "plan it") {
      return message([toolUse("toolu_plan", "submit_plan", { plan: "write b.txt" })]);
    }
    if (last.startsWith("toolu_plan")) {
      return message([toolUse("toolu_w", "write_file", { path: "b.txt", content: "b\n" })]);
    }
    return message("Ok.");
  }
  if (last.includes("plan_approval_request")) {
    return message([toolUse("toolu_frame_ok", "send_message", {
      to: "carol",
      content: JSON.stringify({
        type: "plan_approval_response",
        request_id: "toolu_plan",
        approve: true,
        feedback: "go ahead",
      }),
    })]);
  }
  if (last === "stop carol") {
    return message([toolUse("toolu_frame_stop", "send_message", {
      to: "carol",
      content: JSON.stringify({ type: "shutdown_request", reason: "wrap up" }),
    })]);
  }
  if (last === "start") {
    return message([
      toolUse("toolu_carol", "spawn_teammate", { name: "carol", prompt: "plan it", mode: "plan" }),
    ]);
  }
  return message("Ok.");
};

Deno.test("Claude Code's SendMessage frames drive the same protocols: plan_approval_response, shutdown_request, shutdown_response; the log replays with --verify", async () => {
  await using t = await startTestSession(frames, {
    recordSettings: {
      settings: {},
      flags: { permissionMode: "bypassPermissions" },
      env: { [TEAMS_ENV]: "1" },
      features: ["todos", "agents", "teams"],
    },
  });
  const lead = t.session;
  assert.equal((await lead.prompt("start", run())).reason, "completed");
  const carol = lead.sibling("carol");
  const carolTurn = carol.prompt("plan it", run());
  await until(t.events, requested("toolu_plan"));
  assert.notEqual(await lead.wake(run()), null);
  assert.equal((await carolTurn).reason, "completed");
  assert.equal(await Deno.readTextFile(join(t.workspace, "b.txt")), "b\n");

  assert.equal((await lead.prompt("stop carol", run())).reason, "completed");
  assert.notEqual(await carol.wake(run()), null);
  assert.notEqual(await lead.wake(run()), null);

  const all = t.events();
  assert.deepEqual(
    eventsOf(all, "protocol.requested").map((e) => [e.data.id, e.data.kind, e.data.to]),
    [["toolu_plan", "plan_approval", "lead"], ["toolu_frame_stop", "shutdown", "carol"]],
  );
  assert.deepEqual(
    eventsOf(all, "protocol.answered").map((e) => [e.data.id, e.data.by, e.data.approve]),
    [["toolu_plan", "lead", true], ["toolu_frame_stop", "carol", false]],
  );
  // The refusal reached the lead as mail, with its reason; the approval reached carol.
  const seen = t.fake.requests.map(lastMessageText).join("\n");
  assert.match(seen, /shutdown_rejected[^]*still writing b\.txt/);
  assert.match(seen, /\[Plan Approved\] go ahead/);

  const log = join(t.workspace, "events.jsonl");
  await Deno.writeTextFile(log, all.map((event) => `${JSON.stringify(event)}\n`).join(""));
  const verified = await runCli(["replay", log, "--verify", "--quiet"]);
  assert.equal(verified.code, 0, `replay --verify failed:\n${verified.stdout}${verified.stderr}`);
});

/** The events of a JSONL log as they are now. */
async function readLog(log: string): Promise<Envelope[]> {
  const text = await Deno.readTextFile(log).catch(() => "");
  // Whole lines only: the last may still be being written by another process.
  return text.split("\n").slice(0, -1).map((line) => JSON.parse(line));
}

/** Wait until the log at `log` holds an event `found` picks (30 s at most). */
async function untilLogged(log: string, found: (event: Envelope) => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await readLog(log)).some(found)) {
    if (Date.now() > deadline) throw new Error("Timed out waiting for the log");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

Deno.test("rein -p with a teammate in its own process: its write refused until the lead approves its plan (rejected with feedback first), then shut down by the protocol; -p exits 0 and the log replays with --verify", async () => {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-protocols-" }));
  const log = join(path, ".rein", "events.jsonl");
  const completed = (id: string) => (e: Envelope) =>
    e.type === "tool.completed" && e.data.callId === id;
  await using fake = await startFakeAnthropic({
    script: (request) => {
      const first = firstUserText(request.body?.messages ?? []);
      const last = lastMessageText(request);
      if (first === "edit c.txt") {
        if (last.includes("shutdown_request")) {
          return message([toolUse("toolu_bye", "respond_shutdown", { approve: true })]);
        }
        if (last === "edit c.txt") {
          return message([toolUse("toolu_w1", "write_file", { path: "c.txt", content: "x\n" })]);
        }
        if (last.startsWith("toolu_w1")) {
          return message([toolUse("toolu_plan1", "submit_plan", { plan: "write c.txt" })]);
        }
        if (last.startsWith("toolu_plan1")) {
          return message([toolUse("toolu_plan", "submit_plan", { plan: "test, write c.txt" })]);
        }
        if (last.startsWith("toolu_plan")) {
          return message([toolUse("toolu_w2", "write_file", { path: "c.txt", content: "c\n" })]);
        }
        return message("Edited.");
      }
      if (last.includes("shutdown_approved")) return message("Alice is done.");
      if (last.startsWith("toolu_alice")) {
        return message([toolUse("toolu_inbox1", "check_inbox", {})]);
      }
      if (last.startsWith("toolu_inbox1")) {
        return message([toolUse("toolu_review1", "review_plan", {
          teammate: "alice",
          approve: false,
          feedback: "test first",
        })]);
      }
      if (last.startsWith("toolu_review1")) {
        return message([toolUse("toolu_inbox", "check_inbox", {})]);
      }
      if (last.startsWith("toolu_inbox")) {
        return message([toolUse("toolu_review", "review_plan", {
          teammate: "alice",
          approve: true,
        })]);
      }
      if (last.startsWith("toolu_review")) {
        return message([toolUse("toolu_stop", "request_shutdown", { to: "alice" })]);
      }
      if (last.startsWith("toolu_stop")) return message("Asked.");
      return message([
        toolUse("toolu_alice", "spawn_teammate", {
          name: "alice",
          prompt: "edit c.txt",
          mode: "plan",
        }),
      ]);
    },
    // The lead reads its inbox once each of alice's plans is in the log, and asks her to stop
    // once she has written.
    onRequest: async (request) => {
      if (firstUserText(request.body?.messages ?? []) === "edit c.txt") return;
      const last = lastMessageText(request);
      if (last.startsWith("toolu_alice")) await untilLogged(log, requested("toolu_plan1"));
      if (last.startsWith("toolu_review1")) await untilLogged(log, requested("toolu_plan"));
      if (last.startsWith("toolu_review") && !last.startsWith("toolu_review1")) {
        await untilLogged(log, completed("toolu_w2"));
      }
    },
  });
  try {
    const env = {
      ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_API_KEY: "sk-test",
      [TEAMS_ENV]: "1",
      REIN_SHUTDOWN_TIMEOUT_MS: "20000",
    };
    // After approval alice runs in the lead's mode: acceptEdits lets her write headless.
    const args = ["-p", "run the team", "--workspace", path, "--permission-mode", "acceptEdits"];
    const out = await runCli(args, { env });
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout.trim(), "Alice is done.");
    const events = await readLog(log);
    assert.equal(await Deno.readTextFile(join(path, "c.txt")), "c\n");
    const byCall = new Map(eventsOf(events, "tool.completed").map((e) => [e.data.callId, e]));
    assert.equal(byCall.get("toolu_w1")?.agent, "alice");
    assert.equal(byCall.get("toolu_w1")?.data.outcome, "denied");
    // The plan gate refused it, though acceptEdits would have allowed it.
    assert.match(byCall.get("toolu_w1")?.data.content ?? "", /Plan mode: you may only read/);
    assert.equal(byCall.get("toolu_w2")?.data.isError, false);
    // Alice's turn ended with her answer.
    assert.ok(
      eventsOf(events, "turn.ended").some((e) =>
        e.agent === "alice" && e.data.message === "The lead's shutdown request was approved"
      ),
    );
    assert.deepEqual(
      eventsOf(events, "protocol.answered").map((e) => [e.agent, e.data.id, e.data.approve]),
      [["lead", "toolu_plan1", false], ["lead", "toolu_plan", true], ["alice", "toolu_stop", true]],
    );
    // The rejection's feedback was her submit_plan's result.
    assert.match(byCall.get("toolu_plan1")?.data.content ?? "", /^\[Plan Rejected\] test first/);
    assert.ok(eventsOf(events, "agent.started").some((e) => e.agent === "alice"));
    // The lead's process recorded her stop once her turn had ended.
    const stopped = eventsOf(events, "agent.stopped");
    assert.deepEqual(stopped.map((e) => [e.agent, e.data]), [["alice", { reason: "shutdown" }]]);
    const aliceEnd = eventsOf(events, "turn.ended").filter((e) => e.agent === "alice").at(-1);
    assert.ok(aliceEnd !== undefined && aliceEnd.seq < stopped[0]!.seq);

    const replay = await runCli(["replay", log, "--verify"]);
    assert.equal(replay.code, 0, `replay --verify failed:\n${replay.stdout}${replay.stderr}`);
    assert.match(
      replay.stdout,
      new RegExp(`: ${events.length} events replayed, all match the log`),
    );
  } finally {
    killProcessesIn(path);
    await Deno.remove(path, { recursive: true });
  }
});

Deno.test("rein -p: a teammate in its own process that never answers its shutdown is stopped by the lead at REIN_SHUTDOWN_TIMEOUT_MS, recorded as forced; -p exits 0 and the log replays with --verify", async () => {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-protocols-" }));
  const log = join(path, ".rein", "events.jsonl");
  await using fake = await startFakeAnthropic({
    script: (request) => {
      const first = firstUserText(request.body?.messages ?? []);
      const last = lastMessageText(request);
      // Bob reads the request and says no more: he never answers it.
      if (first === "wait for work") return message("Not now.");
      if (last.startsWith("toolu_bob")) {
        return message([toolUse("toolu_stop", "request_shutdown", { to: "bob" })]);
      }
      if (last.startsWith("toolu_stop")) return message("Asked.");
      return message([
        toolUse("toolu_bob", "spawn_teammate", { name: "bob", prompt: "wait for work" }),
      ]);
    },
    // The lead asks once bob's first turn has ended.
    onRequest: async (request) => {
      if (lastMessageText(request).startsWith("toolu_bob")) {
        await untilLogged(log, (e) => e.type === "turn.ended" && e.agent === "bob");
      }
    },
  });
  try {
    const env = {
      ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_API_KEY: "sk-test",
      [TEAMS_ENV]: "1",
      REIN_SHUTDOWN_TIMEOUT_MS: "1500",
    };
    const out = await runCli(["-p", "run bob", "--workspace", path], { env });
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout.trim(), "Asked.");
    const events = await readLog(log);
    const expired = eventsOf(events, "protocol.expired");
    assert.deepEqual(expired.map((e) => [e.agent, e.data.id, e.data.timeoutMs, e.data.forced]), [
      ["lead", "toolu_stop", 1500, true],
    ]);
    assert.deepEqual(
      eventsOf(events, "agent.stopped").map((e) => [e.agent, e.data]),
      [["bob", { reason: "shutdown", forced: true }]],
    );
    assert.deepEqual(eventsOf(events, "protocol.answered"), []);
    const replay = await runCli(["replay", log, "--verify"]);
    assert.equal(replay.code, 0, `replay --verify failed:\n${replay.stdout}${replay.stderr}`);
    assert.match(
      replay.stdout,
      new RegExp(`: ${events.length} events replayed, all match the log`),
    );
  } finally {
    killProcessesIn(path);
    await Deno.remove(path, { recursive: true });
  }
});
