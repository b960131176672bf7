/**
 * Autonomous teammates (s17) end to end: `rein -p` (the lead) makes a task graph (C waits for A
 * and B) and spawns two teammates without assigning anything, each a real `rein teammate`
 * process against the fake model (routed per agent). Idle after their first turn, the teammates
 * claim A and B by themselves, do them and complete them; completing them mails the lead; C
 * unblocks and is claimed; then, with nothing left, each stops itself after REIN_IDLE_TIMEOUT_MS
 * (`agent.stopped {reason: "idle"}`, not restarted). `-p` exits 0 and `replay --verify` passes.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Envelope } from "../events/event_types.ts";
import { message, startFakeAnthropic, toolUse } from "../testing/fake_anthropic.ts";
import { claimingTeammate, firstUserText, lastMessageText } from "../testing/scenarios.ts";
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

const IDLE_TIMEOUT_MS = 1_500;

const stoppedIdle = (events: Envelope[]) =>
  eventsOf(events, "agent.stopped").filter((e) => e.data.reason === "idle").length;

Deno.test("idle teammate processes claim the ready tasks by themselves, C once A and B are done, mail the lead on each completion, then stop after the idle timeout; -p exits 0 and the log replays with --verify", async () => {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-autonomy-" }));
  const log = join(path, ".rein", "events.jsonl");
  await using fake = await startFakeAnthropic({
    script: (request) => {
      if (firstUserText(request.body?.messages ?? []) === "wait for work") {
        return claimingTeammate(request);
      }
      const last = lastMessageText(request);
      if (last === "split the work") {
        return message([
          toolUse("toolu_a", "create_task", { subject: "Alpha", description: "write alpha.txt" }),
          toolUse("toolu_b", "create_task", { subject: "Beta", description: "write beta.txt" }),
          toolUse("toolu_c", "create_task", { subject: "Gamma", blockedBy: [1, 2] }),
          toolUse("toolu_alice", "spawn_teammate", { name: "alice", prompt: "wait for work" }),
          toolUse("toolu_bob", "spawn_teammate", { name: "bob", prompt: "wait for work" }),
        ]);
      }
      const mail = mailIn(request);
      if (
        mail.some((letter) => letter.text.includes("(Gamma)") && letter.text.includes("completed"))
      ) {
        return message("All three done.");
      }
      return message("Noted.");
    },
    // The lead answers the mail of C's completion only once both teammates stopped by themselves.
    onRequest: async (request) => {
      if (mailIn(request).some((letter) => letter.text.includes("completed task #3"))) {
        await untilLogged(
          log,
          "both teammates' idle stops",
          (e) => stoppedIdle(e) >= 2 || undefined,
        );
      }
    },
  });
  try {
    const env = teamEnv(fake.url, {
      REIN_IDLE_TIMEOUT_MS: String(IDLE_TIMEOUT_MS),
      REIN_SHUTDOWN_TIMEOUT_MS: "300",
    });
    const args = ["-p", "split the work", "--workspace", path, "--permission-mode", "acceptEdits"];
    const out = await runCli(args, { env });
    assert.equal(out.code, 0, out.stderr);
    const events = await readLog(log);

    // Each task claimed once, by a teammate, by itself (no claim_task call): the claim and the
    // arrival that starts its turn are one append.
    const claims = eventsOf(events, "task.claimed");
    assert.deepEqual(claims.map((e) => e.data.id).sort(), [1, 2, 3]);
    assert.ok(claims.every((e) => e.agent === "alice" || e.agent === "bob"));
    assert.ok(!eventsOf(events, "tool.requested").some((e) => e.data.name === "claim_task"));
    for (const claim of claims) {
      const next = events.find((e) => e.seq === claim.seq + 1);
      assert.equal(next?.type, "arrival.injected");
      assert.equal(next?.agent, claim.agent);
    }
    // C only once A and B were completed.
    const completed = eventsOf(events, "task.completed");
    const doneAt = (id: number) => completed.find((e) => e.data.id === id)?.seq ?? Infinity;
    const claimC = claims.find((e) => e.data.id === 3)!;
    assert.ok(claimC.seq > doneAt(1) && claimC.seq > doneAt(2));
    assert.deepEqual(completed.map((e) => e.data.id).sort(), [1, 2, 3]);
    for (const name of ["alpha", "beta", "gamma"]) {
      assert.equal(
        await Deno.readTextFile(join(path, `${name}.txt`)),
        `${name[0]!.toUpperCase()}${name.slice(1)} done\n`,
      );
    }
    // The lead was told by mail what each completion made ready.
    const told = eventsOf(events, "mail.sent").filter((e) => e.data.recipients.includes("lead"));
    assert.equal(told.length, 3);
    assert.equal(
      told.filter((e) => e.data.content.includes("Now ready to claim: #3 (Gamma)")).length,
      1,
    );
    // Both stopped by themselves once idle with nothing to claim; neither restarted or crashed.
    assert.deepEqual(
      eventsOf(events, "agent.stopped").map((e) => [e.agent, e.data]).sort(),
      [["alice", { reason: "idle" }], ["bob", { reason: "idle" }]],
    );
    assert.deepEqual(eventsOf(events, "agent.exited"), []);
    assert.equal(eventsOf(events, "agent.started").length, 2);
    for (const pid of teammatePids(events)) assert.ok(!alive(pid), `teammate ${pid} outlived -p`);

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
