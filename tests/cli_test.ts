import assert from "node:assert/strict";
import { message, overloaded, startFakeAnthropic, toolUse } from "../testing/fake_anthropic.ts";
import { echo, lastUserText, plainAnswer, sequentialBash } from "../testing/scenarios.ts";
import { childEnv, readLogLines, runCli, tempWorkspace } from "./_cli.ts";

const KEY = "sk-ant-api03-KNOWN-SECRET-abcdef0123456789";

Deno.test("-p prints the final answer and exits 0; the API key never reaches the log", async () => {
  await using fake = await startFakeAnthropic({
    script: sequentialBash(2, (i) => `echo ${KEY} ${i}`),
  });
  await using ws = await tempWorkspace();
  const result = await runCli(["agent", "-p", "run two commands", "--workspace", ws.path], {
    env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY },
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "Done: ran 2 commands\n");
  assert.equal(fake.requests[0]?.headers["authorization"], `Bearer ${KEY}`);
  const bytes = await Deno.readTextFile(`${ws.path}/.rein/events.jsonl`);
  assert.ok(bytes.length > 0);
  assert.equal(bytes.includes(KEY), false, "the API key appears in the log");
  assert.match(bytes, /\[REDACTED\]/, "the key echoed by a tool is redacted, not dropped");
});

Deno.test("ANTHROPIC_AUTH_TOKEN and ANTHROPIC_MODEL are honoured", async () => {
  await using fake = await startFakeAnthropic({ script: plainAnswer("ok") });
  await using ws = await tempWorkspace();
  const token = "auth-token-SECRET-9876543210";
  const result = await runCli(["agent", "-p", "hi", "--workspace", ws.path], {
    env: {
      ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_AUTH_TOKEN: token,
      ANTHROPIC_MODEL: "claude-from-env",
    },
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(fake.requests[0]?.headers["authorization"], `Bearer ${token}`);
  assert.equal(fake.requests[0]?.body?.model, "claude-from-env");
  assert.equal((await Deno.readTextFile(`${ws.path}/.rein/events.jsonl`)).includes(token), false);
  const flagged = await runCli([
    "agent",
    "-p",
    "hi",
    "--workspace",
    ws.path,
    "--model",
    "claude-flag",
  ], {
    env: {
      ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_AUTH_TOKEN: token,
      ANTHROPIC_MODEL: "claude-from-env",
    },
  });
  assert.equal(flagged.code, 0, flagged.stderr);
  assert.equal(fake.requests[1]?.body?.model, "claude-flag");
});

Deno.test("--output-format json prints one result object", async () => {
  await using fake = await startFakeAnthropic({ script: sequentialBash(1, () => "true") });
  await using ws = await tempWorkspace();
  const result = await runCli([
    "agent",
    "-p",
    "go",
    "--output-format",
    "json",
    "--workspace",
    ws.path,
  ], {
    env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY },
  });
  assert.equal(result.code, 0, result.stderr);
  const out = JSON.parse(result.stdout);
  assert.equal(out.type, "result");
  assert.equal(out.subtype, "success");
  assert.equal(out.is_error, false);
  assert.equal(out.result, "Done: ran 1 commands");
  assert.equal(out.num_turns, 2);
  assert.match(out.session_id, /^[0-9a-f-]{36}$/);
  assert.ok(out.usage.input_tokens > 0);
  assert.equal(typeof out.duration_ms, "number");
});

Deno.test("--output-format events prints each event as it is appended, then the result", async () => {
  await using fake = await startFakeAnthropic({ script: sequentialBash(1, () => "echo hi") });
  await using ws = await tempWorkspace();
  const result = await runCli([
    "agent",
    "-p",
    "go",
    "--output-format",
    "events",
    "--workspace",
    ws.path,
  ], {
    env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY },
  });
  assert.equal(result.code, 0, result.stderr);
  const lines = result.stdout.trim().split("\n").map((line) => JSON.parse(line));
  const logged = await readLogLines(`${ws.path}/.rein/events.jsonl`);
  const streamed = lines.slice(0, -1);
  assert.deepEqual(streamed, logged, "every logged event is streamed, exactly as logged");
  assert.deepEqual(streamed.map((e) => e.type), [
    "session.started",
    "user.prompted",
    "turn.started",
    "model.requested",
    "model.responded",
    "permission.decided",
    "tool.requested",
    "tool.completed",
    "model.requested",
    "model.responded",
    "turn.ended",
    "session.ended",
  ]);
  assert.equal(lines.at(-1).type, "result");
});

