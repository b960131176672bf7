import assert from "node:assert/strict";
import { join } from "node:path";
import { startFakeAnthropic } from "../testing/fake_anthropic.ts";
import { echo, lastUserText } from "../testing/scenarios.ts";
import { snapshotCoverage, snapshotDir } from "../core/snapshots/mod.ts";
import { runCli, tempWorkspace } from "./_cli.ts";

const KEY = "sk-ant-api03-KNOWN-SECRET-abcdef0123456789";

Deno.test("a session resumes alike from its snapshot, from a spoiled one and from the log alone", async () => {
  await using fake = await startFakeAnthropic({ script: echo() });
  await using ws = await tempWorkspace();
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const log = join(ws.path, ".rein", "events.jsonl");
  const run = async (args: string[]) => {
    const result = await runCli(["agent", ...args, "--workspace", ws.path], { env });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, "", "no notice about snapshots");
    return result;
  };
  const first = await run(["-p", "first", "--output-format", "json"]);
  const id = JSON.parse(first.stdout).session_id as string;
  await run(["-p", "another session"]);
  const sessionFile = join(snapshotDir(log), "sessions", `${id}.json`);
  assert.ok(await Deno.stat(sessionFile), "closing a session snapshots it");

  await run(["--resume", id, "-p", "second"]);
  const fromSnapshot = fake.requests.at(-1)?.body;
  assert.equal(fromSnapshot?.messages.length, 3);
  assert.equal(lastUserText(fromSnapshot), "second");

  const text = await Deno.readTextFile(sessionFile);
  await Deno.writeTextFile(sessionFile, text.replace('"first"', '"forged"'));
  await run(["--resume", id, "-p", "third"]);
  const spoiled = fake.requests.at(-1)?.body;
  assert.deepEqual(plain(spoiled?.messages.slice(0, 3)), plain(fromSnapshot?.messages));
  assert.equal(JSON.stringify(spoiled).includes("forged"), false, "a spoiled snapshot is ignored");

  await Deno.remove(snapshotDir(log), { recursive: true });
  await run(["--continue", "-p", "fourth"]);
  const fromLog = fake.requests.at(-1)?.body;
  assert.deepEqual(plain(fromLog?.messages.slice(0, 5)), plain(spoiled?.messages));
  assert.equal(fromLog?.messages.length, 7);

  const lines = (await Deno.readTextFile(log)).trim().split("\n").length;
  const coverage = await snapshotCoverage(log);
  assert.deepEqual(coverage.filter((c) => c.sessions > 1).map((c) => [c.seq, c.valid]), [
    [lines, true],
  ]);
});

/** Messages without the cache markers, which move to the last message of each request. */
function plain(messages: unknown): unknown {
  return JSON.parse(
    JSON.stringify(messages, (key, value) => key === "cache_control" ? undefined : value),
  );
}
