/**
 * The real CLI against the fake server, one fault at a time: each is retried and recorded, the
 * run ends with the answer, and its log replays with `--verify` without waiting.
 */
import assert from "node:assert/strict";
import {
  apiError,
  cut,
  type FakeReply,
  message,
  overloaded,
  rateLimited,
  serverError,
  startFakeAnthropic,
  toolUse,
} from "../testing/fake_anthropic.ts";
import { faultThen, plainAnswer } from "../testing/scenarios.ts";
import { readLogLines, runCli, tempWorkspace } from "./_cli.ts";

const KEY = "sk-ant-api03-FAULTS-TEST-0123456789";

const FAULTS: [string, FakeReply, string][] = [
  ["a 429 with retry-after", rateLimited(0), "rate_limited"],
  ["a 529", overloaded(), "overloaded"],
  ["a 500", serverError(), "server_error"],
  ["a stream cut mid-message", cut(), "stream_cut"],
  [
    "an overloaded error inside a stream",
    cut(4, undefined, { errorType: "overloaded_error" }),
    "overloaded",
  ],
];

for (const [name, fault, kind] of FAULTS) {
  Deno.test(`${name} is retried, recorded and replayed`, async () => {
    await using fake = await startFakeAnthropic({ script: faultThen(fault, plainAnswer("fine")) });
    await using ws = await tempWorkspace();
    const result = await runCli(["-p", "hi", "--workspace", ws.path], {
      env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY, REIN_RETRY_BASE_MS: "1" },
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, "fine\n");
    assert.equal(fake.requests.length, 2);
    const log = `${ws.path}/.rein/events.jsonl`;
    const failed = (await readLogLines(log)).filter((e) => e.type === "model.failed");
    assert.deepEqual(failed.map((e) => (e.data as { kind: string }).kind), [kind]);
    const replay = await runCli(["replay", log, "--verify", "--quiet"], {
      permissions: ["--allow-read", "--allow-env"],
    });
    assert.equal(replay.code, 0, replay.stdout + replay.stderr);
  });
}

Deno.test("a tool call cut off by the output limit is not run, the model is told, and it replays", async () => {
  let asked = 0;
  await using fake = await startFakeAnthropic({
    script: () => {
      asked += 1;
      if (asked === 1) {
        return message([toolUse("toolu_cut", "bash", { command: "touch half" })], {
          stopReason: "max_tokens",
        });
      }
      return message("understood");
    },
  });
  await using ws = await tempWorkspace();
  const result = await runCli(["-p", "hi", "--workspace", ws.path], {
    env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY },
  });
  assert.equal(result.code, 0, result.stderr);
  await assert.rejects(Deno.stat(`${ws.path}/half`), Deno.errors.NotFound);
  const log = `${ws.path}/.rein/events.jsonl`;
  const events = await readLogLines(log);
  assert.equal(events.some((e) => e.type === "tool.requested"), false, "never started");
  const closed = events.find((e) => e.type === "tool.completed");
  assert.equal((closed?.data as { outcome?: string }).outcome, "not_run");
  const replay = await runCli(["replay", log, "--verify", "--quiet"], {
    permissions: ["--allow-read", "--allow-env"],
  });
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

Deno.test("a run with known usage costs what the price table says", async () => {
  await using fake = await startFakeAnthropic({
    script: [message("priced", {
      usage: {
        input_tokens: 100_000,
        output_tokens: 10_000,
        cache_read_input_tokens: 200_000,
        cache_creation_input_tokens: 40_000,
      },
    })],
  });
  await using ws = await tempWorkspace();
  const result = await runCli(
    ["-p", "hi", "--workspace", ws.path, "--output-format", "json", "--model", "opus"],
    { env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY } },
  );
  assert.equal(result.code, 0, result.stderr);
  // Opus: $5 in, $25 out per M; cache reads 0.1×, cache writes 1.25× the input price.
  const expected = 0.5 + 0.25 + 0.1 + 0.25;
  const out = JSON.parse(result.stdout);
  assert.ok(Math.abs(out.total_cost_usd - expected) < 1e-9, String(out.total_cost_usd));
  assert.ok(Math.abs(out.modelUsage["claude-opus-4-8"].costUSD - expected) < 1e-9);
});

Deno.test("a retry-after longer than rein waits is not waited for, and the message says so", async () => {
  await using fake = await startFakeAnthropic({ script: [rateLimited(600)] });
  await using ws = await tempWorkspace();
  const result = await runCli(["-p", "hi", "--workspace", ws.path], {
    env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY },
  });
  assert.equal(result.code, 1);
  assert.equal(fake.requests.length, 1);
  assert.match(
    result.stderr,
    /the API asked to wait 600s before retrying, longer than rein waits \(300s\); try again later/,
  );
  assert.doesNotMatch(result.stderr, /gave up after retrying/);
  const log = `${ws.path}/.rein/events.jsonl`;
  const replay = await runCli(["replay", log, "--verify", "--quiet"], {
    permissions: ["--allow-read", "--allow-env"],
  });
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

Deno.test("a prompt too long for the model is not retried, and the message names the size", async () => {
  await using fake = await startFakeAnthropic({
    script: [apiError(400, { errorType: "invalid_request_error", message: "prompt is too long" })],
  });
  await using ws = await tempWorkspace();
  const result = await runCli(["-p", "hi", "--workspace", ws.path], {
    env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY },
  });
  assert.equal(result.code, 1);
  assert.equal(fake.requests.length, 1);
  assert.match(result.stderr, /prompt is too long \(this request is about [\d,]+ tokens\)/);
  assert.match(result.stderr, /start a new session or fork this one/);
});
