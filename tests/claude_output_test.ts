/**
 * rein's `-p --output-format json|stream-json` read as a program written for Claude Code reads
 * them: every field compat.md names, with its type (shapes of Claude Code 2.1.197).
 */
import assert from "node:assert/strict";
import { maxTokens, message, startFakeAnthropic } from "../testing/fake_anthropic.ts";
import { echo, sequentialBash } from "../testing/scenarios.ts";
import { readLogLines, runCli, tempWorkspace } from "./_cli.ts";

const KEY = "sk-ant-api03-OUTPUT-TEST-0123456789";

type Kind = "string" | "number" | "boolean" | "object" | "array" | "null" | "string|null";

/** Fails naming the first field that is missing or of the wrong type. */
function assertShape(value: unknown, shape: Record<string, Kind>, where: string) {
  assert.ok(typeof value === "object" && value !== null, `${where} is not an object`);
  for (const [field, kind] of Object.entries(shape)) {
    const v: unknown = (value as Record<string, unknown>)[field];
    const actual: string = v === null ? "null" : Array.isArray(v) ? "array" : typeof v;
    const ok: boolean = kind === "string|null"
      ? actual === "string" || actual === "null"
      : actual === kind;
    assert.ok(ok, `${where}.${field} should be ${kind}, found ${actual}`);
  }
}

const RESULT: Record<string, Kind> = {
  type: "string",
  subtype: "string",
  is_error: "boolean",
  duration_ms: "number",
  duration_api_ms: "number",
  num_turns: "number",
  result: "string",
  stop_reason: "string|null",
  session_id: "string",
  total_cost_usd: "number",
  usage: "object",
  modelUsage: "object",
  permission_denials: "array",
};
const USAGE: Record<string, Kind> = {
  input_tokens: "number",
  cache_creation_input_tokens: "number",
  cache_read_input_tokens: "number",
  output_tokens: "number",
};
const MODEL_USAGE: Record<string, Kind> = {
  inputTokens: "number",
  outputTokens: "number",
  cacheReadInputTokens: "number",
  cacheCreationInputTokens: "number",
  costUSD: "number",
  contextWindow: "number",
  maxOutputTokens: "number",
};

function assertResult(result: Record<string, unknown>) {
  assertShape(result, RESULT, "result");
  assertShape(result.usage, USAGE, "result.usage");
  const models = Object.entries(result.modelUsage as Record<string, unknown>);
  assert.deepEqual(models.map(([model]) => model), ["claude-sonnet-5"]);
  for (const [model, usage] of models) assertShape(usage, MODEL_USAGE, `modelUsage.${model}`);
}

async function run(format: string) {
  await using fake = await startFakeAnthropic({ script: sequentialBash(1, () => "echo hi") });
  await using ws = await tempWorkspace();
  const out = await runCli(
    ["-p", "go", "--output-format", format, "--verbose", "--workspace", ws.path],
    { env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY } },
  );
  assert.equal(out.code, 0, out.stderr);
  return { stdout: out.stdout, workspace: ws.path };
}

Deno.test("--output-format json prints Claude Code's result object", async () => {
  const { stdout } = await run("json");
  const result = JSON.parse(stdout);
  assertResult(result);
  assert.equal(result.type, "result");
  assert.equal(result.subtype, "success");
  assert.equal(result.result, "Done: ran 1 commands");
  assert.equal(result.num_turns, 2);
  assert.equal(result.stop_reason, "end_turn");
  assert.ok(result.total_cost_usd > 0);
  assert.equal(result.total_cost_usd, result.modelUsage["claude-sonnet-5"].costUSD);
});

Deno.test("--output-format stream-json prints init, the messages, then the result", async () => {
  const { stdout, workspace } = await run("stream-json");
  const lines = stdout.trim().split("\n").map((line) => JSON.parse(line));
  assert.deepEqual(lines.map((l) => `${l.type}${l.subtype ? `/${l.subtype}` : ""}`), [
    "system/init",
    "assistant",
    "user",
    "assistant",
    "result/success",
  ]);
  const [init, firstAnswer, toolResult, lastAnswer, result] = lines;
  assertShape(init, {
    cwd: "string",
    session_id: "string",
    tools: "array",
    mcp_servers: "array",
    model: "string",
    permissionMode: "string",
    slash_commands: "array",
    agents: "array",
    skills: "array",
  }, "init");
  assert.equal(init.cwd, workspace);
  assert.equal(init.model, "claude-sonnet-5");
  assert.ok(init.tools.includes("bash"));
  for (const answer of [firstAnswer, lastAnswer]) {
    assertShape(
      answer,
      { message: "object", parent_tool_use_id: "null", session_id: "string" },
      "assistant",
    );
    assertShape(answer.message, {
      id: "string",
      type: "string",
      role: "string",
      model: "string",
      content: "array",
      usage: "object",
    }, "assistant.message");
  }
  assert.equal(firstAnswer.message.content.at(-1).type, "tool_use");
  assertShape(
    toolResult,
    { message: "object", parent_tool_use_id: "null", session_id: "string" },
    "user",
  );
  assert.deepEqual(Object.keys(toolResult.message.content[0]).sort(), [
    "content",
    "is_error",
    "tool_use_id",
    "type",
  ]);
  assert.equal(toolResult.message.content[0].tool_use_id, firstAnswer.message.content.at(-1).id);
  assertResult(result);
  for (const line of lines) assert.equal(line.session_id, init.session_id);
});

