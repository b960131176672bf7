/**
 * Issue 9's scripted session: 30 rounds of the lead with a todo list, a loaded skill, project
 * instructions and two subagents at once, killed while a subagent runs a command, resumed, and
 * replayed with --verify. No completed tool call runs twice.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { CliProcess } from "./_cli_process.ts";
import { runCli } from "./_cli.ts";
import { startFakeAnthropic } from "../testing/fake_anthropic.ts";
import { LEAD, longSession, ROUNDS } from "../testing/long_session.ts";

Deno.test("a 30-round session with todos, a skill, memory and two subagents survives a kill mid-subagent and replays", async () => {
  const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-long-" }));
  try {
    await Deno.writeTextFile(join(workspace, "CLAUDE.md"), "Keep the report short.\n");
    await using fake = await startFakeAnthropic({ script: longSession });
    const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-fake-long-session" };
    const flags = ["--permission-mode", "bypassPermissions", "--workspace", workspace];
    const log = join(workspace, ".rein", "events.jsonl");
    const lines = async () =>
      (await Deno.readTextFile(log).catch(() => "")).split("\n").slice(0, -1)
        .map((line) => JSON.parse(line));

    await using first = new CliProcess(["agent", "-p", LEAD, ...flags], env);
    const deadline = Date.now() + 20_000;
    // The worker's command has written its line and sleeps: it is running when rein dies.
    const midCommand = async () =>
      (await Deno.readTextFile(join(workspace, "out.txt")).catch(() => "")).includes("child");
    while (!(await midCommand())) {
      if (!first.running) assert.fail(`The run ended early: ${(await first.output).stderr}`);
      assert.ok(Date.now() < deadline, "the worker child never started its command");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await first.kill();

    const resumed = await runCli(["agent", "--continue", "-p", ...flags], { env });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(resumed.stdout.trim(), "The report is done.");

    const events = await lines();
    const requested = events.filter((e) => e.type === "tool.requested").map((e) => e.data.callId);
    assert.equal(new Set(requested).size, requested.length, "no call was started twice");
    const completed = events.filter((e) => e.type === "tool.completed");
    assert.equal(
      new Set(completed.map((e) => e.data.callId)).size,
      completed.length,
      "no call has two results",
    );
    const worker = completed.find((e) => e.data.callId === "toolu_worker_bash");
    assert.equal(worker?.data.outcome, "interrupted", "the killed command is not run again");
    const out = (await Deno.readTextFile(join(workspace, "out.txt"))).trim().split("\n");
    assert.equal(out.filter((line) => line === "child").length, 1);
    assert.equal(new Set(out).size, out.length, "every command ran once");
    const leadRounds = events.filter((e) => e.type === "model.responded" && e.agent === "lead");
    assert.equal(leadRounds.length, ROUNDS);
    assert.ok(events.some((e) => e.type === "agent.spawned" && e.data.type === "Explore"));
    assert.ok(events.some((e) => e.type === "todo.updated"));
    const system = JSON.stringify(fake.requests.at(-1)?.body?.system);
    assert.match(system, /Keep the report short/);
    assert.match(system, /investigate-a-run/);

    const replay = await runCli(["replay", "--verify", "--quiet", "--workspace", workspace]);
    assert.equal(replay.code, 0, replay.stdout + replay.stderr);
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
});
