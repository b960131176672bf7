/**
 * Custom slash commands end to end, in Claude Code's format: `.claude/commands/**\/*.md` (and
 * `~/.claude/commands/`) with frontmatter, `$ARGUMENTS` and `$1`, a `` !`git status --short` ``
 * line and an `@file`, run as `-p "/name args"` against the fake model; the stream-json `init`
 * lists them; the command's `allowed-tools` lets a bash call run headless for its turn only; a
 * shell line no rule allows refuses the command; and the log replays with `--verify`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { message, startFakeAnthropic, toolUse } from "../testing/fake_anthropic.ts";
import type { RecordedRequest } from "../testing/fake_anthropic.ts";
import { CLI, readLogLines, runCli, tempWorkspace } from "./_cli.ts";
import { lastUserText } from "../testing/scenarios.ts";
import { shellQuote, Terminal } from "./_tmux.ts";

const KEY = "sk-ant-commands-test";
/** Deno's cache, kept when HOME moves to a temp directory. */
const DENO_DIR = Deno.env.get("DENO_DIR") ??
  join(Deno.env.get("HOME") ?? "/root", ".cache", "deno");

function firstUserText(request: RecordedRequest | undefined): string {
  return JSON.stringify(request?.body?.messages?.[0] ?? null);
}

async function git(cwd: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args],
    cwd,
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
}

/** A git workspace with a project command, a namespaced one and a user command; HOME beside it. */
async function setUp(root: string): Promise<{ project: string; home: string; review: string }> {
  const home = join(root, "home");
  const project = join(root, "project");
  await Deno.mkdir(join(home, ".claude", "commands"), { recursive: true });
  await Deno.mkdir(join(project, ".claude", "commands", "frontend"), { recursive: true });
  await Deno.writeTextFile(
    join(home, ".claude.json"),
    JSON.stringify({ projects: { [project]: { hasTrustDialogAccepted: true } } }),
  );
  await git(project, "init", "-q");
  await Deno.writeTextFile(join(project, "a.ts"), "export const a = 1;\n");
  await git(project, "add", "a.ts");
  await git(project, "commit", "-q", "-m", "a");
  await Deno.writeTextFile(join(project, "a.ts"), "export const a = 2;\n");
  await Deno.writeTextFile(join(project, "notes.md"), "Remember the NOTES-MARKER.\n");
  const review = join(project, ".claude", "commands", "review.md");
  await Deno.writeTextFile(
    review,
    [
      "---",
      "description: Review a file with a focus",
      "argument-hint: [file] [focus]",
      "allowed-tools: Bash(git status:*), Bash(touch made.txt)",
      "---",
      "Review $1 with a focus on $2 (all: $ARGUMENTS).",
      "",
      "Changes:",
      "!`git status --short`",
      "",
      "Read @notes.md first.",
      "",
    ].join("\n"),
  );
  await Deno.writeTextFile(
    join(project, ".claude", "commands", "frontend", "component.md"),
    "---\ndescription: Make a component\nmodel: haiku\n---\nMake the component $ARGUMENTS.\n",
  );
  await Deno.writeTextFile(
    join(project, ".claude", "commands", "sneaky.md"),
    "Look:\n!`touch sneaked.txt`\n",
  );
  await Deno.writeTextFile(
    join(home, ".claude", "commands", "hello.md"),
    "Say hello to $ARGUMENTS.\n",
  );
  return { project, home, review };
}

