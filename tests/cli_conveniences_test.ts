/** What Claude Code users type without thinking, and what a shell does to a command's output. */
import assert from "node:assert/strict";
import { startFakeAnthropic } from "../testing/fake_anthropic.ts";
import { echo } from "../testing/scenarios.ts";
import { childEnv, CLI, runCli, tempWorkspace } from "./_cli.ts";

const KEY = "sk-ant-api03-CONVENIENCE-0123456789";

Deno.test("rein --help shows the agent's options, not only the commands", async () => {
  const help = await runCli(["--help"]);
  assert.equal(help.code, 0);
  for (const option of ["--print", "--output-format", "--model", "--max-turns", "--resume"]) {
    assert.match(help.stdout, new RegExp(option), option);
  }
  assert.match(help.stdout, /replay/);
});

Deno.test("a prompt given as an argument is the prompt of -p", async () => {
  await using fake = await startFakeAnthropic({ script: echo() });
  await using ws = await tempWorkspace();
  const result = await runCli(["fix the bug", "-p", "--workspace", ws.path], {
    env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY },
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "You said: fix the bug\n");
});

Deno.test("with json output an error before the run is a result object too", async () => {
  await using ws = await tempWorkspace();
  const result = await runCli(["-p", " ", "--output-format", "json", "--workspace", ws.path], {
    env: { ANTHROPIC_API_KEY: KEY },
  });
  assert.equal(result.code, 1);
  const out = JSON.parse(result.stdout);
  assert.equal(out.type, "result");
  assert.equal(out.is_error, true);
  assert.equal(out.subtype, "error_during_execution");
  assert.match(out.result, /Empty prompt/);
  assert.match(result.stderr, /Empty prompt/);
});

Deno.test("sessions, state and replay read the workspace's log by default", async () => {
  await using fake = await startFakeAnthropic({ script: echo() });
  await using ws = await tempWorkspace();
  const fresh = await runCli(["sessions", "--workspace", ws.path]);
  assert.equal(fresh.code, 0, fresh.stderr);
  assert.match(fresh.stdout, /^No sessions yet/);
  const noLog = await runCli(["state", "--workspace", ws.path]);
  assert.equal(noLog.code, 1);
  assert.match(noLog.stderr, /No log at ".*\.rein\/events\.jsonl": run rein in this workspace/);

  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  for (const text of ["one", "two"]) {
    const run = await runCli(["-p", text, "--workspace", ws.path], { env });
    assert.equal(run.code, 0, run.stderr);
  }
  const state = await runCli(["state", "--workspace", ws.path, "--json"]);
  const ids = JSON.parse(state.stdout).sessions.order as string[];
  assert.equal(ids.length, 2);
  const one = await runCli(["state", "--workspace", ws.path, "--session", ids[1]!.slice(0, 8)]);
  assert.equal(one.code, 0, one.stderr);
  assert.match(one.stdout, new RegExp(`session ${ids[1]}`));
  assert.doesNotMatch(one.stdout, new RegExp(`session ${ids[0]}`));
  const replay = await runCli(["replay", "--workspace", ws.path, "--verify", "-q"]);
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

Deno.test("output cut short by a closed pipe ends quietly", async () => {
  await using fake = await startFakeAnthropic({ script: echo() });
  await using ws = await tempWorkspace();
  const big = "x".repeat(200_000);
  const run = await runCli(["-p", "--workspace", ws.path], {
    env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY },
    stdin: big,
  });
  assert.equal(run.code, 0, run.stderr);
  const script = `"${Deno.execPath()}" run -A --quiet "${CLI}" state --workspace "${ws.path}" ` +
    "--json | head -c 10 >/dev/null";
  const shell = await new Deno.Command("bash", {
    args: ["-c", script],
    env: childEnv(),
    stderr: "piped",
  }).output();
  assert.equal(new TextDecoder().decode(shell.stderr), "");
});

Deno.test("--system-prompt, --append-system-prompt and --session-id shape the new session, and replay", async () => {
  await using fake = await startFakeAnthropic({ script: echo() });
  await using ws = await tempWorkspace();
  const id = "0b5f2c1e-7d4a-4c1b-9e2f-3a6d8c7b5e41";
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const result = await runCli([
    "-p",
    "hi",
    "--workspace",
    ws.path,
    "--session-id",
    id,
    "--system-prompt",
    "You are a terse reviewer.",
    "--append-system-prompt",
    "Answer in French.",
    "--output-format",
    "json",
  ], { env });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(JSON.parse(result.stdout).session_id, id);
  const system = fake.requests[0]?.body?.system;
  assert.ok(Array.isArray(system));
  const texts = system.map((block) => block.text);
  assert.equal(texts[0], "You are a terse reviewer.");
  assert.match(texts[1] ?? "", /^Environment:/);
  assert.equal(texts.at(-1), "Answer in French.");
  const again = await runCli(["-p", "hi", "--workspace", ws.path, "--session-id", id], { env });
  assert.equal(again.code, 1);
  assert.match(again.stderr, new RegExp(`Session ${id} already exists`));
  const bad = await runCli(["-p", "hi", "--workspace", ws.path, "--session-id", "nope"], { env });
  assert.match(bad.stderr, /Invalid --session-id "nope": expected a UUID/);
  const replay = await runCli(["replay", "--workspace", ws.path, "--verify", "-q"]);
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

Deno.test("--debug prints every event to stderr as it is appended", async () => {
  await using fake = await startFakeAnthropic({ script: echo() });
  await using ws = await tempWorkspace();
  const result = await runCli(["-p", "hi", "--debug", "--workspace", ws.path], {
    env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY },
  });
  assert.equal(result.code, 0, result.stderr);
  const types = result.stderr.trim().split("\n").filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line).type);
  assert.deepEqual(types, [
    "session.started",
    "user.prompted",
    "turn.started",
    "model.requested",
    "model.responded",
    "turn.ended",
    "session.ended",
  ]);
});

