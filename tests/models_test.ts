import assert from "node:assert/strict";
import {
  apiError,
  maxTokens,
  message,
  overloaded,
  startFakeAnthropic,
  text,
  thinking,
  toolUse,
} from "../testing/fake_anthropic.ts";
import { echo, plainAnswer, sequentialBash } from "../testing/scenarios.ts";
import { readLogLines, runCli, tempWorkspace } from "./_cli.ts";

const KEY = "sk-ant-api03-MODELS-TEST-0123456789";

Deno.test("a new session uses claude-sonnet-5 unless the settings file names another model", async () => {
  await using fake = await startFakeAnthropic({ script: plainAnswer("ok") });
  await using ws = await tempWorkspace();
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const plain = await runCli(["-p", "hi", "--workspace", ws.path], { env });
  assert.equal(plain.code, 0, plain.stderr);
  assert.equal(fake.requests[0]?.body?.model, "claude-sonnet-5");
  assert.equal(fake.requests[0]?.body?.max_tokens, 32_000);

  // The sandbox made .claude/ (read-only to bash) on the first run.
  await Deno.mkdir(`${ws.path}/.claude`, { recursive: true });
  await Deno.writeTextFile(`${ws.path}/.claude/settings.json`, '{"model": "haiku"}');
  const set = await runCli(["-p", "hi", "--workspace", ws.path], { env });
  assert.equal(set.code, 0, set.stderr);
  assert.equal(fake.requests[1]?.body?.model, "claude-haiku-4-5");

  const flagged = await runCli(["-p", "hi", "--workspace", ws.path, "--model", "opus[1m]"], {
    env,
  });
  assert.equal(flagged.code, 0, flagged.stderr);
  assert.equal(fake.requests[2]?.body?.model, "claude-opus-4-8");
  assert.equal(fake.requests[2]?.headers["anthropic-beta"], "context-1m-2025-08-07");
});

Deno.test("--model with --resume switches the session's model on the record, and replay follows", async () => {
  await using fake = await startFakeAnthropic({ script: echo() });
  await using ws = await tempWorkspace();
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const first = await runCli(["-p", "one", "--workspace", ws.path, "--output-format", "json"], {
    env,
  });
  assert.equal(first.code, 0, first.stderr);
  const id = JSON.parse(first.stdout).session_id as string;
  const again = await runCli(
    ["--resume", id, "--model", "haiku", "-p", "two", "--workspace", ws.path],
    { env },
  );
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(fake.requests.map((r) => r.body?.model), [
    "claude-sonnet-5",
    "claude-haiku-4-5",
  ]);
  const log = `${ws.path}/.rein/events.jsonl`;
  const switched = (await readLogLines(log)).filter((e) => e.type === "model.switched");
  assert.deepEqual(switched.map((e) => e.data), [
    { model: "claude-haiku-4-5", maxTokens: 32_000, from: "claude-sonnet-5" },
  ]);
  const replay = await runCli(["replay", log, "--verify", "--quiet"], {
    permissions: ["--allow-read", "--allow-env"],
  });
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

Deno.test("a model the API does not know fails at once with one line naming it and the endpoint", async () => {
  await using fake = await startFakeAnthropic({
    script: [apiError(404, { errorType: "not_found_error", message: "model: claude-x" })],
  });
  await using ws = await tempWorkspace();
  const result = await runCli(["-p", "hi", "--workspace", ws.path, "--model", "claude-x"], {
    env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY },
  });
  assert.equal(result.code, 1);
  assert.equal(fake.requests.length, 1, "a missing model is not retried");
  const replay = await runCli(["replay", "--workspace", ws.path, "--verify", "-q"]);
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
  assert.match(
    result.stderr,
    new RegExp(
      `Model "claude-x" was not found at ${fake.url.replaceAll(".", "\\.")}; choose one with ` +
        "--model \\(known: claude-opus-4-8, claude-sonnet-5, ",
    ),
  );
});

Deno.test("starting without an API key says so at once, before any session is recorded", async () => {
  await using ws = await tempWorkspace();
  const result = await runCli(["-p", "hi", "--workspace", ws.path], { env: {} });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /No API key: set ANTHROPIC_API_KEY/);
  await assert.rejects(Deno.stat(`${ws.path}/.rein/events.jsonl`), Deno.errors.NotFound);
});

Deno.test("a refused connection fails after a short retry, naming the URL", async () => {
  await using ws = await tempWorkspace();
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close(); // nothing listens there now
  const url = `http://127.0.0.1:${port}`;
  const result = await runCli(["-p", "hi", "--workspace", ws.path], {
    env: { ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: KEY, REIN_RETRY_BASE_MS: "1" },
  });
  assert.equal(result.code, 1);
  assert.match(
    result.stderr,
    new RegExp(`Cannot reach the model API at ${url.replaceAll(".", "\\.")}: `),
  );
  const failures = (await readLogLines(`${ws.path}/.rein/events.jsonl`))
    .filter((e) => e.type === "model.failed");
  assert.equal(failures.length, 3, "three attempts, then it stops");
});

