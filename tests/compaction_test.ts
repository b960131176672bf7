/**
 * Issue 10's scripted long session: 1,000 rounds that each read a 50 KB file, in a small window,
 * killed while a compaction waits for its summary, resumed, and replayed with --verify.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { CliProcess } from "./_cli_process.ts";
import { runCli } from "./_cli.ts";
import {
  message,
  type RecordedRequest,
  startFakeAnthropic,
  toolUse,
} from "../testing/fake_anthropic.ts";

const ROUNDS = 1_000;
/** A compaction's request: its last user input is the summary instructions. */
const asksSummary = (request: RecordedRequest) =>
  request.rawBody.includes("Your task now is to write a summary of the conversation");
const WINDOW = 20_000;

Deno.test("a 1,000-round session with 50 KB outputs stays inside a small window, compacts, survives a kill mid-compaction and replays", async () => {
  const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-compact-" }));
  try {
    const line = "0123456789".repeat(5);
    await Deno.writeTextFile(join(workspace, "big.txt"), `${line}\n`.repeat(1_000));
    let rounds = 0;
    let killed = false;
    // The run the fake server kills, once it is started.
    const running: { first?: CliProcess } = {};
    const sizes: number[] = [];
    await using fake = await startFakeAnthropic({
      retainBodies: false,
      rules: [{
        when: asksSummary,
        reply: () => message("Goal: read big.txt again and again. Current step: keep reading."),
      }],
      onRequest: async (request: RecordedRequest) => {
        sizes.push(Math.ceil(request.rawBody.length / 4));
        if (!killed && asksSummary(request) && running.first) {
          killed = true;
          await running.first.kill();
        }
      },
      script: () => {
        rounds++;
        return rounds <= ROUNDS
          ? message([toolUse(`toolu_read_${rounds}`, "read_file", { path: "big.txt" })])
          : message("All read.");
      },
    });
    const env = {
      ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_API_KEY: "sk-fake-compaction",
      CLAUDE_CODE_AUTO_COMPACT_WINDOW: String(WINDOW),
      CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "60",
    };
    const flags = ["--permission-mode", "bypassPermissions", "--workspace", workspace];
    const first = running.first = new CliProcess([
      "agent",
      "-p",
      "Read big.txt until told to stop",
      ...flags,
    ], env);
    const ended = await first.output;
    assert.ok(killed, `the first run was not killed during a compaction: ${ended.stderr}`);

    const resumed = await runCli(["agent", "--continue", "-p", ...flags], { env });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(resumed.stdout.trim(), "All read.");

    const log = join(workspace, ".rein", "events.jsonl");
    const events = (await Deno.readTextFile(log)).split("\n").slice(0, -1).map((l) =>
      JSON.parse(l)
    );
    assert.ok(Math.max(...sizes) <= WINDOW, `a request of ${Math.max(...sizes)} tokens was sent`);
    const started = events.filter((e) => e.type === "compaction.started");
    const completed = events.filter((e) => e.type === "compaction.completed");
    assert.ok(completed.length >= 3, `only ${completed.length} compactions`);
    assert.equal(started.length, completed.length, "every compaction started completes once");
    assert.ok(completed.every((e) => e.data.trigger === "auto"));
    assert.ok(completed.every((e) => e.data.tokensAfter < e.data.tokensBefore));
    const summaries = events.filter((e) => e.type === "model.responded" && e.data.purpose);
    assert.equal(summaries.length, completed.length, "one summary per compaction");
    const results = events.filter((e) => e.type === "tool.completed").map((e) => e.data.callId);
    assert.equal(new Set(results).size, results.length, "no call has two results");
    assert.equal(results.length, ROUNDS);
    assert.ok(events.some((e) => e.type === "context.spilled"));
    const spilled = await Deno.readTextFile(
      join(workspace, ".rein", "outputs", "toolu_read_1.txt"),
    );
    assert.match(spilled, /0123456789/);

    const replay = await runCli(["replay", "--verify", "--quiet", "--workspace", workspace]);
    assert.equal(replay.code, 0, replay.stdout + replay.stderr);
    const state = await runCli([
      "state",
      "--workspace",
      workspace,
      "--at",
      String(started[0].seq - 1),
    ]);
    assert.equal(state.code, 0, state.stderr);
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
});