Deno.test("flags that only a new session takes are refused on a resume, naming them", async () => {
  await using ws = await tempWorkspace();
  const result = await runCli(
    ["--continue", "-p", "x", "--effort", "high", "--system-prompt", "s", "--workspace", ws.path],
    { env: { ANTHROPIC_API_KEY: KEY } },
  );
  assert.equal(result.code, 1);
  assert.match(result.stderr, /--effort, --system-prompt are set when a session starts/);
});

Deno.test("--permission-mode takes Claude Code's modes and refuses another, naming them", async () => {
  await using fake = await startFakeAnthropic({ script: echo() });
  await using ws = await tempWorkspace();
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const bypass = await runCli(
    ["-p", "hi", "--permission-mode=bypassPermissions", "--max-turns=3", "--workspace", ws.path],
    { env },
  );
  assert.equal(bypass.code, 0, bypass.stderr);
  const plan = await runCli(["-p", "hi", "--permission-mode", "plan", "--workspace", ws.path], {
    env,
  });
  assert.equal(plan.code, 0, plan.stderr);
  const wrong = await runCli(["-p", "hi", "--permission-mode", "yolo", "--workspace", ws.path], {
    env,
  });
  assert.equal(wrong.code, 1);
  assert.match(
    wrong.stderr,
    /'yolo' is invalid.*default, acceptEdits, plan, dontAsk, bypassPermissions/,
  );
});

Deno.test("--print-system-prompt prints the prompt a new session would start with and records nothing", async () => {
  await using ws = await tempWorkspace();
  const result = await runCli(["--print-system-prompt", "--workspace", ws.path], {
    env: { ANTHROPIC_BASE_URL: "http://127.0.0.1:9" },
  });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^You are rein, a coding agent/);
  assert.match(result.stdout, new RegExp(`- Workspace: ${ws.path}`));
  const log = await Deno.readTextFile(`${ws.path}/.rein/events.jsonl`).catch(() => "");
  assert.equal(log, "", "nothing was recorded");
});