Deno.test('-p "/review a.ts security" expands a project command (arguments, git status, @file), its allowed-tools let a bash call run for its turn only, init lists the commands, and the log replays', async () => {
  await using ws = await tempWorkspace();
  const { project, home, review } = await setUp(ws.path);
  await using fake = await startFakeAnthropic({
    script: [
      message([toolUse("toolu_1", "bash", { command: "touch made.txt" })]),
      message("Reviewed."),
      message([toolUse("toolu_2", "bash", { command: "touch made.txt" })]),
      message("Not allowed now."),
    ],
  });
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY, HOME: home, DENO_DIR };
  const first = await runCli(
    [
      "-p",
      "/review a.ts security",
      "--output-format",
      "stream-json",
      "--verbose",
      "--workspace",
      project,
    ],
    { env },
  );
  assert.equal(first.code, 0, first.stderr);
  const lines = first.stdout.trim().split("\n").map((line) => JSON.parse(line));
  const init = lines.find((line) => line.subtype === "init");
  assert.ok(init, first.stdout);
  for (const name of ["review", "component", "hello"]) {
    assert.ok(init.slash_commands.includes(name), `${name} in ${init.slash_commands}`);
  }
  const prompt = firstUserText(fake.requests[0]);
  assert.match(prompt, /Review a\.ts with a focus on security \(all: a\.ts security\)\./);
  assert.match(prompt, / M a\.ts/, "the git status line ran and its output is inlined");
  assert.doesNotMatch(prompt, /!`git status/);
  assert.match(prompt, /Contents of notes\.md:\\n\\nRemember the NOTES-MARKER\./);
  await Deno.stat(join(project, "made.txt"));

  const log = join(project, ".rein", "events.jsonl");
  const events = await readLogLines(log);
  const invoked = events.find((e) => e.type === "command.invoked");
  assert.equal(invoked?.data.name, "review");
  assert.equal(invoked?.data.path, review);
  const allowed = events.find((e) =>
    e.type === "permission.decided" && (e.data as { callId?: string }).callId === "toolu_1"
  );
  assert.equal(allowed?.data.decision, "allow");
  assert.deepEqual(allowed?.data.source, {
    kind: "rule",
    rule: "Bash(touch made.txt)",
    file: review,
  });
  const started = events.find((e) => e.type === "session.started");
  const files = (started?.data.files as { source: string; path: string }[])
    .filter((file) => file.source === "commands").map((file) => file.path);
  assert.deepEqual(
    files.sort(),
    [
      join(home, ".claude", "commands", "hello.md"),
      join(project, ".claude", "commands", "frontend", "component.md"),
      review,
      join(project, ".claude", "commands", "sneaky.md"),
    ].sort(),
  );

  // The next turn is no command's: the same call is denied headless.
  await Deno.remove(join(project, "made.txt"));
  const second = await runCli(["--continue", "-p", "again", "--workspace", project], { env });
  assert.equal(second.code, 0, second.stderr);
  await assert.rejects(Deno.stat(join(project, "made.txt")));
  const denied = (await readLogLines(log)).find((e) =>
    e.type === "permission.decided" && (e.data as { callId?: string }).callId === "toolu_2"
  );
  assert.equal(denied?.data.decision, "deny");

  // Replay serves the recorded command text and shell output, whatever the disk says now.
  await Deno.writeTextFile(review, "Changed: $ARGUMENTS\n");
  const replay = await runCli(["replay", "--verify", "-q", "--workspace", project], {
    permissions: ["--allow-read", "--allow-env"],
    env: { HOME: home, DENO_DIR },
  });
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
  assert.match(replay.stdout, /all match the log/);
});

Deno.test("in a folder not trusted, a repository's command pre-approves nothing; with --trust its allowed-tools apply", async () => {
  await using ws = await tempWorkspace();
  const { project, home } = await setUp(ws.path);
  await Deno.remove(join(home, ".claude.json"));
  await Deno.writeTextFile(
    join(project, ".claude", "commands", "make.md"),
    "---\nallowed-tools: Bash(touch made.txt)\n---\nMake it.\n",
  );
  await using fake = await startFakeAnthropic({
    script: [
      message([toolUse("toolu_u1", "bash", { command: "touch made.txt" })]),
      message("Could not."),
      message([toolUse("toolu_u2", "bash", { command: "touch made.txt" })]),
      message("Made."),
    ],
  });
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY, HOME: home, DENO_DIR };
  const untrusted = await runCli(["-p", "/make", "--workspace", project], { env });
  assert.equal(untrusted.code, 0, untrusted.stderr);
  await assert.rejects(Deno.stat(join(project, "made.txt")));
  const sneaky = await runCli(["-p", "/sneaky", "--workspace", project], { env });
  assert.equal(sneaky.code, 1);
  const trusted = await runCli(["-p", "/make", "--trust", "--workspace", project], { env });
  assert.equal(trusted.code, 0, trusted.stderr);
  await Deno.stat(join(project, "made.txt"));
  const decided = (await readLogLines(join(project, ".rein", "events.jsonl")))
    .filter((e) => e.type === "permission.decided").map((e) => e.data.decision);
  assert.deepEqual(decided, ["deny", "allow"]);
});

Deno.test("a namespaced project command and a user command run by name; a shell line no rule allows refuses its command", async () => {
  await using ws = await tempWorkspace();
  const { project, home } = await setUp(ws.path);
  await using fake = await startFakeAnthropic({
    script: [message("Component made."), message("Hello.")],
  });
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY, HOME: home, DENO_DIR };
  const component = await runCli(["-p", "/component Button", "--workspace", project], { env });
  assert.equal(component.code, 0, component.stderr);
  assert.match(firstUserText(fake.requests[0]), /Make the component Button\./);
  assert.equal(fake.requests[0]?.body?.model, "claude-haiku-4-5", "the command's model");
  const hello = await runCli(["-p", "/hello Ada", "--workspace", project], { env });
  assert.equal(hello.code, 0, hello.stderr);
  assert.match(firstUserText(fake.requests[1]), /Say hello to Ada\./);
  assert.notEqual(fake.requests[1]?.body?.model, "claude-haiku-4-5");

  const sneaky = await runCli(["-p", "/sneaky", "--workspace", project], { env });
  assert.equal(sneaky.code, 1, sneaky.stderr);
  assert.match(sneaky.stderr, /Cannot run \/sneaky: its line !`touch sneaked\.txt` is not allowed/);
  assert.equal(sneaky.stderr.split("Cannot run /sneaky").length - 1, 1, "said once");
  assert.match(component.stderr, /— \/component\n/);
  await assert.rejects(Deno.stat(join(project, "sneaked.txt")));
  assert.equal(fake.requests.length, 2, "a refused command asks the model nothing");
  const refused = (await readLogLines(join(project, ".rein", "events.jsonl")))
    .filter((e) => e.type === "command.invoked").at(-1);
  assert.equal(refused?.data.name, "sneaky");
  assert.match(String(refused?.data.refused), /not allowed/);
  const replay = await runCli(["replay", "--verify", "-q", "--workspace", project], {
    permissions: ["--allow-read", "--allow-env"],
    env: { HOME: home, DENO_DIR },
  });
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

Deno.test("a skill whose name is a title loads by its folder's name, and its allowed-tools let a bash call run headless once it is loaded or invoked", async () => {
  await using ws = await tempWorkspace();
  const home = join(ws.path, "home");
  const project = join(ws.path, "project");
  const skill = join(project, ".claude", "skills", "pdf-helper", "SKILL.md");
  await Deno.mkdir(join(home, ".claude"), { recursive: true });
  await Deno.mkdir(join(project, ".claude", "skills", "pdf-helper"), { recursive: true });
  await Deno.writeTextFile(
    skill,
    "---\nname: PDF Helper\ndescription: Helps with PDFs\nallowed-tools: Bash(touch skill-made.txt)\n---\nMake the file for $ARGUMENTS.\n",
  );
  await using fake = await startFakeAnthropic({
    script: [
      message([toolUse("toolu_s1", "load_skill", { skill: "pdf-helper" })]),
      message([toolUse("toolu_s2", "bash", { command: "touch skill-made.txt" })]),
      message("Loaded and made."),
      message([toolUse("toolu_s3", "bash", { command: "touch skill-made.txt" })]),
      message("Invoked and made."),
    ],
  });
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY, HOME: home, DENO_DIR };
  const loaded = await runCli(["-p", "use the pdf skill", "--trust", "--workspace", project], {
    env,
  });
  assert.equal(loaded.code, 0, loaded.stderr);
  assert.doesNotMatch(loaded.stderr, /Skipped the skill/);
  await Deno.stat(join(project, "skill-made.txt"));
  await Deno.remove(join(project, "skill-made.txt"));

  const invoked = await runCli(
    ["-p", "/pdf-helper report.pdf", "--trust", "--workspace", project],
    {
      env,
    },
  );
  assert.equal(invoked.code, 0, invoked.stderr);
  assert.match(firstUserText(fake.requests[3]), /Make the file for report\.pdf\./);
  await Deno.stat(join(project, "skill-made.txt"));

  const log = join(project, ".rein", "events.jsonl");
  const decided = (await readLogLines(log)).filter((e) => e.type === "permission.decided");
  for (const callId of ["toolu_s2", "toolu_s3"]) {
    const decision = decided.find((e) => (e.data as { callId?: string }).callId === callId);
    assert.deepEqual(decision?.data.source, {
      kind: "rule",
      rule: "Bash(touch skill-made.txt)",
      file: skill,
    });
  }
  const replay = await runCli(["replay", "--verify", "-q", "--workspace", project], {
    permissions: ["--allow-read", "--allow-env"],
    env: { HOME: home, DENO_DIR },
  });
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

Deno.test(".claude/rules: rules without paths are instructions from the start; a rule with paths joins once when a file it names is read", async () => {
  await using ws = await tempWorkspace();
  const home = join(ws.path, "home");
  const project = join(ws.path, "project");
  await Deno.mkdir(join(home, ".claude", "rules"), { recursive: true });
  await Deno.mkdir(join(project, ".claude", "rules", "lang"), { recursive: true });
  await Deno.mkdir(join(project, "src"), { recursive: true });
  await Deno.writeTextFile(join(project, "README.md"), "readme\n");
  await Deno.writeTextFile(join(project, "src", "a.ts"), "export const a = 1;\n");
  await Deno.writeTextFile(join(project, "src", "b.ts"), "export const b = 1;\n");
  await Deno.writeTextFile(
    join(project, ".claude", "rules", "style.md"),
    "Use tabs: RULE-ALWAYS.\n",
  );
  const tsRule = join(project, ".claude", "rules", "lang", "typescript.md");
  await Deno.writeTextFile(
    tsRule,
    '---\npaths:\n  - "src/**/*.ts"\n---\n# TypeScript\nNo any: TS-RULE-MARKER.\n',
  );
  await Deno.writeTextFile(join(home, ".claude", "rules", "mine.md"), "Be brief: USER-RULE.\n");
  await using fake = await startFakeAnthropic({
    script: [
      message([toolUse("toolu_r1", "read_file", { path: "README.md" })]),
      message([toolUse("toolu_r2", "read_file", { path: "src/a.ts" })]),
      message([toolUse("toolu_r3", "read_file", { path: "src/b.ts" })]),
      message("Read."),
    ],
  });
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY, HOME: home, DENO_DIR };
  const run = await runCli(["-p", "read things", "--workspace", project], { env });
  assert.equal(run.code, 0, run.stderr);
  const system = JSON.stringify(fake.requests[0]?.body?.system ?? "");
  assert.match(system, /RULE-ALWAYS/);
  assert.match(system, /USER-RULE/);
  assert.doesNotMatch(system, /TS-RULE-MARKER/);
  const messages = (n: number) => JSON.stringify(fake.requests[n]?.body?.messages ?? []);
  assert.doesNotMatch(messages(1), /TS-RULE-MARKER/, "README.md is no file the rule names");
  assert.match(messages(2), /TS-RULE-MARKER/, "reading src/a.ts brings the rule in");
  assert.equal(messages(3).split("TS-RULE-MARKER").length - 1, 1, "once per session");

  const events = await readLogLines(join(project, ".rein", "events.jsonl"));
  const reminders = events.filter((e) =>
    e.type === "reminder.added" && String(e.data.source).startsWith("memory.rule:")
  );
  assert.deepEqual(reminders.map((e) => e.data.source), [`memory.rule:${tsRule}`]);
  const replay = await runCli(["replay", "--verify", "-q", "--workspace", project], {
    permissions: ["--allow-read", "--allow-env"],
    env: { HOME: home, DENO_DIR },
  });
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

Deno.test("in the REPL, /help lists the custom commands and /greet Ada runs one", async () => {
  await using ws = await tempWorkspace();
  const home = join(ws.path, "home");
  const project = join(ws.path, "project");
  await Deno.mkdir(join(home, ".claude"), { recursive: true });
  await Deno.mkdir(join(project, ".claude", "commands"), { recursive: true });
  await Deno.writeTextFile(
    join(home, ".claude.json"),
    JSON.stringify({ projects: { [project]: { hasTrustDialogAccepted: true } } }),
  );
  await Deno.writeTextFile(
    join(project, ".claude", "commands", "greet.md"),
    "---\ndescription: Greet someone\nargument-hint: [name]\n---\nSay hi to $1.\n",
  );
  await Deno.writeTextFile(join(project, ".claude", "commands", "sneaky.md"), "!`touch x`\n");
  await using fake = await startFakeAnthropic({
    script: (request) => message(`You said: ${lastUserText(request.body)}`),
  });
  const exitFile = join(ws.path, "exitcode");
  const command = [
    `HOME=${shellQuote(home)} DENO_DIR=${shellQuote(DENO_DIR)}`,
    `ANTHROPIC_BASE_URL=${shellQuote(fake.url)} ANTHROPIC_API_KEY=${KEY}`,
    `${shellQuote(Deno.execPath())} run -A ${shellQuote(CLI)} agent`,
    `--workspace ${shellQuote(project)}; echo $? > ${shellQuote(exitFile)}`,
  ].join(" ");
  await using terminal = await Terminal.start(`sh -c ${shellQuote(command)}`);
  const atPrompt = (s: { cursorLine: string; cursorX: number }) =>
    s.cursorLine === ">" && s.cursorX === 2;
  await terminal.waitFor("the prompt", atPrompt, 20_000);
  await terminal.type("/help");
  await terminal.press("Enter");
  await terminal.waitFor(
    "/help with the custom commands",
    (s) => atPrompt(s) && /\/greet \[name\] {2}Greet someone \(project\)/.test(s.text),
  );
  await terminal.type("/greet Ada");
  await terminal.press("Enter");
  await terminal.waitFor(
    "the command's answer",
    (s) => atPrompt(s) && s.text.includes("You said: Say hi to Ada."),
  );
  await terminal.type("/sneaky");
  await terminal.press("Enter");
  const refused = await terminal.waitFor(
    "the refusal",
    (s) => atPrompt(s) && s.text.includes("Cannot run /sneaky"),
  );
  assert.equal(refused.text.split("Cannot run /sneaky").length - 1, 1, "said once");
  await terminal.press("C-d");
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && !(await Deno.readTextFile(exitFile).catch(() => ""))) {
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
  const events = await readLogLines(join(project, ".rein", "events.jsonl"));
  assert.equal(events.filter((e) => e.type === "command.invoked").length, 2);
  const replay = await runCli(["replay", "--verify", "-q", "--workspace", project], {
    permissions: ["--allow-read", "--allow-env"],
    env: { HOME: home, DENO_DIR },
  });
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

Deno.test("stream-json input (the Agent SDK's): initialize lists the commands, and a user message /hello Ada runs one", async () => {
  await using ws = await tempWorkspace();
  const { project, home } = await setUp(ws.path);
  await using fake = await startFakeAnthropic({
    script: (request) => message(`You said: ${lastUserText(request.body)}`),
  });
  const input = [
    { type: "control_request", request_id: "init-1", request: { subtype: "initialize" } },
    {
      type: "user",
      session_id: "",
      message: { role: "user", content: "/hello Ada" },
      parent_tool_use_id: null,
    },
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
      project,
    ],
    {
      env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY, HOME: home, DENO_DIR },
      stdin: input,
    },
  );
  assert.equal(out.code, 0, out.stderr);
  const lines = out.stdout.trim().split("\n").map((line) => JSON.parse(line));
  const answer = lines.find((l) =>
    l.type === "control_response" && l.response.request_id === "init-1"
  );
  const commands = answer?.response.response.commands as { name: string; description: string }[];
  assert.deepEqual(
    commands.find((c) => c.name === "review"),
    { name: "review", description: "Review a file with a focus", argumentHint: "[file] [focus]" },
  );
  const results = lines.filter((l) => l.type === "result").map((r) => r.result);
  assert.deepEqual(results, ["You said: Say hello to Ada."]);
});
