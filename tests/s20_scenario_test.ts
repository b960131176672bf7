/**
 * The whole harness at once (issue 25, s20): testing/s20_scenario.ts runs one `rein -p` session
 * that uses the in-process mechanisms, MCP tools from server-everything and a teammate process;
 * each leaves its events in the log, and the log replays with --verify.
 */
import assert from "node:assert/strict";
import { runS20Scenario, S20_ANSWER, S20_MECHANISMS } from "../testing/s20_scenario.ts";
import { killProcessesIn } from "../testing/tool_helpers.ts";
import { readLogLines, runCli } from "./_cli.ts";

type Line = Awaited<ReturnType<typeof readLogLines>>[number];

function result(log: readonly Line[], callId: string): Record<string, unknown> | undefined {
  return log.find((e) => e.type === "tool.completed" && e.data.callId === callId)?.data;
}

function decision(log: readonly Line[], callId: string): Record<string, unknown> | undefined {
  return log.find((e) => e.type === "permission.decided" && e.data.callId === callId)?.data;
}

Deno.test("s20: one session uses the in-process mechanisms, an MCP server and a teammate; each leaves its events, and it replays with --verify", async () => {
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

    // Memory and the skill were read at the start; the skill was expanded when loaded.
    const files = log.find((e) => e.type === "session.started")?.data.files as {
      source: string;
      path: string;
      text: string;
    }[];
    assert.ok(files.some((f) => f.source === "memory" && f.text.includes("everything at once")));
    assert.ok(files.some((f) => f.source === "skills" && f.path.endsWith("greet/SKILL.md")));
    assert.match(String(result(log, "toolu_skill")?.content), /Say hello to Ada/);

    // A rule allowed echo (and the hook saw it), a rule denied rm, the mode allowed the write.
    assert.equal(decision(log, "toolu_echo")?.decision, "allow");
    assert.equal(decision(log, "toolu_rm")?.decision, "deny");
    assert.match(String(decision(log, "toolu_rm")?.reason), /Bash\(rm \*\)/);
    assert.equal(decision(log, "toolu_write")?.decision, "allow");
    assert.equal(await Deno.readTextFile(`${run.workspace}/notes/plan.md`), "# Plan\n");
    const hooks = log.filter((e) => e.type === "hook.ran" && e.data.hookEvent === "PreToolUse");
    assert.ok(hooks.length >= 2, "the PreToolUse hook ran for the bash calls");

    // The 529 was retried, the subagent answered, the job's output was read.
    assert.equal(log.find((e) => e.type === "model.failed")?.data.status, 529);
    assert.match(String(result(log, "toolu_sub")?.content), /^Found the markdown files\./);
    assert.match(String(result(log, "toolu_job")?.content), /job-done/);
    assert.ok(log.some((e) => e.type === "compaction.completed" && e.data.trigger === "auto"));

    // server-everything's tool answered; bob claimed the ready task by himself (no claim_task
    // call of his), completed it, and approved the lead's shutdown request.
    assert.equal(result(log, "toolu_mcp")?.content, "The sum of 2 and 3 is 5.");
    const bob = log.filter((e) => e.agent === "bob");
    assert.deepEqual(bob.filter((e) => e.type === "task.claimed").map((e) => e.data.id), [2]);
    assert.ok(!bob.some((e) => e.type === "tool.requested" && e.data.name === "claim_task"));
    assert.ok(bob.some((e) => e.type === "task.completed" && e.data.id === 2));
    assert.deepEqual(bob.find((e) => e.type === "protocol.answered")?.data.approve, true);
    assert.deepEqual(bob.find((e) => e.type === "agent.stopped")?.data, { reason: "shutdown" });
    // Bob's one-shot cron fired once the clock passed its minute, and joined his next request.
    assert.deepEqual(bob.filter((e) => e.type === "cron.fired").map((e) => e.data.prompt), [
      "Check the notes",
    ]);
    assert.ok(bob.some((e) =>
      e.type === "arrival.injected" && e.data.source === "cron" &&
      e.data.text === "[Scheduled] Check the notes"
    ));

    const replay = await runCli(["replay", run.log, "--verify", "--quiet"], { env: run.env });
    assert.equal(replay.code, 0, replay.stdout + replay.stderr);
    assert.doesNotMatch(replay.stdout, /✗/);
  } finally {
    killProcessesIn(`${dir}/work`);
    await Deno.remove(dir, { recursive: true });
  }
});
