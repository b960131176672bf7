/**
 * Compaction as a headless user meets it: the model's `compact` tool, compaction on a "prompt is
 * too long" error, and the off switch; each run replays with --verify.
 */
import assert from "node:assert/strict";
import type { Envelope } from "../events/event_types.ts";
import { replaySession } from "../core/replay/replay_session.ts";
import {
  type FakeRequestBody,
  type FakeScript,
  message,
  promptTooLong,
  startFakeAnthropic,
  toolUse,
} from "../testing/fake_anthropic.ts";
import { readLogLines, runCli, tempWorkspace } from "./_cli.ts";

const KEY = "sk-ant-api03-compaction-test-0123456789";
const SUMMARY = "Goal: look at the config. Current step: answer.";

async function runHeadless(
  script: FakeScript,
  env: Record<string, string> = {},
  hooks?: Record<string, unknown>,
) {
  await using fake = await startFakeAnthropic({ script });
  await using ws = await tempWorkspace();
  await Deno.writeTextFile(`${ws.path}/config.json`, "{}\n");
  if (hooks) {
    await Deno.mkdir(`${ws.path}/.claude`);
    await Deno.writeTextFile(`${ws.path}/.claude/settings.json`, JSON.stringify({ hooks }));
  }
  const result = await runCli(
    [
      "agent",
      ...(hooks ? ["--trust"] : []),
      "-p",
      "look at the config",
      "--workspace",
      ws.path,
      "--permission-mode",
      "acceptEdits",
    ],
    { env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY, ...env } },
  );
  const events = await readLogLines(`${ws.path}/.rein/events.jsonl`) as unknown as Envelope[];
  const replayed = await replaySession(events);
  assert.equal(replayed.divergence, null, JSON.stringify(replayed.divergence));
  const written = async (name: string) =>
    await Deno.readTextFile(`${ws.path}/${name}`).catch(() => undefined);
  const hookInputs = { pre: await written("pre.json"), post: await written("post.json") };
  return {
    result,
    bodies: fake.requests.map((r) => r.body as FakeRequestBody),
    events,
    hookInputs,
  };
}

/** One command hook for `event`, optionally only for `matcher`. */
function hook(command: string, matcher?: string) {
  return [{ ...(matcher ? { matcher } : {}), hooks: [{ type: "command", command }] }];
}

function firstText(body: FakeRequestBody | undefined): string {
  const content = body?.messages[0]?.content;
  return typeof content === "string" ? content : String(content?.[0]?.text ?? "");
}

Deno.test("the model's compact tool summarises the conversation; the other calls of its answer are not run; the todo list comes back", async () => {
  const todos = [{ content: "Read the config", status: "in_progress", activeForm: "Reading it" }];
  const { result, bodies, events } = await runHeadless([
    message([toolUse("t1", "todo_write", { todos })]),
    message([
      toolUse("c1", "compact", { focus: "the config" }),
      toolUse("r1", "read_file", { path: "config.json" }),
    ]),
    message(SUMMARY),
    message("The config is empty."),
  ]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout.trim(), "The config is empty.");
  assert.ok(bodies[0]?.tools?.some((tool) => tool.name === "compact"));
  const read = events.find((e) => e.type === "tool.completed" && e.data.callId === "r1");
  assert.ok(read?.type === "tool.completed" && read.data.isError);
  assert.match(String(read.data.content), /asked to compact/);
  assert.ok(!events.some((e) => e.type === "tool.requested" && e.data.callId === "r1"));
  const summaryAsk = JSON.stringify(bodies[2]?.messages.at(-1));
  assert.match(summaryAsk, /write a summary of the conversation/);
  assert.match(summaryAsk, /Focus the summary on: the config/);
  const done = events.filter((e) => e.type === "compaction.completed");
  assert.equal(done.length, 1);
  assert.ok(done[0]?.type === "compaction.completed" && done[0].data.trigger === "tool");
  const after = JSON.stringify(bodies[3]?.messages);
  assert.equal(bodies[3]?.messages.length, 1, "everything before is in the summary");
  assert.match(firstText(bodies[3]), /<summary>\nGoal: look at the config/);
  assert.match(after, /Your todo list, as it stands after the compaction/);
  assert.match(after, /◐ Reading it/);
});

Deno.test("a prompt too long for the model is compacted and asked once more", async () => {
  const { result, bodies, events } = await runHeadless([
    message([toolUse("r1", "read_file", { path: "config.json" })]),
    promptTooLong(),
    message(SUMMARY),
    message("The config is empty."),
  ]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout.trim(), "The config is empty.");
  const done = events.filter((e) => e.type === "compaction.completed");
  assert.equal(done.length, 1);
  assert.ok(done[0]?.type === "compaction.completed" && done[0].data.trigger === "reactive");
  assert.match(firstText(bodies[3]), /<summary>/);
});

Deno.test("PreCompact hooks add to the summary's instructions or block it; PostCompact gets the summary, SessionStart compact adds context", async () => {
  const { result, bodies, events, hookInputs } = await runHeadless(
    [
      message([toolUse("c1", "compact", { focus: "the config" })]),
      message(SUMMARY),
      message("Compacted."),
    ],
    {},
    {
      PreCompact: hook("cat > pre.json; echo 'Keep the word PINEAPPLE'"),
      PostCompact: hook("cat > post.json"),
      SessionStart: hook("echo 'Re-read NOTES.md'", "compact"),
    },
  );
  assert.equal(result.code, 0, result.stderr);
  const summaryAsk = JSON.stringify(bodies[1]?.messages.at(-1));
  assert.match(summaryAsk, /Focus the summary on: the config/);
  assert.match(summaryAsk, /Keep the word PINEAPPLE/);
  const pre = JSON.parse(hookInputs.pre ?? "{}");
  assert.equal(pre.hook_event_name, "PreCompact");
  assert.equal(pre.custom_instructions, "the config");
  const post = JSON.parse(hookInputs.post ?? "{}");
  assert.equal(post.hook_event_name, "PostCompact");
  assert.equal(post.compact_summary, SUMMARY);
  assert.match(JSON.stringify(bodies[2]?.messages), /Re-read NOTES\.md/);
  assert.equal(events.filter((e) => e.type === "compaction.completed").length, 1);

  const blocked = await runHeadless(
    [
      message([toolUse("c1", "compact", {})]),
      message("Not compacted."),
    ],
    {},
    { PreCompact: hook("echo 'not now: mid-refactor' >&2; exit 2") },
  );
  assert.equal(blocked.result.code, 0, blocked.result.stderr);
  assert.equal(blocked.bodies.length, 2, "no summary call");
  const failed = blocked.events.find((e) => e.type === "compaction.failed");
  assert.ok(failed?.type === "compaction.failed");
  assert.match(failed.data.message, /not now: mid-refactor/);
  assert.match(JSON.stringify(blocked.bodies[1]?.messages.at(-1)), /not now: mid-refactor/);
});

Deno.test("DISABLE_AUTO_COMPACT really turns compaction off: a too-long prompt fails, naming why", async () => {
  const { result, events } = await runHeadless([
    message([toolUse("r1", "read_file", { path: "config.json" })]),
    promptTooLong(),
  ], { DISABLE_AUTO_COMPACT: "1" });
  assert.notEqual(result.code, 0);
  assert.match(result.stderr, /prompt is too long/);
  assert.match(result.stderr, /automatic compaction is off/);
  assert.ok(!events.some((e) => e.type.startsWith("compaction.")));
});
