/**
 * Hooks end to end: real hook scripts (tests/hooks/) in a workspace's .claude/settings.json,
 * driven by headless rein runs against the fake model, then replayed with --verify.
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

const KEY = "sk-ant-hooks-test";
const HOOKS = fileURLToPath(new URL("./hooks/", import.meta.url));
const DENO = Deno.execPath();

/**
 * A hook command line as a user would write it in a project's settings: the scripts live in the
 * project (`writeSettings` copies them to `.claude/hooks/`), where the sandbox lets them be read.
 */
function script(name: string, ...args: string[]): string {
  const path = `$CLAUDE_PROJECT_DIR/.claude/hooks/${name}`;
  const run = name.endsWith(".ts")
    ? `"${DENO}" run --quiet --allow-env "${path}"`
    : `bash "${path}"`;
  return [run, ...args.map((arg) => `"${arg}"`)].join(" ");
}

async function writeSettings(workspace: string, settings: unknown): Promise<void> {
  await Deno.mkdir(`${workspace}/.claude/hooks`, { recursive: true });
  for await (const entry of Deno.readDir(HOOKS)) {
    await Deno.copyFile(`${HOOKS}${entry.name}`, `${workspace}/.claude/hooks/${entry.name}`);
  }
  await Deno.writeTextFile(`${workspace}/.claude/settings.json`, JSON.stringify(settings, null, 2));
}

/** The model's n-th answer of the turn (counting its earlier answers in the request). */
function answers(steps: ((n: number) => ReturnType<FakeScriptFn>)[]): FakeScriptFn {
  return (request) => {
    const n = (request.body?.messages ?? []).filter((m) => m.role === "assistant").length;
    return (steps[n] ?? (() => message("Nothing more.")))(n);
  };
}

