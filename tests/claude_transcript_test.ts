/**
 * The Claude Code transcript hooks read (`transcript_path`, and a subagent's
 * `agent_transcript_path`), parsed by hook scripts of the shape published for Claude Code: a
 * Python Stop hook that takes the last assistant message's text, model, id and usage and counts
 * the session's tokens as usage tools do (one answer per message id and request id), and a
 * SubagentStop hook that reads the subagent's own sidechain. Headless rein against the fake model;
 * what the scripts saw is checked against the log.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import {
  type FakeScriptFn,
  message,
  startFakeAnthropic,
  toolUse,
} from "../testing/fake_anthropic.ts";
import { firstUserText, toolResultCount } from "../testing/scenarios.ts";
import { readLogLines, runCli, tempWorkspace } from "./_cli.ts";

const KEY = "sk-ant-claude-transcript-test";
const SCRIPTS = fileURLToPath(new URL("./claude_transcript/", import.meta.url));

const hook = (script: string) => ({
  hooks: [{ type: "command", command: `python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/${script}"` }],
});

Deno.test("transcript-reading hooks find the last answer's text, model, id, usage and time, and a subagent's own sidechain", async () => {
  await using ws = await tempWorkspace();
  const git = await new Deno.Command("git", { args: ["init", "-q", "-b", "topic", ws.path] })
    .output();
  assert.equal(git.code, 0);
  await Deno.mkdir(`${ws.path}/.claude/hooks`, { recursive: true });
  for await (const entry of Deno.readDir(SCRIPTS)) {
    await Deno.copyFile(`${SCRIPTS}${entry.name}`, `${ws.path}/.claude/hooks/${entry.name}`);
  }
  await Deno.writeTextFile(
    `${ws.path}/.claude/settings.json`,
    JSON.stringify({
      hooks: {
        Stop: [hook("stop_last_message.py")],
        SubagentStop: [hook("subagent_transcript.py")],
      },
    }),
  );
  const script: FakeScriptFn = (request) => {
    const messages = request.body?.messages ?? [];
    const done = toolResultCount(request.body);
    if (firstUserText(messages) === "inspect") {
      if (done === 0) return message([toolUse("toolu_sub", "bash", { command: "echo sub-out" })]);
      return message("Child done.");
    }
    if (done === 0) {
      return message([
        toolUse("toolu_task", "task", {
          description: "inspect",
          prompt: "inspect",
          subagent_type: "general-purpose",
        }),
      ]);
    }
    return message("All done.");
  };
  await using fake = await startFakeAnthropic({ script });
  const run = await runCli(
    ["--trust", "-p", "go", "--allowedTools", "Bash", "--workspace", ws.path],
    { env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY } },
  );
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.trim(), "All done.");

  const log = await readLogLines(`${ws.path}/.rein/events.jsonl`);
  const session = String(log.find((e) => e.type === "session.started")?.session);
  const answers = log.filter((e) =>
    e.type === "model.responded" && e.agent === "lead" && e.data.purpose === undefined
  );
  const final = answers.at(-1)!;
  const usageOf = (e: typeof final) => e.data.usage as Record<string, number | null | undefined>;

  // Stop: the last answer as the API gave it, at the time the log recorded it.
  const stop = JSON.parse(await Deno.readTextFile(`${ws.path}/.claude/stop_seen.json`));
  assert.deepEqual(stop.last, {
    text: "All done.",
    model: final.data.model,
    id: final.data.messageId,
    requestId: final.data.requestId,
    timestamp: final.ts,
    usage: {
      ...usageOf(final),
      cache_creation_input_tokens: usageOf(final).cache_creation_input_tokens ?? 0,
      cache_read_input_tokens: usageOf(final).cache_read_input_tokens ?? 0,
    },
    userType: "external",
    version: "0.1.0",
    gitBranch: "topic",
  });
  assert.match(String(final.data.requestId), /^req_fake_\d+$/);
  // Counted as usage tools count: the main transcript's answers, once each.
  const sum = (name: string) => answers.reduce((total, e) => total + (usageOf(e)[name] ?? 0), 0);
  assert.deepEqual(stop.totals, {
    input_tokens: sum("input_tokens"),
    output_tokens: sum("output_tokens"),
    cache_creation_input_tokens: sum("cache_creation_input_tokens"),
    cache_read_input_tokens: sum("cache_read_input_tokens"),
  });
  assert.ok(stop.totals.output_tokens > 0);
  assert.equal(stop.sidechain, false);

  // SubagentStop: the subagent's own transcript, a sidechain with its id.
  const agent = String(log.find((e) => e.type === "agent.spawned")?.agent);
  const sub = JSON.parse(await Deno.readTextFile(`${ws.path}/.claude/subagent_seen.json`));
  assert.deepEqual(sub, {
    agent_id: agent,
    agent_type: "general-purpose",
    main: `${ws.path}/.rein/transcripts/${session}.jsonl`,
    prompt: "inspect",
    sidechain: [true],
    agentIds: [agent],
    tools: ["Bash"],
    stdout: ["sub-out"],
    last: "Child done.",
  });
  const sidechain = `${ws.path}/.rein/transcripts/${session}/subagents/agent-${agent}.jsonl`;
  await Deno.stat(sidechain);
  // The task's result in the session's transcript names the subagent, as Claude Code's does.
  const main = (await Deno.readTextFile(sub.main)).trim().split("\n").map((l) => JSON.parse(l));
  const task = main.find((l) => l.message.content[0]?.tool_use_id === "toolu_task");
  assert.equal(task?.toolUseResult.agentId, agent);
  assert.equal(task?.toolUseResult.agentType, "general-purpose");
  assert.equal(task?.toolUseResult.status, "completed");
  assert.equal(task?.toolUseResult.prompt, "inspect");
  assert.equal(task?.toolUseResult.totalToolUseCount, 1);
  assert.ok(task?.toolUseResult.totalTokens > 0);

  // Replay writes no transcript and still matches the log.
  await Deno.remove(`${ws.path}/.rein/transcripts`, { recursive: true });
  const replay = await runCli(["replay", "--verify", "--quiet", "--workspace", ws.path]);
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
  await assert.rejects(Deno.stat(`${ws.path}/.rein/transcripts`), Deno.errors.NotFound);
});
