/**
 * Issue 24's "Done when", end to end in a real git repository against the fake model: the lead
 * (`rein -p`) creates three tasks (C waits for A and B) and a worktree for A and for B, spawns two
 * teammates without assigning anything, and waits. Each teammate (a real `rein teammate`
 * process) claims one of A and B by itself, which moves it into that task's worktree (its
 * process started again there), commits its work on the worktree's branch, and completes it; C
 * unblocks and is claimed (its claimer back in the workspace); the lead merges both branches;
 * the idle teammates stop after REIN_IDLE_TIMEOUT_MS. `-p` exits 0 and `replay --verify` passes.
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
import { eventsOf, mailIn, readLog, teamEnv, untilLogged } from "./_team_e2e.ts";
import { git, gitRepo } from "./_worktree_repo.ts";

const IDLE_TIMEOUT_MS = 1_500;
const GIT = "git -c user.name=t -c user.email=t@t";

/** A teammate: does the task it claimed (committing in its worktree), then completes it. */
function teammate(request: RecordedRequest) {
  const last = lastMessageText(request);
  if (last.includes("shutdown_request")) {
    return message([toolUse(`toolu_bye_${crypto.randomUUID()}`, "respond_shutdown", {
      approve: true,
    })]);
  }
  const claimed = /claimed task #(\d+) of the task graph by yourself: (\w+)/.exec(last);
  if (claimed) {
    const [, id, subject] = claimed;
    const file = `${subject!.toLowerCase()}.txt`;
    const command = last.includes("git worktree")
      ? `printf '${subject} done\\n' > ${file} && ${GIT} add ${file} && ${GIT} commit -q -m ${file}`
      : `printf '${subject} done\\n' > ${file}`;
    return message([toolUse(`toolu_work_${id}`, "bash", { command })]);
  }
  const worked = /^toolu_work_(\d+) /.exec(last);
  if (worked) {
    return message([
      toolUse(`toolu_done_${worked[1]}`, "complete_task", { task_id: Number(worked[1]) }),
    ]);
  }
  if (last.startsWith("toolu_done_")) return message("Completed.");
  return message("Waiting for work.");
}

/** The lead: the graph, the worktrees, the team; the merge once C is done. */
function lead(request: RecordedRequest) {
  const last = lastMessageText(request);
  if (last === "ship it") {
    return message([
      toolUse("toolu_a", "create_task", { subject: "Alpha", description: "alpha.txt" }),
      toolUse("toolu_b", "create_task", { subject: "Beta", description: "beta.txt" }),
      toolUse("toolu_c", "create_task", { subject: "Gamma", blockedBy: [1, 2] }),
    ]);
  }
  if (last.startsWith("toolu_a ")) {
    return message([
      toolUse("toolu_wt_a", "create_worktree", { name: "a", task_id: 1 }),
      toolUse("toolu_wt_b", "create_worktree", { name: "b", task_id: 2 }),
    ]);
  }
  if (last.startsWith("toolu_wt_a ")) {
    return message([
      toolUse("toolu_alice", "spawn_teammate", { name: "alice", prompt: "wait for work" }),
      toolUse("toolu_bob", "spawn_teammate", { name: "bob", prompt: "wait for work" }),
    ]);
  }
  if (mailIn(request).some((letter) => letter.text.includes("completed task #3"))) {
    return message([toolUse("toolu_merge", "bash", {
      command: `${GIT} merge -q --no-edit worktree-a && ${GIT} merge -q --no-edit worktree-b`,
    })]);
  }
  if (last.startsWith("toolu_merge ")) return message("Merged A and B.");
  return message("Noted.");
}

const stoppedIdle = (events: Envelope[]) =>
  eventsOf(events, "agent.stopped").filter((e) => e.data.reason === "idle").length;