Deno.test("a prompt can come on standard input", async () => {
  await using fake = await startFakeAnthropic({ script: echo() });
  await using ws = await tempWorkspace();
  const result = await runCli(["agent", "-p", "--workspace", ws.path], {
    env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY },
    stdin: "piped question\n",
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "You said: piped question\n");
});

Deno.test("--continue and --resume carry the conversation; sessions lists them", async () => {
  await using fake = await startFakeAnthropic({ script: echo() });
  await using ws = await tempWorkspace();
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const first = await runCli([
    "agent",
    "-p",
    "first",
    "--output-format",
    "json",
    "--workspace",
    ws.path,
  ], { env });
  const id = JSON.parse(first.stdout).session_id as string;
  await runCli(["agent", "-p", "another session", "--workspace", ws.path], { env });
  const resumed = await runCli([
    "agent",
    "--resume",
    id.slice(0, 8),
    "-p",
    "second",
    "--workspace",
    ws.path,
  ], { env });
  assert.equal(resumed.code, 0, resumed.stderr);
  const body = fake.requests.at(-1)?.body;
  assert.equal(body?.messages.length, 3, "the resumed request carries the first exchange");
  assert.equal(lastUserText(body), "second");
  const continued = await runCli(["agent", "--continue", "-p", "third", "--workspace", ws.path], {
    env,
  });
  assert.equal(continued.code, 0, continued.stderr);
  assert.equal(
    fake.requests.at(-1)?.body?.messages.length,
    5,
    "--continue picks the latest session",
  );
  const sessions = await runCli(["sessions", "--workspace", ws.path], { env });
  assert.equal(sessions.code, 0, sessions.stderr);
  assert.match(
    sessions.stdout,
    new RegExp(`${id}\\s+\\S+ \\S+\\s+3\\s+\\$[0-9.]+\\s+idle\\s+first`),
  );
  assert.match(sessions.stdout, /another session/);
});

Deno.test("--fork ID@SEQ starts a new session from the history up to that seq", async () => {
  await using fake = await startFakeAnthropic({ script: echo() });
  await using ws = await tempWorkspace();
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const first = await runCli([
    "agent",
    "-p",
    "one",
    "--output-format",
    "json",
    "--workspace",
    ws.path,
  ], { env });
  const id = JSON.parse(first.stdout).session_id as string;
  await runCli(["agent", "--resume", id, "-p", "two", "--workspace", ws.path], { env });
  const log = await readLogLines(`${ws.path}/.rein/events.jsonl`);
  const endOfFirstTurn = log.find((e) => e.type === "turn.ended")?.seq;
  const forked = await runCli([
    "agent",
    "--fork",
    `${id}@${endOfFirstTurn}`,
    "-p",
    "branch",
    "--output-format",
    "json",
    "--workspace",
    ws.path,
  ], { env });
  assert.equal(forked.code, 0, forked.stderr);
  const forkId = JSON.parse(forked.stdout).session_id;
  assert.notEqual(forkId, id);
  const texts = fake.requests.at(-1)?.body?.messages.map((m) =>
    typeof m.content === "string" ? m.content : m.content.map((b) => b.text ?? "").join("")
  );
  assert.deepEqual(texts, ["one", "You said: one", "branch"]);
  const bad = await runCli(["agent", "--fork", "nonsense", "-p", "x", "--workspace", ws.path], {
    env,
  });
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /Invalid --fork "nonsense": expected SESSION@SEQ/);
});

