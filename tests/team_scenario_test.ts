/**
 * The scripted team run of issue 23's "Done when", end to end: `rein -p` with teams on (the lead)
 * spawns three teammates, each a real `rein teammate` process, against the fake model routed per
 * agent (by each conversation's first prompt). Bob mails the lead while it is idle, which wakes
 * it; alice, in plan mode, has her write refused before approval and her first plan rejected
 * with feedback, then approved, and writes; the lead asks all three to shut down: alice and bob
 * approve, carol never answers and is stopped at REIN_SHUTDOWN_TIMEOUT_MS. `-p` exits 0, no
 * teammate process outlives it, and `replay --verify` matches every event.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Envelope } from "../events/event_types.ts";
import {
  message,
  type RecordedRequest,
  startFakeAnthropic,
  toolUse,
} from "../testing/fake_anthropic.ts";
import { firstUserText, lastMessageText } from "../testing/scenarios.ts";
import { killProcessesIn } from "../testing/tool_helpers.ts";
import { runCli } from "./_cli.ts";
import {
  alive,
  eventsOf,
  mailIn,
  readLog,
  teamEnv,
  teammatePids,
  untilLogged,
} from "./_team_e2e.ts";

const SHUTDOWN_TIMEOUT_MS = 4_000;

/** Alice (plan mode): a write, plan v1, plan v2, the write, mail to the lead. */
function alice(last: string) {
  if (last.includes("shutdown_request")) {
    return message([toolUse("toolu_alice_bye", "respond_shutdown", { approve: true })]);
  }
  if (last === "edit c.txt") {
    return message([toolUse("toolu_w1", "write_file", { path: "c.txt", content: "early\n" })]);
  }
  if (last.startsWith("toolu_w1 ")) {
    return message([toolUse("toolu_plan1", "submit_plan", { plan: "v1: write c.txt" })]);
  }
  if (last.startsWith("toolu_plan1 ")) {
    return message([toolUse("toolu_plan2", "submit_plan", { plan: "v2: test, then c.txt" })]);
  }
  if (last.startsWith("toolu_plan2 ")) {
    return message([toolUse("toolu_w2", "write_file", { path: "c.txt", content: "done\n" })]);
  }
  if (last.startsWith("toolu_w2 ")) {
    return message([toolUse("toolu_alice_mail", "send_message", {
      to: "team-lead",
      content: "alice: c.txt written",
    })]);
  }
  return message("Edited.");
}

/** Bob: mails the lead, and approves its shutdown. */
function bob(last: string) {
  if (last.includes("shutdown_request")) {
    return message([toolUse("toolu_bob_bye", "respond_shutdown", { approve: true })]);
  }
  if (last === "count the files") {
    return message([toolUse("toolu_bob_mail", "send_message", {
      to: "team-lead",
      content: "bob: 3 files",
    })]);
  }
  return message("Sent.");
}

/** The lead: acts on the mail that woke it (or came with its tool results). */
function lead(request: RecordedRequest) {
  const mail = mailIn(request);
  const calls = [];
  for (const { from, text } of mail) {
    if (from === "alice" && text.includes("plan_approval_request") && text.includes("v1:")) {
      calls.push(toolUse("toolu_review1", "review_plan", {
        teammate: "alice",
        approve: false,
        feedback: "add a test first",
      }));
    }
    if (from === "alice" && text.includes("plan_approval_request") && text.includes("v2:")) {
      calls.push(toolUse("toolu_review2", "review_plan", { teammate: "alice", approve: true }));
    }
    if (from === "alice" && text.includes("c.txt written")) {
      for (const name of ["alice", "bob", "carol"]) {
        calls.push(toolUse(`toolu_stop_${name}`, "request_shutdown", { to: name }));
      }
    }
  }
  if (calls.length > 0) return message(calls);
  const last = lastMessageText(request);
  if (last === "run the team") {
    return message([
      toolUse("toolu_alice", "spawn_teammate", {
        name: "alice",
        prompt: "edit c.txt",
        mode: "plan",
      }),
      toolUse("toolu_bob", "spawn_teammate", { name: "bob", prompt: "count the files" }),
      toolUse("toolu_carol", "spawn_teammate", { name: "carol", prompt: "wait for work" }),
    ]);
  }
  if (mail.some((letter) => letter.text.includes("shutdown_approved"))) {
    return message("Team done.");
  }
  if (mail.some((letter) => letter.text.includes("bob: 3 files"))) {
    return message("Bob counted 3 files.");
  }
  if (last.startsWith("toolu_stop_")) return message("Asked the team to stop.");
  return message("Ok.");
}

