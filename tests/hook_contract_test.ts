/**
 * The hook contract as Claude Code gives it, end to end: hook scripts written for Claude Code
 * (bash+jq and Python, tests/hook_contract/) read `.tool_response.stdout`,
 * `.tool_response.filePath` and parse `transcript_path`; a Stop hook sends the agent back once
 * with `hookSpecificOutput.additionalContext` (its state in `.claude/`). Headless rein runs
 * against the fake model, then replays with --verify.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import {
  type FakeScriptFn,
  message,
  startFakeAnthropic,
  toolUse,
} from "../testing/fake_anthropic.ts";
import { readLogLines, runCli, tempWorkspace } from "./_cli.ts";

const KEY = "sk-ant-hook-contract-test";
const SCRIPTS = fileURLToPath(new URL("./hook_contract/", import.meta.url));

async function writeSettings(workspace: string, settings: unknown): Promise<void> {
  await Deno.mkdir(`${workspace}/.claude/hooks`, { recursive: true });
  for await (const entry of Deno.readDir(SCRIPTS)) {
    await Deno.copyFile(`${SCRIPTS}${entry.name}`, `${workspace}/.claude/hooks/${entry.name}`);
  }
  await Deno.writeTextFile(`${workspace}/.claude/settings.json`, JSON.stringify(settings, null, 2));
}

/** The model's n-th answer of the turn (counting its earlier answers in the request). */
function answers(steps: (() => ReturnType<FakeScriptFn>)[]): FakeScriptFn {
  return (request) => {
    const n = (request.body?.messages ?? []).filter((m) => m.role === "assistant").length;
    return (steps[n] ?? (() => message("Nothing more.")))();
  };
}

const hook = (command: string) => ({ type: "command", command });
/** Keeps each hook's `prompt_id` and event name. */
const PROMPT_ID =
  `jq -r '"\\(.hook_event_name) \\(.prompt_id)"' >> "$CLAUDE_PROJECT_DIR/.claude/prompt_ids.txt"`;

Deno.test("hooks written for Claude Code read tool_response and the transcript, and a Stop hook's additionalContext continues the turn once", async () => {
  await using ws = await tempWorkspace();
  await writeSettings(ws.path, {
    hooks: {
      UserPromptSubmit: [{ hooks: [hook(PROMPT_ID)] }],
      PostToolUse: [
        { matcher: "Write", hooks: [hook(PROMPT_ID)] },
        { matcher: "Bash", hooks: [hook('bash "$CLAUDE_PROJECT_DIR/.claude/hooks/post_bash.sh"')] },
        {
          matcher: "Write|Edit",
          hooks: [hook('python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/post_write.py"')],
        },
      ],
      Stop: [{ hooks: [hook('python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/stop_transcript.py"')] }],
    },
  });
  await using fake = await startFakeAnthropic({
    script: answers([
      () => message([toolUse("toolu_echo", "bash", { command: "echo hello-from-bash" })]),
      () => message([toolUse("toolu_w", "write_file", { path: "notes/a.txt", content: "a\n" })]),
      () =>
        message([
          toolUse("toolu_e", "edit_file", {
            path: "notes/a.txt",
            old_string: "a",
            new_string: "b",
          }),
        ]),
      () => message("All done."),
      () => message("Continued after the hook."),
    ]),
  });
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const run = await runCli(
    ["--trust", "-p", "go", "--allowedTools", "Bash,Write,Edit,Read", "--workspace", ws.path],
    { env },
  );
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.trim(), "Continued after the hook.");

  // bash+jq: .tool_response.stdout is the command's output; duration_ms is a number.
  const bashOut = await Deno.readTextFile(`${ws.path}/.claude/bash_out.txt`);
  assert.equal(bashOut, "hello-from-bash\nBash interrupted=false duration=number\n");

  // Python: .tool_response.filePath is the absolute path; Write says it created the file.
  const files = await Deno.readTextFile(`${ws.path}/.claude/files.txt`);
  assert.equal(
    files,
    `Write create ${ws.path}/notes/a.txt\nEdit edit ${ws.path}/notes/a.txt\n`,
  );

  // prompt_id: the same for the prompt's own hook and the hooks of its turn.
  const ids = (await Deno.readTextFile(`${ws.path}/.claude/prompt_ids.txt`)).trim().split("\n");
  assert.deepEqual(ids.map((line) => line.split(" ")[0]), ["UserPromptSubmit", "PostToolUse"]);
  const [promptId] = ids.map((line) => line.split(" ")[1]);
  assert.match(String(promptId), /^[0-9a-f]{8}-/);
  assert.equal(new Set(ids.map((line) => line.split(" ")[1])).size, 1);

  // The Stop hook parsed the transcript and its additionalContext went to the model, once.
  const log = await readLogLines(`${ws.path}/.rein/events.jsonl`);
  const context = log.filter((e) => e.type === "hook.context").map((e) => e.data.text);
  assert.deepEqual(context, [
    "Stop hook feedback: Transcript: 8 lines, tools Bash,Write,Edit, last said: All done.",
  ]);
  const stops = log.filter((e) => e.type === "hook.ran" && e.data.hookEvent === "Stop");
  assert.equal(stops.length, 2);
  assert.equal(fake.requests.length, 5);

  // The transcript beside the log: Claude Code's line shape, each line's parent the one before.
  const session = String(log.find((e) => e.type === "session.started")?.session);
  const transcript = `${ws.path}/.rein/transcripts/${session}.jsonl`;
  const lines = (await Deno.readTextFile(transcript)).trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((l) => l.type), [
    "user",
    "assistant",
    "user",
    "assistant",
    "user",
    "assistant",
    "user",
    "assistant",
    "user",
    "assistant",
  ]);
  assert.equal(lines[0].message.content, "go");
  assert.equal(lines[0].parentUuid, null);
  for (const [i, line] of lines.entries()) {
    assert.equal(line.sessionId, session);
    assert.equal(line.cwd, ws.path);
    assert.match(line.uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
    if (i > 0) assert.equal(line.parentUuid, lines[i - 1].uuid);
  }
  assert.equal(lines[2].message.content[0].type, "tool_result");
  assert.equal(lines[2].message.content[0].tool_use_id, "toolu_echo");
  assert.equal(lines[2].toolUseResult.stdout, "hello-from-bash");
  assert.equal(lines[1].message.content[0].name, "Bash");

  // Replay serves the runs and writes no transcript.
  await Deno.remove(`${ws.path}/.rein/transcripts`, { recursive: true });
  const replay = await runCli(["replay", "--verify", "--quiet", "--workspace", ws.path]);
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
  await assert.rejects(Deno.stat(`${ws.path}/.rein/transcripts`), Deno.errors.NotFound);
});

