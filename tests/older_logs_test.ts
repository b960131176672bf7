/**
 * Logs recorded by older reins replay with today's `rein replay --verify`: a mechanism that adds
 * tools, prompt sections or arrivals must offer them only to sessions that recorded having them,
 * or an older session's requests come out different (their digests no longer match).
 *
 * The fixtures were recorded by `rein -p "Run three steps with bash"` (three bash calls, a
 * project `.claude/settings.json` allowing Bash, so the session records settings) against
 * `deno run -A testing/fake_anthropic.ts --scenario bash`, with a fake API key and a temporary
 * HOME:
 * - recorded_before_cron.jsonl: by b1f5f4f, just before cron (bb36717), background jobs
 *   (f978494) and the task tools (b47e5d8): settings without `cronTools`, `jobs` or `taskTools`.
 * - recorded_before_tasks.jsonl: by 12d0769, just before the task tools: cron and background
 *   jobs (settings with `jobs`), no `cronTools` or `taskTools`.
 *
 * And one of the whole harness at once: recorded_s20_team_mcp.jsonl is the log of
 * `deno run -A testing/s20_scenario.ts DIR` at e430d9d (before agents' own MCP servers: every
 * teammate got the lead's), a lead with MCP tools from server-everything, a subagent and a
 * teammate process that claims, mails and is shut down.
 */
import assert from "node:assert/strict";
import { runCli } from "./_cli.ts";

const TESTDATA = new URL("./testdata/", import.meta.url);
/** Replay may read the log and the environment; it gets no net, run or write permission. */
const REPLAY_ONLY = ["--allow-read", "--allow-env"];

type Line = { type: string; data: Record<string, unknown> };

async function readLines(name: string): Promise<Line[]> {
  const text = await Deno.readTextFile(new URL(name, TESTDATA));
  return text.split("\n").filter(Boolean).map((line) => JSON.parse(line));
}

/** The settings the fixture's session recorded. */
async function recordedSettings(name: string): Promise<Record<string, unknown>> {
  const started = (await readLines(name)).find((line) => line.type === "session.started");
  const settings = started?.data.settings;
  assert.ok(typeof settings === "object" && settings !== null, `${name} recorded no settings`);
  return settings as Record<string, unknown>;
}

async function assertReplayVerifies(name: string): Promise<void> {
  const lines = await readLines(name);
  assert.equal(lines.filter((line) => line.type === "tool.completed").length, 3);
  const result = await runCli(["replay", new URL(name, TESTDATA).pathname, "--verify"], {
    permissions: REPLAY_ONLY,
  });
  assert.equal(result.code, 0, `${result.stdout}${result.stderr}`);
  assert.doesNotMatch(result.stdout, /diverges/);
  assert.match(result.stdout, /22 events replayed, all match the log/);
}

/** `rein replay --verify` of fixture `name` succeeds with `events` events of `session` matched. */
async function assertVerifies(name: string, session: string, events: number): Promise<void> {
  const result = await runCli(["replay", new URL(name, TESTDATA).pathname, "--verify"], {
    permissions: REPLAY_ONLY,
  });
  assert.equal(result.code, 0, `${result.stdout}${result.stderr}`);
  assert.doesNotMatch(result.stdout, /diverges/);
  assert.match(
    result.stdout,
    new RegExp(`${session}: ${events} events replayed, all match the log`),
  );
}

Deno.test("a session recorded with settings before cron, jobs and tasks replays with --verify", async () => {
  const settings = await recordedSettings("recorded_before_cron.jsonl");
  assert.deepEqual(
    ["cronTools", "jobs", "taskTools"].filter((key) => key in settings),
    [],
  );
  await assertReplayVerifies("recorded_before_cron.jsonl");
});

Deno.test("a session recorded with cron and jobs, before cronTools and tasks, replays with --verify", async () => {
  const settings = await recordedSettings("recorded_before_tasks.jsonl");
  assert.ok("jobs" in settings && !("cronTools" in settings) && !("taskTools" in settings));
  await assertReplayVerifies("recorded_before_tasks.jsonl");
});

Deno.test("a team session with MCP tools, recorded before agents had their own MCP servers, replays with --verify", async () => {
  const lines = await readLines("recorded_s20_team_mcp.jsonl");
  assert.ok(lines.some((line) => line.type === "mcp.observed"));
  assert.ok(lines.some((line) => line.type === "agent.spawned"));
  await assertVerifies(
    "recorded_s20_team_mcp.jsonl",
    "5166e056-7c75-47a0-8e7d-c6bf5cb02df5",
    254,
  );
});
