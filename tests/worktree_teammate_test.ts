/**
 * A teammate working in a worktree, end to end in a real git repository against the fake model
 * (issue 24's "Done when"): teammate tina enters worktree a; her process is started again with
 * Deno flags for it (its exit 75 is no crash); from a she cannot read worktree b through her file
 * tools (rein's confinement), through bash (the bwrap sandbox hides b) or through Deno's own check
 * (her recorded flags give NotCapable on b, and allow a). A teammate whose claim of a task bound
 * to a worktree moved it there, SIGKILLed mid-command, is started again in that worktree with
 * the same flags, keeps its claim and completes the task once. The logs replay with --verify.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { message, startFakeAnthropic, toolUse } from "../testing/fake_anthropic.ts";
import { firstUserText, lastMessageText, toolResultCount } from "../testing/scenarios.ts";
import { killProcessesIn } from "../testing/tool_helpers.ts";
import { runCli } from "./_cli.ts";
import { CliProcess } from "./_cli_process.ts";
import { eventsOf, readLog, teamEnv, untilLogged } from "./_team_e2e.ts";
import { gitRepo } from "./_worktree_repo.ts";

/**
 * What a Deno process with `flags` gets for each of `tries` (JavaScript expressions): `ok` or
 * the error's name.
 */
export async function underFlags(
  flags: readonly string[],
  tries: readonly string[],
): Promise<string[]> {
  const dir = await Deno.makeTempDir({ prefix: "rein-worktree-probe-" });
  const file = join(dir, "probe.ts");
  await Deno.writeTextFile(
    file,
    `const tries = [${tries.map((t) => `() => ${t}`).join(",\n")}];
    console.log(JSON.stringify(tries.map((f) => {
      try { f(); return "ok"; } catch (e) { return e.name; }
    })));`,
  );
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", ...flags, file],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    assert.ok(text !== "", new TextDecoder().decode(out.stderr));
    return JSON.parse(text);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** tina's calls, one a round, after her first turn's prompt. */
function tinaCalls(path: string) {
  return [
    toolUse("toolu_enter", "enter_worktree", { name: "a" }),
    toolUse("toolu_r1", "read_file", { path: "../b/README.md" }),
    toolUse("toolu_r2", "read_file", { path: join(path, ".claude/worktrees/b/README.md") }),
    toolUse("toolu_s1", "bash", { command: "pwd; ls ../b; cat ../b/README.md; echo end" }),
    toolUse("toolu_w1", "write_file", { path: "by_tina.txt", content: "tina was here\n" }),
  ];
}

Deno.test("a teammate in worktree a is started again with flags for it and cannot read worktree b: file tools, bash and Deno's check; replayed", async () => {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-wt-teammate-" }));
  const log = join(path, ".rein", "events.jsonl");
  await gitRepo(path);
  const calls = tinaCalls(path);
  await using fake = await startFakeAnthropic({
    script: (request) => {
      const first = firstUserText(request.body?.messages ?? []);
      const last = lastMessageText(request);
      if (first === "work") {
        if (last.includes("shutdown_request")) {
          return message([toolUse("toolu_bye", "respond_shutdown", { approve: true })]);
        }
        const call = calls[toolResultCount(request.body)];
        return message(call === undefined ? "Done in a." : [call]);
      }
      if (last === "go") return message([toolUse("toolu_b", "create_worktree", { name: "b" })]);
      if (last.startsWith("toolu_b ")) {
        return message([toolUse("toolu_tina", "spawn_teammate", { name: "tina", prompt: "work" })]);
      }
      return message("Tina is at work.");
    },
  });
  try {
    const out = await runCli([
      "-p",
      "go",
      "--workspace",
      path,
      "--permission-mode",
      "bypassPermissions",
    ], { env: teamEnv(fake.url, { REIN_SHUTDOWN_TIMEOUT_MS: "300" }) });
    assert.equal(out.code, 0, out.stderr);
    const events = await readLog(log);
    const tina = new Map(
      eventsOf(events, "tool.completed").filter((e) => e.agent === "tina").map((e) => [
        e.data.callId,
        e.data,
      ]),
    );
    const a = join(path, ".claude/worktrees/a");
    const b = join(path, ".claude/worktrees/b");
    assert.equal(tina.get("toolu_enter")?.isError, false, tina.get("toolu_enter")?.content ?? "");
    // Started again for worktree a, not as a crash.
    const starts = eventsOf(events, "agent.started").filter((e) => e.agent === "tina");
    assert.deepEqual(starts.map((e) => e.data.restart), [0, 1]);
    assert.deepEqual(eventsOf(events, "agent.exited"), []);
    const moved = eventsOf(events, "agent.moved");
    assert.deepEqual(moved.map((e) => [e.agent, e.data]), [
      ["tina", { cwd: ".claude/worktrees/a", worktree: "a" }],
    ]);
    assert.ok((starts[1]?.seq ?? 0) > (moved[0]?.seq ?? Infinity), "started again after the move");
    // File tools: refused (outside her folder), b's text never shown.
    for (const id of ["toolu_r1", "toolu_r2"]) {
      assert.equal(tina.get(id)?.isError, true, `${id}: ${tina.get(id)?.content}`);
      assert.doesNotMatch(tina.get(id)?.content ?? "", /hello/);
    }
    // Bash: it runs in a, and b is not there.
    const bash = tina.get("toolu_s1")?.content ?? "";
    assert.equal(bash.split("\n")[0], a, bash);
    assert.match(bash, /cat: \.\.\/b\/README\.md: No such file or directory/);
    assert.doesNotMatch(bash, /hello/);
    assert.match(bash, /end/);
    assert.equal(await Deno.readTextFile(join(a, "by_tina.txt")), "tina was here\n");
    // Deno's own check, under the flags recorded for her process in a.
    const flags = starts[1]?.data.process.flags ?? [];
    const q = (file: string) => JSON.stringify(file);
    assert.deepEqual(
      await underFlags(flags, [
        `Deno.readTextFileSync(${q(join(b, "README.md"))})`,
        `Deno.readDirSync(${q(b)})`,
        `Deno.writeTextFileSync(${q(join(b, "x.txt"))}, "x")`,
        `Deno.readTextFileSync(${q(join(a, "README.md"))})`,
        `Deno.writeTextFileSync(${q(join(a, "x.txt"))}, "x")`,
      ]),
      ["NotCapable", "NotCapable", "NotCapable", "ok", "ok"],
    );
    // Her first process's flags were the workspace's (it had not moved yet).
    assert.ok(!(starts[0]?.data.process.flags ?? []).some((f) => f.startsWith("--deny-read")));

    const replay = await runCli(["replay", "--verify", "--workspace", path]);
    assert.equal(replay.code, 0, replay.stdout + replay.stderr);
    assert.doesNotMatch(replay.stdout, /diverges/);
  } finally {
    killProcessesIn(path);
    await Deno.remove(path, { recursive: true });
  }
});

/** Lines of the file at `file` (none when it does not exist yet). */
async function lines(file: string): Promise<string[]> {
  return (await Deno.readTextFile(file).catch(() => "")).split("\n").filter(Boolean);
}

const JOB = "echo run >> counter.txt; sleep 30; echo finished >> counter.txt";

Deno.test("a teammate killed mid-task in its task's worktree is started again there, its claim kept, the task completed once; replayed", async () => {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-wt-kill-" }));
  const log = join(path, ".rein", "events.jsonl");
  const a = join(path, ".claude/worktrees/a");
  await gitRepo(path);
  await using fake = await startFakeAnthropic({
    script: (request) => {
      const first = firstUserText(request.body?.messages ?? []);
      const last = lastMessageText(request);
      if (first === "take task 1") {
        if (last.includes("shutdown_request")) {
          return message([toolUse("toolu_bye", "respond_shutdown", { approve: true })]);
        }
        if (last === "take task 1") {
          return message([toolUse("toolu_claim", "claim_task", { task_id: 1 })]);
        }
        if (last.startsWith("toolu_claim ")) {
          return message([toolUse("toolu_job", "bash", { command: JOB })]);
        }
        if (last.startsWith("toolu_job ")) {
          return message([toolUse("toolu_done", "complete_task", { task_id: 1 })]);
        }
        return message("Task 1 done.");
      }
      if (last === "go") {
        return message([toolUse("toolu_task", "create_task", { subject: "A", description: "a" })]);
      }
      if (last.startsWith("toolu_task ")) {
        return message([toolUse("toolu_wt", "create_worktree", { name: "a", task_id: 1 })]);
      }
      if (last.startsWith("toolu_wt ")) {
        return message([
          toolUse("toolu_tina", "spawn_teammate", { name: "tina", prompt: "take task 1" }),
        ]);
      }
      return message("Tina is at work.");
    },
  });
  try {
    const env = teamEnv(fake.url, { REIN_SHUTDOWN_TIMEOUT_MS: "300" });
    const args = ["-p", "go", "--workspace", path, "--permission-mode", "bypassPermissions"];
    await using lead = new CliProcess(args, env);
    // Killed in the middle of its command, in the worktree its claim moved it to.
    const deadline = Date.now() + 60_000;
    while ((await lines(join(a, "counter.txt"))).length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const before = await untilLogged(
      log,
      "tina's process in worktree a",
      (events) => eventsOf(events, "agent.started").filter((e) => e.agent === "tina")[1],
      () => lead.running,
    );
    Deno.kill(before.data.process.pid, "SIGKILL");

    const out = await lead.output;
    assert.equal(out.code, 0, out.stderr);
    const events = await readLog(log);
    const starts = eventsOf(events, "agent.started").filter((e) => e.agent === "tina");
    assert.deepEqual(starts.map((e) => e.data.restart), [0, 1, 2]);
    assert.deepEqual(
      eventsOf(events, "agent.exited").map((e) => [e.agent, e.data.signal]),
      [["tina", "SIGKILL"]],
    );
    // Started again in the same worktree: the same flags as after its move, writing only a.
    const flags = starts[2]?.data.process.flags ?? [];
    assert.deepEqual(flags, starts[1]?.data.process.flags);
    assert.ok(flags.some((flag) => flag.startsWith(`--allow-write=${a},`)), flags.join(" "));
    // (No other worktree exists here, so none is denied by name: see cli/_teammate_flags.ts.)
    // The claim kept (claimed once, never released), the command never run twice, done once.
    assert.deepEqual(
      eventsOf(events, "task.claimed").map((e) => [e.agent, e.data.id]),
      [["tina", 1]],
    );
    assert.deepEqual(eventsOf(events, "task.released"), []);
    assert.deepEqual(
      eventsOf(events, "task.completed").map((e) => [e.agent, e.data.id]),
      [["tina", 1]],
    );
    assert.deepEqual(await lines(join(a, "counter.txt")), ["run"]);
    assert.deepEqual(
      eventsOf(events, "agent.moved").map((e) => [e.agent, e.data]),
      [["tina", { cwd: ".claude/worktrees/a", worktree: "a" }]],
    );
    // The roster says where she works.
    const team = await runCli(["team", "--json", "--workspace", path]);
    const roster = JSON.parse(team.stdout) as { name: string; cwd: string | null }[];
    assert.deepEqual(roster.map((entry) => [entry.name, entry.cwd]), [[
      "tina",
      ".claude/worktrees/a",
    ]]);
    const replay = await runCli(["replay", "--verify", "--workspace", path]);
    assert.equal(replay.code, 0, replay.stdout + replay.stderr);
    assert.doesNotMatch(replay.stdout, /diverges/);
  } finally {
    killProcessesIn(path);
    await Deno.remove(path, { recursive: true });
  }
});