Deno.test("--max-turns stops a run with a non-zero exit and a resumable session", async () => {
  await using fake = await startFakeAnthropic({ script: sequentialBash(5, (i) => `echo ${i}`) });
  await using ws = await tempWorkspace();
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const result = await runCli([
    "agent",
    "-p",
    "go",
    "--max-turns",
    "2",
    "--output-format",
    "json",
    "--workspace",
    ws.path,
  ], { env });
  assert.equal(result.code, 1);
  const out = JSON.parse(result.stdout);
  assert.equal(out.subtype, "error_max_turns");
  assert.equal(out.num_turns, 2);
  const rest = await runCli(["agent", "--continue", "-p", "--workspace", ws.path], { env });
  assert.equal(rest.code, 0, rest.stderr);
  assert.equal(rest.stdout, "Done: ran 5 commands\n");
});

Deno.test("when the model keeps failing the user is told and the session stays resumable", async () => {
  let failing = true;
  await using fake = await startFakeAnthropic({
    script: (request, index) => failing ? overloaded() : plainAnswer("back")(request, index),
  });
  await using ws = await tempWorkspace();
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY, REIN_RETRY_BASE_MS: "1" };
  const result = await runCli(["agent", "-p", "hi", "--workspace", ws.path], { env });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /529/);
  assert.match(result.stderr, /rein agent --resume [0-9a-f-]{36}/);
  assert.equal(fake.requests.length, 10, "ten attempts in all");
  failing = false;
  const again = await runCli(["agent", "--continue", "-p", "--workspace", ws.path], { env });
  assert.equal(again.code, 0, again.stderr);
  assert.equal(again.stdout, "back\n");
});

Deno.test("state prints the projection at a seq; replay needs no network, run or write permission", async () => {
  await using fake = await startFakeAnthropic({
    script: (request) =>
      lastUserText(request.body) === "write" && (request.body?.messages.length ?? 0) === 1
        ? message([toolUse("w1", "write_file", { path: "made.txt", content: "x\n" })])
        : message("written"),
  });
  await using ws = await tempWorkspace();
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const written = await runCli(
    ["agent", "-p", "write", "--permission-mode", "acceptEdits", "--workspace", ws.path],
    { env },
  );
  assert.equal(written.code, 0, written.stderr);
  const log = `${ws.path}/.rein/events.jsonl`;
  const state = await runCli(["state", log, "--at", "4", "--json"], {
    permissions: ["--allow-read", "--allow-env"],
  });
  assert.equal(state.code, 0, state.stderr);
  const projected = JSON.parse(state.stdout);
  assert.equal(projected.lastSeq, 4);
  await Deno.remove(`${ws.path}/made.txt`);
  const served = fake.requests.length;
  const replay = await runCli(["replay", log, "--verify"], {
    permissions: ["--allow-read", "--allow-env"],
  });
  assert.equal(replay.code, 0, replay.stderr);
  assert.match(replay.stdout, /● write_file made\.txt/);
  assert.match(replay.stdout, /all match the log/);
  assert.equal(fake.requests.length, served);
  await assert.rejects(Deno.stat(`${ws.path}/made.txt`));
});

