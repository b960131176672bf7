/**
 * The whole harness at once (issue 25, s20): testing/s20_scenario.ts runs one `rein -p` session
 * in a git repository that uses the in-process mechanisms, memory, MCP tools from
 * server-everything and two teammate processes (one in plan mode, one claiming a task bound to a
 * worktree by itself); each mechanism leaves its events in the log, and the log replays with
 * --verify.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  ALICE_WRITE,
  CONVENTIONS,
  MEMORY_INDEX,
  runS20Scenario,
  S20_ANSWER,
  S20_MECHANISMS,
  SAVED_INDEX_LINE,
  SAVED_TOPIC,
  TEAM_TOPIC,
} from "../testing/s20_scenario.ts";
import { killProcessesIn } from "../testing/tool_helpers.ts";
import { readLogLines, runCli } from "./_cli.ts";
import { alive, eventsOf, readLog, teammatePids } from "./_team_e2e.ts";
import { git } from "./_worktree_repo.ts";

type Line = Awaited<ReturnType<typeof readLogLines>>[number];

function result(log: readonly Line[], callId: string): Record<string, unknown> | undefined {
  return log.find((e) => e.type === "tool.completed" && e.data.callId === callId)?.data;
}

function decision(log: readonly Line[], callId: string): Record<string, unknown> | undefined {
  return log.find((e) => e.type === "permission.decided" && e.data.callId === callId)?.data;
}

Deno.test("s20: one session uses the in-process mechanisms, memory, an MCP server, two teammates with mail, plan approval, shutdown and auto-claim in a worktree; each leaves its events, and it replays with --verify", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-s20-test-" }));
  try {
    const run = await runS20Scenario(dir);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim().split("\n").at(-1), S20_ANSWER);
    const log = await readLogLines(run.log);
    const types = new Set(log.map((e) => e.type));
    for (const [mechanism, expected] of Object.entries(S20_MECHANISMS)) {
      for (const type of expected) {
        assert.ok(types.has(type), `${mechanism}: no ${type} event in the log`);
      }
    }
    assert.equal(new Set(log.map((e) => e.session)).size, 1, "one session");

    // Memory: CLAUDE.md and the file it imports, the path rule (recorded apart) and the memory
    // index were read at the start; the skill too, and it was expanded when loaded.
    const files = log.find((e) => e.type === "session.started")?.data.files as {
      source: string;
      path: string;
      text: string;
    }[];
    const recorded = (source: string, path: string) =>
      files.find((f) => f.source === source && f.path === join(run.workspace, path))?.text;
    assert.match(recorded("memory", "CLAUDE.md") ?? "", /everything at once/);
    assert.equal(recorded("memory", "docs/conventions.md"), CONVENTIONS);
    assert.match(recorded("memory.rule", ".claude/rules/txt.md") ?? "", /paths:/);
    assert.equal(recorded("memory.index", ".rein/memory/MEMORY.md"), MEMORY_INDEX);
    assert.ok(files.some((f) => f.source === "skills" && f.path.endsWith("greet/SKILL.md")));
    assert.match(String(result(log, "toolu_skill")?.content), /Say hello to Ada/);
    // Every agent's system prompt carries the instructions (with the import) and the index; the
    // path rule is not in it.
    assert.deepEqual(Object.keys(run.systemPrompts).sort(), ["alice", "bob", "lead"]);
    for (const [agent, system] of Object.entries(run.systemPrompts)) {
      assert.ok(system.includes("Reviews go in review.md"), `${agent}: the imported file`);
      assert.ok(system.includes(MEMORY_INDEX.trim()), `${agent}: the memory index`);
      assert.ok(!system.includes("Text files here are generated"), `${agent}: no path rule yet`);
    }
    // The lead read the topic file the index names; reading big.txt brought the path rule in,
    // once; the lead saved a topic file and its line in the index.
    assert.match(String(result(log, "toolu_memory")?.content), new RegExp(TEAM_TOPIC.trim()));
    const rules = log.filter((e) =>
      e.type === "reminder.added" && String(e.data.source).startsWith("memory.rule:")
    );
    assert.equal(rules.length, 1);
    assert.equal(rules[0]?.agent, "lead");
    assert.match(String(rules[0]?.data.text), /Reading big\.txt brought in the rule/);
    const memory = join(run.workspace, ".rein", "memory");
    assert.equal(await Deno.readTextFile(join(memory, "context.md")), SAVED_TOPIC);
    assert.equal(
      await Deno.readTextFile(join(memory, "MEMORY.md")),
      `${MEMORY_INDEX}${SAVED_INDEX_LINE}\n`,
    );

    // A rule allowed echo (and the hook saw it), a rule denied rm, the mode allowed the write.
    assert.equal(decision(log, "toolu_echo")?.decision, "allow");
    assert.equal(decision(log, "toolu_rm")?.decision, "deny");
    assert.match(String(decision(log, "toolu_rm")?.reason), /Bash\(rm \*\)/);
    assert.equal(decision(log, "toolu_write")?.decision, "allow");
    assert.equal(await Deno.readTextFile(`${run.workspace}/notes/plan.md`), "# Plan\n");
    const hooks = log.filter((e) => e.type === "hook.ran" && e.data.hookEvent === "PreToolUse");
    assert.ok(hooks.length >= 2, "the PreToolUse hook ran for the bash calls");

    // The 529 was retried, the subagent answered, the job's output was read, the context was
    // compacted, server-everything's tool answered.
    assert.equal(log.find((e) => e.type === "model.failed")?.data.status, 529);
    assert.match(String(result(log, "toolu_sub")?.content), /^Found the markdown files\./);
    assert.match(String(result(log, "toolu_job")?.content), /job-done/);
    assert.ok(log.some((e) => e.type === "compaction.completed" && e.data.trigger === "auto"));
    assert.equal(result(log, "toolu_mcp")?.content, "The sum of 2 and 3 is 5.");

    // The team: alice and bob, each in processes of its own, none outliving the run, none
    // crashed.
    const events = await readLog(run.log);
    const alice = events.filter((e) => e.agent === "alice");
    const bob = events.filter((e) => e.agent === "bob");
    assert.deepEqual(
      eventsOf(events, "agent.spawned").flatMap((e) =>
        e.data.teammate ? [[e.agent, e.data.teammate.role, e.data.teammate.mode ?? null]] : []
      ),
      [["alice", "writer", "plan"], ["bob", "reviewer", null]],
    );
    const pids = teammatePids(events);
    assert.equal(new Set(pids).size, pids.length);
    for (const pid of pids) assert.ok(!alive(pid), `teammate ${pid} outlived -p`);
    assert.deepEqual(eventsOf(events, "agent.exited"), []);
    for (const name of ["alice", "bob"]) {
      assert.ok(events.some((e) => e.type === "model.requested" && e.agent === name), name);
    }

    // Plan approval: alice's write refused by the plan gate before any plan, her plan sent to
    // the lead and approved by it, and only then the task claimed and written.
    assert.equal(result(log, "toolu_alice_early")?.outcome, "denied");
    assert.match(String(result(log, "toolu_alice_early")?.content), /Plan mode: you may only read/);
    const plans = eventsOf(events, "protocol.requested").filter((e) =>
      e.data.kind === "plan_approval"
    );
    assert.deepEqual(plans.map((e) => [e.agent, e.data.id, e.data.to]), [
      ["alice", "toolu_alice_plan", "lead"],
    ]);
    const approval = eventsOf(events, "protocol.answered").find((e) =>
      e.data.id === "toolu_alice_plan"
    );
    assert.deepEqual([approval?.agent, approval?.data.approve], ["lead", true]);
    assert.match(String(result(log, "toolu_alice_plan")?.content), /^\[Plan Approved\]/);
    const aliceClaim = eventsOf(alice, "task.claimed");
    assert.deepEqual(aliceClaim.map((e) => e.data.id), [2]);
    assert.ok(aliceClaim[0]!.seq > approval!.seq, "alice claimed after her plan was approved");
    assert.equal(result(log, "toolu_alice_write")?.isError, false);
    assert.equal(
      await Deno.readTextFile(join(run.workspace, ALICE_WRITE.path)),
      ALICE_WRITE.content,
    );

    // Auto-claim in a worktree: bob claimed the review task bound to worktree "review" by
    // himself once alice's task was completed, moved into the worktree in the same append, was
    // started again there, and committed his review on the worktree's branch.
    assert.deepEqual(
      eventsOf(events, "worktree.created").map((e) => [e.data.name, e.data.taskId]),
      [["review", 3]],
    );
    const bobClaim = eventsOf(bob, "task.claimed");
    assert.deepEqual(bobClaim.map((e) => e.data.id), [3]);
    const aliceDone = eventsOf(alice, "task.completed").find((e) => e.data.id === 2);
    assert.ok(aliceDone !== undefined && bobClaim[0]!.seq > aliceDone.seq);
    const move = events.find((e) => e.seq === bobClaim[0]!.seq + 1);
    assert.deepEqual(move?.type === "agent.moved" ? [move.agent, move.data] : move?.type, [
      "bob",
      { cwd: ".claude/worktrees/review", worktree: "review" },
    ]);
    assert.deepEqual(eventsOf(bob, "agent.started").map((e) => e.seq > bobClaim[0]!.seq), [
      false,
      true,
    ]);
    for (const name of ["alice", "bob"]) {
      const claims = events.filter((e) =>
        e.agent === name && e.type === "tool.requested" && e.data.name === "claim_task"
      );
      assert.deepEqual(claims, [], `${name} called no claim_task`);
    }
    assert.ok(eventsOf(bob, "task.completed").some((e) => e.data.id === 3));
    const review = join(run.workspace, ".claude", "worktrees", "review", "review.md");
    assert.match(await Deno.readTextFile(review), /The checklist is fine/);
    await assert.rejects(Deno.stat(join(run.workspace, "review.md")), Deno.errors.NotFound);
    assert.match(
      await git(run.workspace, "log", "--format=%s", "worktree-review"),
      /^Review the checklist\n/,
    );

    // Bob's one-shot cron fired once the clock passed its minute and woke him (idle) with its
    // prompt; he mailed the lead.
    assert.deepEqual(eventsOf(bob, "cron.fired").map((e) => e.data.prompt), ["Check the notes"]);
    assert.ok(
      bob.some((e) => e.type === "user.prompted" && e.data.text === "[Scheduled] Check the notes"),
    );

    // Mail: bob's message and both completions reached the lead.
    const toLead = eventsOf(events, "mail.sent").filter((e) => e.data.recipients.includes("lead"));
    for (
      const [from, text] of [
        ["bob", "bob: notes checked"],
        ["alice", "alice completed task #2"],
        ["bob", "bob completed task #3"],
      ]
    ) {
      const sent = toLead.find((e) => e.data.from === from && e.data.content.includes(text!));
      assert.ok(sent !== undefined, `${from}'s mail "${text}"`);
      assert.ok(
        eventsOf(events, "arrival.injected").some((e) =>
          e.agent === "lead" && e.data.source === "mail" &&
          // One arrival carries all the mail that came before it: its key names each.
          String(e.data.key).split(",").includes(sent.data.id)
        ),
        `"${text}" reached the lead`,
      );
    }

    // Shutdown: both approved the lead's request and stopped; none expired.
    assert.deepEqual(
      eventsOf(events, "protocol.answered")
        .filter((e) => e.data.id.startsWith("toolu_stop_"))
        .map((e) => [e.agent, e.data.id, e.data.approve])
        .sort(),
      [["alice", "toolu_stop_alice", true], ["bob", "toolu_stop_bob", true]],
    );
    assert.deepEqual(eventsOf(events, "protocol.expired"), []);
    assert.deepEqual(
      eventsOf(events, "agent.stopped").map((e) => [e.agent, e.data]).sort(),
      [["alice", { reason: "shutdown" }], ["bob", { reason: "shutdown" }]],
    );

    const replay = await runCli(["replay", run.log, "--verify", "--quiet"], { env: run.env });
    assert.equal(replay.code, 0, replay.stdout + replay.stderr);
    assert.doesNotMatch(replay.stdout, /✗/);
  } finally {
    killProcessesIn(`${dir}/work`);
    await Deno.remove(dir, { recursive: true });
  }
});