Deno.test("the lead's two teammates claim A and B by themselves, each committing in its task's worktree; C unblocks and is claimed; the lead merges; idle teammates time out; replay --verify passes", async () => {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-autonomy-wt-" }));
  await gitRepo(path);
  const log = join(path, ".rein", "events.jsonl");
  await using fake = await startFakeAnthropic({
    script: (request) =>
      firstUserText(request.body?.messages ?? []) === "wait for work"
        ? teammate(request)
        : lead(request),
    // The lead's last answer waits for both teammates to stop by themselves.
    onRequest: async (request) => {
      if (lastMessageText(request).startsWith("toolu_merge ")) {
        await untilLogged(log, "both idle stops", (e) => stoppedIdle(e) >= 2 || undefined);
      }
    },
  });
  try {
    const env = teamEnv(fake.url, {
      REIN_IDLE_TIMEOUT_MS: String(IDLE_TIMEOUT_MS),
      REIN_SHUTDOWN_TIMEOUT_MS: "300",
    });
    const args = ["-p", "ship it", "--workspace", path, "--permission-mode", "bypassPermissions"];
    const out = await runCli(args, { env });
    assert.equal(out.code, 0, out.stderr);
    const events = await readLog(log);

    // A and B claimed by themselves, one each, each claim moving its teammate into the task's
    // worktree in the same append; C claimed once both were completed, its claimer moved back.
    const claims = eventsOf(events, "task.claimed");
    assert.deepEqual(claims.map((e) => e.data.id).sort(), [1, 2, 3]);
    const byTask = new Map(claims.map((e) => [e.data.id, e]));
    assert.notEqual(byTask.get(1)?.agent, byTask.get(2)?.agent);
    const moves = eventsOf(events, "agent.moved");
    for (const [id, tree] of [[1, "a"], [2, "b"]] as const) {
      const claim = byTask.get(id)!;
      const move = events.find((e) => e.seq === claim.seq + 1);
      assert.equal(move?.type, "agent.moved");
      assert.deepEqual(move?.type === "agent.moved" ? [move.agent, move.data] : [], [
        claim.agent,
        { cwd: `.claude/worktrees/${tree}`, worktree: tree },
      ]);
    }
    const completed = eventsOf(events, "task.completed");
    const doneAt = (id: number) => completed.find((e) => e.data.id === id)?.seq ?? Infinity;
    const claimC = byTask.get(3)!;
    assert.ok(claimC.seq > doneAt(1) && claimC.seq > doneAt(2));
    assert.deepEqual(completed.map((e) => e.data.id).sort(), [1, 2, 3]);
    assert.ok(
      moves.some((e) => e.agent === claimC.agent && e.data.cwd === "" && e.seq === claimC.seq + 1),
      "C's claimer moved back to the workspace",
    );
    // Each committed on its worktree's branch; the lead merged both into main.
    assert.match(await git(path, "log", "--format=%s", "worktree-a"), /alpha\.txt/);
    assert.match(await git(path, "log", "--format=%s", "worktree-b"), /beta\.txt/);
    assert.equal(await Deno.readTextFile(join(path, "alpha.txt")), "Alpha done\n");
    assert.equal(await Deno.readTextFile(join(path, "beta.txt")), "Beta done\n");
    assert.equal(await Deno.readTextFile(join(path, "gamma.txt")), "Gamma done\n");
    // Idle with nothing to claim, both stopped by themselves; none crashed.
    assert.deepEqual(
      eventsOf(events, "agent.stopped").map((e) => [e.agent, e.data]).sort(),
      [["alice", { reason: "idle" }], ["bob", { reason: "idle" }]],
    );
    assert.deepEqual(eventsOf(events, "agent.exited"), []);

    const replay = await runCli(["replay", log, "--verify"], { env });
    assert.equal(replay.code, 0, `replay --verify failed:\n${replay.stdout}${replay.stderr}`);
    assert.match(replay.stdout, /all match the log/);
  } finally {
    killProcessesIn(path);
    await Deno.remove(path, { recursive: true });
  }
});