Deno.test("--input-format stream-json takes user messages and control requests until stdin closes", async () => {
  await using fake = await startFakeAnthropic({ script: echo() });
  await using ws = await tempWorkspace();
  const input = [
    { type: "control_request", request_id: "init-1", request: { subtype: "initialize" } },
    {
      type: "user",
      session_id: "",
      message: { role: "user", content: "first" },
      parent_tool_use_id: null,
    },
    {
      type: "user",
      session_id: "",
      message: { role: "user", content: [{ type: "text", text: "second" }] },
      parent_tool_use_id: null,
    },
    { type: "control_request", request_id: "x-2", request: { subtype: "rewind_files" } },
  ].map((line) => JSON.stringify(line)).join("\n") + "\n";
  const out = await runCli(
    [
      "-p",
      "--input-format",
      "stream-json",
      "--output-format",
      "stream-json",
      "--verbose",
      "--workspace",
      ws.path,
    ],
    { env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY }, stdin: input },
  );
  assert.equal(out.code, 0, out.stderr);
  const lines = out.stdout.trim().split("\n").map((line) => JSON.parse(line));
  const kinds = lines.map((l) => `${l.type}${l.subtype ? `/${l.subtype}` : ""}`);
  assert.equal(kinds[0], "system/init");
  const initAnswer = lines.find((l) =>
    l.type === "control_response" && l.response.request_id === "init-1"
  );
  assert.equal(initAnswer?.response.subtype, "success");
  const unsupported = lines.find((l) =>
    l.type === "control_response" && l.response.request_id === "x-2"
  );
  assert.equal(unsupported?.response.subtype, "error");
  assert.match(unsupported?.response.error, /Unsupported control request: rewind_files/);
  const results = lines.filter((l) => l.type === "result");
  assert.deepEqual(results.map((r) => r.result), ["You said: first", "You said: second"]);
  assert.equal(results[0].session_id, results[1].session_id, "one session for the whole input");
  assert.equal(fake.requests.length, 2);
});

Deno.test("stream-json input: set_model applies between turns, a bad one is refused, --resume resumes", async () => {
  await using fake = await startFakeAnthropic({ script: echo() });
  await using ws = await tempWorkspace();
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const args = ["-p", "--input-format", "stream-json", "--output-format", "stream-json"];
  const user = (text: string) =>
    JSON.stringify({ type: "user", message: { role: "user", content: text } });
  const control = (id: string, request: Record<string, unknown>) =>
    JSON.stringify({ type: "control_request", request_id: id, request });
  const first = await runCli([...args, "--workspace", ws.path], {
    env,
    stdin: [
      user("one"),
      control("m1", { subtype: "set_model", model: "haiku[1m]" }),
      control("m2", { subtype: "set_model", model: "haiku" }),
      user("two"),
    ].join("\n") + "\n",
  });
  assert.equal(first.code, 0, first.stderr);
  const lines = first.stdout.trim().split("\n").map((line) => JSON.parse(line));
  const answers = lines.filter((l) => l.type === "control_response");
  assert.equal(answers[0].response.subtype, "error");
  assert.match(answers[0].response.error, /no 1M-token window/);
  assert.equal(answers[1].response.subtype, "success");
  assert.deepEqual(fake.requests.map((r) => r.body?.model), [
    "claude-sonnet-5",
    "claude-haiku-4-5",
  ]);
  const id = lines[0].session_id;
  const again = await runCli([...args, "--workspace", ws.path, "--resume", id], {
    env,
    stdin: user("three") + "\n",
  });
  assert.equal(again.code, 0, again.stderr);
  const log = await readLogLines(`${ws.path}/.rein/events.jsonl`);
  assert.ok(log.some((e) => e.type === "session.resumed"), "the reopened session was resumed");
  const replay = await runCli(["replay", "--workspace", ws.path, "--verify", "-q"]);
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

Deno.test("stream-json never shows an answer that was set aside to be asked again", async () => {
  let asked = 0;
  await using fake = await startFakeAnthropic({
    script: () => ++asked === 1 ? maxTokens("set aside") : message("whole answer"),
  });
  await using ws = await tempWorkspace();
  const out = await runCli(
    ["-p", "go", "--output-format", "stream-json", "--workspace", ws.path],
    { env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY } },
  );
  assert.equal(out.code, 0, out.stderr);
  const answers = out.stdout.trim().split("\n").map((line) => JSON.parse(line))
    .filter((line) => line.type === "assistant")
    .map((line) => line.message.content.map((b: { text?: string }) => b.text).join(""));
  assert.deepEqual(answers, ["whole answer"]);
});