Deno.test("a scripted team run: three teammate processes, mail wakes the idle lead, a plan rejected then approved gates a write, two shut down by the protocol and one by timeout; -p exits 0 and the log replays with --verify", async () => {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-team-scenario-" }));
  const log = join(path, ".rein", "events.jsonl");
  const leadTurnsEnded = (events: Envelope[]) =>
    eventsOf(events, "turn.ended").filter((e) => e.agent === "lead").length;
  await using fake = await startFakeAnthropic({
    script: (request) => {
      const first = firstUserText(request.body?.messages ?? []);
      const last = lastMessageText(request);
      if (first === "edit c.txt") return alice(last);
      if (first === "count the files") return bob(last);
      if (first === "wait for work") return message("Not now.");
      return lead(request);
    },
    // Bob mails once the lead's first turn has ended (the lead is idle then); alice starts once
    // the lead has answered bob's mail, so each wake of the lead is one teammate's doing.
    onRequest: async (request) => {
      const messages = request.body?.messages ?? [];
      if (messages.length !== 1) return;
      const first = firstUserText(messages);
      if (first === "count the files") {
        await untilLogged(log, "the lead's first turn", (e) => leadTurnsEnded(e) >= 1 || undefined);
      }
      if (first === "edit c.txt") {
        await untilLogged(
          log,
          "the lead's answer to bob",
          (e) => leadTurnsEnded(e) >= 2 || undefined,
        );
      }
    },
  });
  try {
    const env = teamEnv(fake.url, { REIN_SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS) });
    // After approval alice runs in the lead's mode: acceptEdits lets her write headless.
    const args = ["-p", "run the team", "--workspace", path, "--permission-mode", "acceptEdits"];
    const out = await runCli(args, { env });
    assert.equal(out.code, 0, out.stderr);
    const events = await readLog(log);

    // Three teammates, each in a process of its own, and none outlives the lead's.
    const started = eventsOf(events, "agent.started");
    assert.deepEqual(started.map((e) => [e.agent, e.data.restart]).sort(), [
      ["alice", 0],
      ["bob", 0],
      ["carol", 0],
    ]);
    assert.equal(new Set(teammatePids(events)).size, 3);
    for (const pid of teammatePids(events)) assert.ok(!alive(pid), `teammate ${pid} outlived -p`);
    // Each teammate's own process asked the model: its requests are recorded under its name.
    for (const name of ["alice", "bob", "carol"]) {
      assert.ok(events.some((e) => e.type === "model.requested" && e.agent === name), name);
    }

    // Bob's mail reached the lead while it was idle, and woke it: a turn on that mail alone.
    const bobMail = eventsOf(events, "mail.sent").find((e) => e.data.from === "bob");
    assert.ok(bobMail !== undefined);
    assert.deepEqual(bobMail.data.recipients, ["lead"]);
    const leadTurn = events.filter((e) =>
      e.agent === "lead" && (e.type === "turn.started" || e.type === "turn.ended")
    );
    assert.equal(leadTurn.filter((e) => e.seq < bobMail.seq).at(-1)?.type, "turn.ended");
    const woke = eventsOf(events, "arrival.injected").filter((e) =>
      e.agent === "lead" && e.data.text.includes("bob: 3 files")
    );
    assert.equal(woke.length, 1, "bob's mail reached the lead once");
    assert.ok(woke[0]!.seq > bobMail.seq);
    assert.ok(leadTurn.some((e) => e.type === "turn.started" && e.seq > bobMail.seq));
    const answered = fake.requests.filter((r) =>
      firstUserText(r.body?.messages ?? []) === "run the team" &&
      mailIn(r).some((letter) => letter.text.includes("bob: 3 files"))
    );
    assert.equal(answered.length, 1);

    // Alice: her write refused by the plan gate before approval (it never started), her first
    // plan rejected with the feedback as its result, the second approved, then the write done.
    const completed = new Map(
      eventsOf(events, "tool.completed").map((e) => [e.data.callId, e]),
    );
    assert.equal(completed.get("toolu_w1")?.agent, "alice");
    assert.equal(completed.get("toolu_w1")?.data.outcome, "denied");
    assert.match(completed.get("toolu_w1")?.data.content ?? "", /Plan mode: you may only read/);
    assert.ok(!eventsOf(events, "tool.requested").some((e) => e.data.callId === "toolu_w1"));
    assert.match(
      completed.get("toolu_plan1")?.data.content ?? "",
      /^\[Plan Rejected\] add a test first/,
    );
    assert.match(completed.get("toolu_plan2")?.data.content ?? "", /^\[Plan Approved\]/);
    assert.equal(completed.get("toolu_w2")?.data.isError, false);
    assert.equal(await Deno.readTextFile(join(path, "c.txt")), "done\n");
    const plans = eventsOf(events, "protocol.requested").filter((e) =>
      e.data.kind === "plan_approval"
    );
    assert.deepEqual(plans.map((e) => [e.agent, e.data.id]), [
      ["alice", "toolu_plan1"],
      ["alice", "toolu_plan2"],
    ]);

    // Shutdown: alice and bob approve the protocol's request, carol never answers and is stopped
    // when the timeout expires, recorded as forced.
    assert.deepEqual(
      eventsOf(events, "protocol.answered")
        .filter((e) => e.data.id.startsWith("toolu_stop_"))
        .map((e) => [e.agent, e.data.id, e.data.approve])
        .sort(),
      [["alice", "toolu_stop_alice", true], ["bob", "toolu_stop_bob", true]],
    );
    assert.deepEqual(
      eventsOf(events, "protocol.expired").map((e) => [e.data.id, e.data.timeoutMs, e.data.forced]),
      [["toolu_stop_carol", SHUTDOWN_TIMEOUT_MS, true]],
    );
    assert.deepEqual(
      eventsOf(events, "agent.stopped").map((e) => [e.agent, e.data]).sort(),
      [
        ["alice", { reason: "shutdown" }],
        ["bob", { reason: "shutdown" }],
        ["carol", { reason: "shutdown", forced: true }],
      ],
    );
    // No teammate crashed or was started again.
    assert.deepEqual(eventsOf(events, "agent.exited"), []);

    const team = await runCli(["team", log, "--json"]);
    assert.equal(team.code, 0, team.stderr);
    const roster = JSON.parse(team.stdout) as { name: string; status: string }[];
    assert.deepEqual(roster.map((entry) => [entry.name, entry.status]), [
      ["alice", "stopped"],
      ["bob", "stopped"],
      ["carol", "stopped"],
    ]);

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