Deno.test("bad input gets a clear message naming what is wrong", async () => {
  await using ws = await tempWorkspace();
  const empty = await runCli(["agent", "-p", "  ", "--workspace", ws.path]);
  assert.equal(empty.code, 1);
  assert.match(empty.stderr, /Empty prompt: -p needs text/);
  const missing = await runCli(["agent", "-p", "x", "--workspace", `${ws.path}/nope`]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /Workspace ".*\/nope" does not exist/);
  const unknown = await runCli(
    ["agent", "--resume", "deadbeef", "-p", "x", "--workspace", ws.path],
    { env: { ANTHROPIC_API_KEY: KEY } },
  );
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /No session "deadbeef"/);
  const turns = await runCli(["agent", "-p", "x", "--max-turns", "0", "--workspace", ws.path]);
  assert.notEqual(turns.code, 0);
  assert.match(turns.stderr, /"0" is not a positive integer/);
  await Deno.mkdir(`${ws.path}/.rein`, { recursive: true });
  const line = JSON.stringify({
    v: 1,
    seq: 1,
    ts: "2026-11-22T00:00:00.000Z",
    type: "user.prompted",
    session: "s",
    agent: "lead",
    data: { text: "a" },
  });
  await Deno.writeTextFile(
    `${ws.path}/.rein/events.jsonl`,
    `${line}\n{broken\n${line.replace('"seq":1', '"seq":3')}\n`,
  );
  const corrupt = await runCli(["agent", "-p", "x", "--workspace", ws.path], {
    env: { ANTHROPIC_API_KEY: KEY },
  });
  assert.equal(corrupt.code, 1);
  assert.match(corrupt.stderr, /line 2 of ".*events\.jsonl"/);
  const before = await Deno.readTextFile(`${ws.path}/.rein/events.jsonl`);
  assert.match(before, /\{broken/, "a corrupt log is left untouched");
});

Deno.test("the workspace's .rein directory is ignored by git without touching .gitignore", async () => {
  await using fake = await startFakeAnthropic({ script: plainAnswer("ok") });
  await using ws = await tempWorkspace();
  const git = (...args: string[]) =>
    new Deno.Command("git", { args, cwd: ws.path, stdout: "piped", stderr: "null" }).output();
  await git("init", "-q", ".");
  const result = await runCli(["agent", "-p", "hi", "--workspace", ws.path], {
    env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY },
  });
  assert.equal(result.code, 0, result.stderr);
  const status = new TextDecoder().decode(
    (await git("status", "--porcelain", "--untracked-files=all")).stdout,
  );
  assert.equal(status, "");
  await assert.rejects(Deno.stat(`${ws.path}/.gitignore`));
});