Deno.test("PreToolUse hooks block rm and rewrite npm to pnpm, a Stop hook forces one continuation, and it all replays", async () => {
  await using ws = await tempWorkspace();
  await writeSettings(ws.path, {
    hooks: {
      PreToolUse: [{
        matcher: "Bash",
        hooks: [
          { type: "command", command: script("block_rm.sh") },
          { type: "command", command: script("rewrite_npm.ts") },
        ],
      }],
      Stop: [{ hooks: [{ type: "command", command: script("stop_once.ts") }] }],
    },
  });
  await using fake = await startFakeAnthropic({
    script: answers([
      () => message([toolUse("toolu_rm", "bash", { command: "rm -rf build" })]),
      () => message([toolUse("toolu_npm", "bash", { command: "npm test" })]),
      () => message("All done."),
      () => message("Tests pass now."),
    ]),
  });
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const run = await runCli(
    ["--trust", "-p", "clean up", "--allowedTools", "Bash", "--workspace", ws.path],
    { env },
  );
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.trim(), "Tests pass now.");
  const log = await readLogLines(`${ws.path}/.rein/events.jsonl`);

  const rm = log.find((e) => e.type === "tool.completed" && e.data.callId === "toolu_rm");
  assert.equal(rm?.data.outcome, "blocked");
  assert.match(
    String(rm?.data.content),
    /^Blocked by a hook: Blocked by block_rm\.sh: rm is not allowed/,
  );
  assert.ok(!log.some((e) => e.type === "tool.requested" && e.data.callId === "toolu_rm"));

  const npm = log.find((e) => e.type === "tool.requested" && e.data.callId === "toolu_npm");
  assert.deepEqual(npm?.data.input, { command: "pnpm test" });
  const decided = log.find((e) => e.type === "permission.decided" && e.data.callId === "toolu_npm");
  assert.equal((decided?.data.source as { kind: string }).kind, "hook");

  const stops = log.filter((e) => e.type === "hook.ran" && e.data.hookEvent === "Stop");
  assert.equal(stops.length, 2, "the Stop hook ran after each answer");
  assert.match(String(stops[0]?.data.stdout), /"decision":"block"/);
  assert.equal(stops[1]?.data.stdout, "");
  const context = log.filter((e) => e.type === "hook.context").map((e) => e.data.text);
  assert.deepEqual(context, [
    "Stop hook feedback: Run the tests before stopping (you said: All done.)",
  ]);
  assert.equal(fake.requests.length, 4);

  // The settings change after the run; replay serves what the run read.
  await writeSettings(ws.path, {});
  const replay = await runCli(["replay", "--verify", "--quiet", "--workspace", ws.path]);
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

Deno.test("a hanging PreToolUse hook is stopped at its timeout with its processes, and decides nothing", async () => {
  await using ws = await tempWorkspace();
  const pidFile = `${ws.path}/hook.pid`;
  await writeSettings(ws.path, {
    hooks: {
      PreToolUse: [{
        matcher: "Write",
        hooks: [{ type: "command", command: script("hang.sh", pidFile), timeout: 1 }],
      }],
    },
  });
  await using fake = await startFakeAnthropic({
    script: answers([
      () => message([toolUse("toolu_w", "write_file", { path: "a.txt", content: "a\n" })]),
      () => message("Written."),
    ]),
  });
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const run = await runCli(
    ["--trust", "-p", "write", "--permission-mode", "acceptEdits", "--workspace", ws.path],
    { env },
  );
  assert.equal(run.code, 0, run.stderr);
  assert.equal(await Deno.readTextFile(`${ws.path}/a.txt`), "a\n");
  const log = await readLogLines(`${ws.path}/.rein/events.jsonl`);
  const ran = log.find((e) => e.type === "hook.ran");
  assert.equal(ran?.data.ending, "timed_out");
  assert.equal(ran?.data.exitCode, null);
  assert.ok(await Deno.stat(pidFile), "the hook ran");
  const left = await new Deno.Command("pgrep", { args: ["-f", pidFile] }).output();
  assert.equal(new TextDecoder().decode(left.stdout), "", "the hung hook's processes are gone");
  const replay = await runCli(["replay", "--verify", "--quiet", "--workspace", ws.path]);
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

Deno.test("a UserPromptSubmit hook that exits 2 drops the prompt before the model sees it", async () => {
  await using ws = await tempWorkspace();
  await writeSettings(ws.path, {
    hooks: {
      UserPromptSubmit: [{ hooks: [{ type: "command", command: script("guard_prompt.sh") }] }],
    },
  });
  await using fake = await startFakeAnthropic({ script: () => message("Hi.") });
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const run = await runCli(["--trust", "-p", "my password is hunter2", "--workspace", ws.path], {
    env,
  });
  assert.equal(run.code, 1);
  assert.match(run.stderr, /The prompt was blocked: Prompts must not contain passwords/);
  assert.equal(fake.requests.length, 0);
  const replay = await runCli(["replay", "--verify", "--quiet", "--workspace", ws.path]);
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

Deno.test("replay --verify fails where the recorded rules no longer allow what the run did", async () => {
  await using ws = await tempWorkspace();
  await using fake = await startFakeAnthropic({
    script: answers([
      () => message([toolUse("toolu_1", "bash", { command: "mkdir -p out" })]),
      () => message("Made."),
    ]),
  });
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const run = await runCli(
    ["--trust", "-p", "make it", "--allowedTools", "Bash(mkdir *)", "--workspace", ws.path],
    { env },
  );
  assert.equal(run.code, 0, run.stderr);
  const logPath = `${ws.path}/.rein/events.jsonl`;
  const clean = await runCli(["replay", "--verify", "--quiet", "--workspace", ws.path]);
  assert.equal(clean.code, 0, clean.stdout + clean.stderr);
  // The same log with the rule taken out of its recorded flags: today's rules would ask.
  const lines = (await Deno.readTextFile(logPath)).trimEnd().split("\n").map((l) => JSON.parse(l));
  lines[0].data.settings.flags = {};
  await Deno.writeTextFile(logPath, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  const tampered = await runCli(["replay", "--verify", "--workspace", ws.path]);
  assert.equal(tampered.code, 1);
  assert.match(tampered.stdout + tampered.stderr, /diverges at seq \d+/);
  assert.match(tampered.stdout + tampered.stderr, /permission\.decided/);
});

Deno.test("an untrusted project's hooks do not run, a trusted project's run as the person's own do; the person's own hooks from ~/.claude always run", async () => {
  await using ws = await tempWorkspace();
  await using elsewhere = await tempWorkspace();
  const home = `${elsewhere.path}/home`;
  await Deno.mkdir(`${home}/.claude`, { recursive: true });
  await Deno.mkdir(`${elsewhere.path}/out`);
  const touch = (name: string) => ({
    hooks: [{ type: "command", command: `touch "${elsewhere.path}/out/${name}"` }],
  });
  await Deno.writeTextFile(
    `${home}/.claude/settings.json`,
    JSON.stringify({ hooks: { UserPromptSubmit: [touch("from-user-hook")] } }),
  );
  await writeSettings(ws.path, { hooks: { UserPromptSubmit: [touch("from-project-hook")] } });
  await using fake = await startFakeAnthropic({ script: () => message("Hi.") });
  // Another home for the user's settings; Deno's cache stays where it is.
  const denoDir = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;
  const env = {
    ANTHROPIC_BASE_URL: fake.url,
    ANTHROPIC_API_KEY: KEY,
    HOME: home,
    DENO_DIR: denoDir,
  };
  const run = await runCli(["-p", "hello", "--workspace", ws.path], { env });
  assert.equal(run.code, 0, run.stderr);
  assert.ok(await Deno.stat(`${elsewhere.path}/out/from-user-hook`));
  await assert.rejects(Deno.stat(`${elsewhere.path}/out/from-project-hook`));
  assert.match(run.stderr, /Ignored in this untrusted folder: hooks/);
  const trusted = await runCli(["--trust", "-p", "hello", "--workspace", ws.path], { env });
  assert.equal(trusted.code, 0, trusted.stderr);
  assert.ok(await Deno.stat(`${elsewhere.path}/out/from-project-hook`));
});

Deno.test("SessionStart adds context before the first prompt and SessionEnd runs when the run ends; both replay", async () => {
  await using ws = await tempWorkspace();
  const ended = `${ws.path}/ended.json`;
  await writeSettings(ws.path, {
    hooks: {
      SessionStart: [{
        matcher: "startup",
        hooks: [{ type: "command", command: script("session_context.ts") }],
      }],
      SessionEnd: [{ hooks: [{ type: "command", command: `cat > "${ended}"` }] }],
    },
  });
  await using fake = await startFakeAnthropic({ script: () => message("Hi.") });
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const run = await runCli(["--trust", "-p", "hello", "--workspace", ws.path], { env });
  assert.equal(run.code, 0, run.stderr);
  const first = fake.requests[0]?.body?.messages[0]?.content;
  assert.match(JSON.stringify(first), /Session [0-9a-f-]+ \(startup\)/);
  const input = JSON.parse(await Deno.readTextFile(ended));
  assert.equal(input.hook_event_name, "SessionEnd");
  assert.equal(input.reason, "other");
  const log = await readLogLines(`${ws.path}/.rein/events.jsonl`);
  assert.equal(log.at(-1)?.type, "session.ended");
  const replay = await runCli(["replay", "--verify", "--quiet", "--workspace", ws.path]);
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

Deno.test("SessionStart runs with source resume when a session is resumed with a prompt, and fork for a fork", async () => {
  await using ws = await tempWorkspace();
  const seen = `${ws.path}/sources.txt`;
  await writeSettings(ws.path, {
    hooks: {
      SessionStart: [{
        hooks: [{ type: "command", command: `grep -o '"source":"[a-z]*"' >> "${seen}"` }],
      }],
    },
  });
  await using fake = await startFakeAnthropic({ script: () => message("Hi.") });
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  assert.equal((await runCli(["--trust", "-p", "one", "--workspace", ws.path], { env })).code, 0);
  const again = await runCli(["--continue", "--trust", "-p", "two", "--workspace", ws.path], {
    env,
  });
  assert.equal(again.code, 0, again.stderr);
  const log = await readLogLines(`${ws.path}/.rein/events.jsonl`);
  const session = log[0]?.session;
  const forked = await runCli([
    "--fork",
    `${session}@3`,
    "--trust",
    "-p",
    "three",
    "--workspace",
    ws.path,
  ], {
    env,
  });
  assert.equal(forked.code, 0, forked.stderr);
  const sources = (await Deno.readTextFile(seen)).trim().split("\n");
  assert.deepEqual(sources, ['"source":"startup"', '"source":"resume"', '"source":"fork"']);
  const replay = await runCli(["replay", "--verify", "--quiet", "--workspace", ws.path]);
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});