Deno.test("a Stop hook is told the background jobs still running and the session's cron jobs", async () => {
  await using ws = await tempWorkspace();
  const record = `jq -c '{tasks: [.background_tasks[] | {type, command, status}], ` +
    `crons: [.session_crons[] | {cron, prompt, recurring}]}' ` +
    `>> "$CLAUDE_PROJECT_DIR/.claude/stop_input.jsonl"; touch "$CLAUDE_PROJECT_DIR/stopped"`;
  // The job runs until the first Stop hook has recorded what it was told (10 s at most).
  const job = "timeout 10 sh -c 'until [ -f stopped ]; do sleep 0.02; done'";
  await writeSettings(ws.path, { hooks: { Stop: [{ hooks: [hook(record)] }] } });
  await using fake = await startFakeAnthropic({
    script: answers([
      () =>
        message([
          toolUse("toolu_bg", "bash", { command: job, run_in_background: true }),
          toolUse("toolu_cron", "schedule_cron", {
            cron: "0 9 * * 1",
            prompt: "Weekly standup notes",
            recurring: true,
          }),
        ]),
      () => message("Started."),
    ]),
  });
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const run = await runCli(
    [
      "--trust",
      "-p",
      "go",
      "--allowedTools",
      "Bash,CronCreate",
      "--workspace",
      ws.path,
    ],
    { env },
  );
  assert.equal(run.code, 0, run.stderr);
  const lines = (await Deno.readTextFile(`${ws.path}/.claude/stop_input.jsonl`)).trim().split("\n");
  // Headless rein waits for the job and tells the agent of its end: the second Stop sees none.
  const crons = [{ cron: "0 9 * * 1", prompt: "Weekly standup notes", recurring: true }];
  assert.deepEqual(lines.map((line) => JSON.parse(line)), [
    { tasks: [{ type: "bash", command: job, status: "running" }], crons },
    { tasks: [], crons },
  ]);
  const replay = await runCli(["replay", "--verify", "--quiet", "--workspace", ws.path]);
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

Deno.test("a PermissionRequest hook answers in the person's place, and a SubagentStart hook's context reaches the subagent", async () => {
  await using ws = await tempWorkspace();
  // Allows mkdir, denies anything else the gate would ask about (Claude Code's decision shape).
  const decide = `jq -c 'if (.tool_input.command | startswith("mkdir")) ` +
    `then {hookSpecificOutput: {hookEventName: "PermissionRequest", decision: {behavior: "allow"}}} ` +
    `else {hookSpecificOutput: {hookEventName: "PermissionRequest", decision: {behavior: "deny", ` +
    `message: "Only mkdir, said the hook"}}} end'`;
  const started =
    `jq -r '"\\(.hook_event_name) \\(.agent_type)"' >> "$CLAUDE_PROJECT_DIR/.claude/started.txt"; ` +
    `echo '{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"Subagent rule: be brief"}}'`;
  await writeSettings(ws.path, {
    hooks: {
      PermissionRequest: [{ matcher: "Bash", hooks: [hook(decide)] }],
      SubagentStart: [{ matcher: "Explore", hooks: [hook(started)] }],
      SubagentStop: [{
        hooks: [
          hook(
            `jq -r '"\\(.hook_event_name) \\(.agent_type)"' >> "$CLAUDE_PROJECT_DIR/.claude/started.txt"`,
          ),
        ],
      }],
    },
  });
  const texts = (request: Parameters<FakeScriptFn>[0]) =>
    JSON.stringify(request.body?.messages?.[0]?.content ?? "");
  await using fake = await startFakeAnthropic({
    script: (request, index) => {
      if (texts(request).includes("look around")) return message("Subagent done.");
      return answers([
        () =>
          message([
            toolUse("toolu_ok", "bash", { command: "mkdir made-by-hook" }),
            toolUse("toolu_no", "bash", { command: "touch nope.txt" }),
          ]),
        () =>
          message([
            toolUse("toolu_task", "task", {
              description: "Look around",
              prompt: "look around",
              subagent_type: "Explore",
            }),
          ]),
        () => message("Finished."),
      ])(request, index);
    },
  });
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const run = await runCli(["--trust", "-p", "go", "--workspace", ws.path], { env });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.trim(), "Finished.");
  const log = await readLogLines(`${ws.path}/.rein/events.jsonl`);
  const decided = (id: string) =>
    log.find((e) => e.type === "permission.decided" && e.data.callId === id)?.data;
  assert.equal(decided("toolu_ok")?.decision, "allow");
  assert.equal((decided("toolu_ok")?.source as { kind: string }).kind, "hook");
  assert.equal(decided("toolu_no")?.decision, "deny");
  assert.equal(decided("toolu_no")?.reason, "Only mkdir, said the hook");
  assert.ok((await Deno.stat(`${ws.path}/made-by-hook`)).isDirectory);
  await assert.rejects(Deno.stat(`${ws.path}/nope.txt`), Deno.errors.NotFound);

  assert.equal(
    await Deno.readTextFile(`${ws.path}/.claude/started.txt`),
    "SubagentStart Explore\nSubagentStop Explore\n",
  );
  const sub = fake.requests.find((r) => texts(r).includes("look around"));
  assert.match(texts(sub!), /Subagent rule: be brief/);

  const replay = await runCli(["replay", "--verify", "--quiet", "--workspace", ws.path]);
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

Deno.test("a PostToolUse hook's continue:false ends the turn after the call, with its stopReason", async () => {
  await using ws = await tempWorkspace();
  const halt = `echo '{"continue": false, "stopReason": "Build broke, stopping"}'`;
  await writeSettings(ws.path, {
    hooks: { PostToolUse: [{ matcher: "Write", hooks: [hook(halt)] }] },
  });
  await using fake = await startFakeAnthropic({
    script: answers([
      () => message([toolUse("toolu_w", "write_file", { path: "a.txt", content: "a\n" })]),
      () => message("Should not be asked."),
    ]),
  });
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const run = await runCli(
    ["--trust", "-p", "go", "--allowedTools", "Write", "--workspace", ws.path],
    { env },
  );
  assert.equal(fake.requests.length, 1, "the model is not asked again");
  const log = await readLogLines(`${ws.path}/.rein/events.jsonl`);
  const ended = log.find((e) => e.type === "turn.ended");
  assert.equal(ended?.data.message, "Stopped by a hook: Build broke, stopping");
  assert.equal(await Deno.readTextFile(`${ws.path}/a.txt`), "a\n");
  assert.equal(run.code, 0, run.stderr);
  const replay = await runCli(["replay", "--verify", "--quiet", "--workspace", ws.path]);
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});