Deno.test("relative --workspace and --log are taken from where the user ran deno task", async () => {
  await using fake = await startFakeAnthropic({ script: plainAnswer("ok") });
  await using ws = await tempWorkspace();
  await Deno.mkdir(`${ws.path}/project`);
  const root = new URL("..", import.meta.url).pathname;
  const task = await new Deno.Command(Deno.execPath(), {
    args: [
      "task",
      "--quiet",
      "--cwd",
      root,
      "agent",
      "-p",
      "hi",
      "--workspace",
      "project",
      "--log",
      "logs/run.jsonl",
    ],
    cwd: ws.path,
    env: childEnv({ ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY }),
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(task.code, 0, new TextDecoder().decode(task.stderr));
  const log = await readLogLines(`${ws.path}/logs/run.jsonl`);
  assert.equal(log[0]?.data.workspace, `${ws.path}/project`);
  const state = await runCli(["state", "logs/run.jsonl"], { env: { REIN_CALLER_DIR: ws.path } });
  assert.equal(state.code, 0, state.stderr);
  assert.match(state.stdout, /status +idle/);
});

Deno.test("an INIT_CWD left by npm does not move the installed command's workspace", async () => {
  await using fake = await startFakeAnthropic({ script: plainAnswer("ok") });
  await using ws = await tempWorkspace();
  await Deno.mkdir(`${ws.path}/elsewhere`);
  const result = await runCli(["agent", "-p", "hi"], {
    env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY, INIT_CWD: `${ws.path}/elsewhere` },
    cwd: ws.path,
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal((await readLogLines(`${ws.path}/.rein/events.jsonl`))[0]?.data.workspace, ws.path);
});

Deno.test("-p with nothing on stdin is refused before any session is recorded", async () => {
  await using ws = await tempWorkspace();
  const result = await runCli(["agent", "-p", "--workspace", ws.path], { stdin: "" });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /No prompt: pass one with -p/);
  await assert.rejects(Deno.stat(`${ws.path}/.rein/events.jsonl`));
});

Deno.test("a session is only reopened from its own workspace", async () => {
  await using fake = await startFakeAnthropic({ script: plainAnswer("ok") });
  await using ws = await tempWorkspace();
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  await Deno.mkdir(`${ws.path}/a`);
  await Deno.mkdir(`${ws.path}/b`);
  const log = `${ws.path}/a/.rein/events.jsonl`;
  assert.equal(
    (await runCli(["agent", "-p", "hi", "--workspace", `${ws.path}/a`], { env })).code,
    0,
  );
  const elsewhere = await runCli([
    "agent",
    "-c",
    "-p",
    "again",
    "--log",
    log,
    "--workspace",
    `${ws.path}/b`,
  ], { env });
  assert.equal(elsewhere.code, 1);
  assert.match(
    elsewhere.stderr,
    /works in ".*\/a", not in ".*\/b": run rein there, or pass --workspace/,
  );
  assert.equal(fake.requests.length, 1);
});

Deno.test("an event with a damaged payload is reported with the file and line", async () => {
  await using ws = await tempWorkspace();
  const lines = [
    {
      v: 1,
      seq: 1,
      ts: "2026-11-22T00:00:00.000Z",
      type: "session.started",
      session: "s",
      agent: "lead",
      data: {
        model: "m",
        workspace: ws.path,
        startedAt: "2026-11-22T00:00:00.000Z",
        maxTokens: 10,
        platform: "linux",
      },
    },
    {
      v: 1,
      seq: 2,
      ts: "2026-11-22T00:00:01.000Z",
      type: "model.responded",
      session: "s",
      agent: "lead",
      data: {},
    },
  ];
  const log = `${ws.path}/events.jsonl`;
  await Deno.writeTextFile(log, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  for (const args of [["state", log], ["sessions", "--log", log], ["replay", log, "--verify"]]) {
    const result = await runCli(args);
    assert.equal(result.code, 1, args.join(" "));
    assert.match(
      result.stderr,
      /line 2 of ".*events\.jsonl": malformed model\.responded payload/,
      args.join(" "),
    );
  }
});

Deno.test("a session another rein process is running cannot be reopened; it can once that ends", async () => {
  // The first run's command lasts until the second run has been refused (10 s at most).
  const wait = "timeout 10 sh -c 'until [ -f refused ]; do sleep 0.02; done'";
  await using fake = await startFakeAnthropic({ script: sequentialBash(1, () => wait) });
  await using ws = await tempWorkspace();
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const first = runCli(
    ["agent", "-p", "wait a bit", "--allowedTools", "Bash(timeout *)", "--workspace", ws.path],
    { env },
  );
  await fake.waitForRequests(1);
  const log = `${ws.path}/.rein/events.jsonl`;
  while (!(await readLogLines(log)).some((e) => e.type === "tool.requested")) {
    await new Promise((r) => setTimeout(r, 20));
  }
  const second = await runCli(["agent", "-c", "-p", "second", "--workspace", ws.path], { env });
  assert.equal(second.code, 1);
  assert.match(
    second.stderr,
    /Session [0-9a-f-]{36} is open in another rein process \(pid \d+\): wait for it to finish, or branch off with --fork/,
  );
  await Deno.writeTextFile(`${ws.path}/refused`, "");
  assert.equal((await first).code, 0);
  const completed = (await readLogLines(log)).filter((e) => e.type === "tool.completed");
  assert.equal(completed.length, 1, "the running call was not closed by the second process");
  assert.equal(completed[0]?.data.outcome, undefined);
  const third = await runCli(["agent", "-c", "-p", "second", "--workspace", ws.path], { env });
  assert.equal(third.code, 0, third.stderr);
});