Deno.test("a 401 is not retried and says which variable to set", async () => {
  await using fake = await startFakeAnthropic({
    script: [apiError(401, { errorType: "authentication_error", message: "invalid x-api-key" })],
  });
  await using ws = await tempWorkspace();
  const result = await runCli(["-p", "hi", "--workspace", ws.path], {
    env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY },
  });
  assert.equal(result.code, 1);
  assert.equal(fake.requests.length, 1);
  assert.match(
    result.stderr,
    /refused the credentials \(401: invalid x-api-key\): set ANTHROPIC_API_KEY/,
  );
  const replay = await runCli(["replay", "--workspace", ws.path, "--verify", "-q"]);
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

Deno.test("after three overloaded answers in a row the fallback model finishes the turn, then the model returns", async () => {
  await using fake = await startFakeAnthropic({
    script: (request) =>
      request.body?.model === "claude-haiku-4-5" ? message("from the fallback") : overloaded(),
  });
  await using ws = await tempWorkspace();
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY, REIN_RETRY_BASE_MS: "1" };
  const result = await runCli(
    ["-p", "hi", "--workspace", ws.path, "--fallback-model", "haiku"],
    { env },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "from the fallback\n");
  assert.match(result.stderr, /claude-sonnet-5 is overloaded: using claude-haiku-4-5 for the rest/);
  assert.deepEqual(fake.requests.map((r) => r.body?.model), [
    "claude-sonnet-5",
    "claude-sonnet-5",
    "claude-sonnet-5",
    "claude-haiku-4-5",
  ]);
  const log = `${ws.path}/.rein/events.jsonl`;
  const switches = (await readLogLines(log)).filter((e) => e.type === "model.switched");
  assert.deepEqual(switches.map((e) => e.data), [
    { model: "claude-haiku-4-5", maxTokens: 32_000, from: "claude-sonnet-5", reason: "fallback" },
    { model: "claude-sonnet-5", maxTokens: 32_000, from: "claude-haiku-4-5", reason: "restore" },
  ]);
  const replay = await runCli(["replay", log, "--verify", "--quiet"], {
    permissions: ["--allow-read", "--allow-env"],
  });
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

Deno.test("an answer cut at the output limit is escalated, then continued once, and replays", async () => {
  let asked = 0;
  await using fake = await startFakeAnthropic({
    script: () => {
      asked += 1;
      if (asked === 1) return maxTokens("set aside");
      if (asked === 2) return maxTokens("first half, ");
      return message("second half.");
    },
  });
  await using ws = await tempWorkspace();
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const result = await runCli(["-p", "write it all", "--workspace", ws.path], { env });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "first half, second half.\n");
  assert.deepEqual(fake.requests.map((r) => r.body?.max_tokens), [32_000, 64_000, 64_000]);
  const log = `${ws.path}/.rein/events.jsonl`;
  const replay = await runCli(["replay", log, "--verify", "--quiet"], {
    permissions: ["--allow-read", "--allow-env"],
  });
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

Deno.test("--max-budget-usd ends a run before the request that would spend past it, and replays", async () => {
  await using fake = await startFakeAnthropic({
    script: sequentialBash(5, (i) => `echo ${i}`),
  });
  await using ws = await tempWorkspace();
  // Each answer of the fake costs about 3,900 input tokens on Sonnet: ~$0.012.
  const result = await runCli(
    ["-p", "go", "--workspace", ws.path, "--max-budget-usd", "0.02", "--output-format", "json"],
    { env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY } },
  );
  assert.equal(result.code, 1);
  const out = JSON.parse(result.stdout);
  assert.equal(out.subtype, "error_max_budget_usd");
  assert.match(out.result, /Stopped at the budget of \$0\.02 \(--max-budget-usd\)/);
  assert.ok(out.total_cost_usd >= 0.02);
  assert.ok(fake.requests.length < 6, "it stopped before the work was done");
  const log = `${ws.path}/.rein/events.jsonl`;
  const started = (await readLogLines(log)).find((e) => e.type === "turn.started");
  assert.equal((started?.data as { maxBudgetUsd?: number }).maxBudgetUsd, 0.02);
  const replay = await runCli(["replay", log, "--verify", "--quiet"], {
    permissions: ["--allow-read", "--allow-env"],
  });
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

Deno.test("--effort turns on extended thinking; thinking blocks go back exactly as received", async () => {
  await using fake = await startFakeAnthropic({
    script: (request) =>
      (request.body?.messages.length ?? 0) === 1
        ? message([
          thinking("I should list the files first.", "sig-1"),
          toolUse("toolu_1", "bash", { command: "true" }),
        ])
        : message([thinking("Done, say so.", "sig-2"), text("all good")]),
  });
  await using ws = await tempWorkspace();
  const result = await runCli(["-p", "look", "--workspace", ws.path, "--effort", "high"], {
    env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY },
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "all good\n");
  const [first, second] = fake.requests;
  assert.deepEqual(first?.body?.thinking, { type: "enabled", budget_tokens: 16_384 });
  assert.match(first?.headers["anthropic-beta"] ?? "", /interleaved-thinking/);
  const history = second?.body?.messages[1]?.content;
  assert.ok(Array.isArray(history));
  assert.deepEqual(history[0], {
    type: "thinking",
    thinking: "I should list the files first.",
    signature: "sig-1",
  });
  const log = `${ws.path}/.rein/events.jsonl`;
  const replay = await runCli(["replay", log, "--verify", "--quiet"], {
    permissions: ["--allow-read", "--allow-env"],
  });
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});
