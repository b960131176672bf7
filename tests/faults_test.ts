/**
 * The real CLI against the fake server, one fault at a time: each is retried and recorded, the
 * run ends with the answer, and its log replays with `--verify` without waiting.
 */
import assert from "node:assert/strict";
import {
  cut,
  type FakeReply,
  overloaded,
  rateLimited,
  serverError,
  startFakeAnthropic,
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
