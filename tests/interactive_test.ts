import assert from "node:assert/strict";
import {
  type FakeAnthropic,
  type FakeScriptFn,
  message,
  startFakeAnthropic,
  text,
  toolUse,
} from "../testing/fake_anthropic.ts";
import { lastUserText, toolResultCount } from "../testing/scenarios.ts";
import { type Screen, shellQuote, Terminal } from "./_tmux.ts";
import { cliEntry } from "./_cli.ts";

const MAIN = new URL("../cli/main.ts", import.meta.url).pathname;
const STREAMED = "Streaming answer: alpha bravo charlie delta echo foxtrot golf hotel india " +
  "juliet kilo lima mike november oscar papa quebec romeo sierra tango. THE END.";

/** Replies chosen by the prompt, so every test can use one script. */
const MARKDOWN = "# Plan\n\nSome **bold** words and `code`.\n\n- first item\n- second item\n\n" +
  "```ts\nconst answer = 42;\n```\nDone.";

const script: FakeScriptFn = (request) => {
  const prompt = lastUserText(request.body);
  if (prompt === "stream please") return message(STREAMED, { chunkDelayMs: 250 });
  if (prompt === "markdown please") return message(MARKDOWN, { chunkDelayMs: 20 });
  if (prompt === "edit please") {
    const done = toolResultCount(request.body);
    if (done === 0) {
      return message([
        toolUse("toolu_w", "write_file", { path: "a.txt", content: "alpha\nbeta\n" }),
      ]);
    }
    if (done === 1) {
      return message([
        toolUse("toolu_e", "edit_file", { path: "a.txt", old_string: "beta", new_string: "gamma" }),
      ]);
    }
    return message("Edited.");
  }
  if (prompt === "Find the text files") {
    return toolResultCount(request.body) === 0
      ? message([toolUse("toolu_child", "glob", { pattern: "*.txt" })])
      : message("Found none");
  }
  if (prompt === "delegate please") {
    return toolResultCount(request.body) === 0
      ? message([
        toolUse("toolu_task", "task", {
          description: "find text files",
          prompt: "Find the text files",
          subagent_type: "Explore",
        }),
      ])
      : message("The explorer is done.");
  }
  if (prompt === "sleep please") {
    return message([text("Sleeping."), toolUse("toolu_sleep", "bash", { command: "sleep 30" })]);
  }
  return message(`You said: ${prompt}`);
};

interface Agent extends AsyncDisposable {
  terminal: Terminal;
  workspace: string;
  /** Resolves to the exit code once the agent has left, or rejects after `timeoutMs`. */
  exitCode(timeoutMs?: number): Promise<number>;
}

/**
 * Start `rein agent` in tmux against `fake`, in a fresh workspace (or `options.workspace`) with
 * `options.args`; the exit code goes to a file.
 */
async function startAgent(
  fake: FakeAnthropic,
  options: { workspace?: string; args?: string[] } = {},
): Promise<Agent> {
  const dir = await Deno.makeTempDir({ prefix: "rein-interactive-" });
  const workspace = options.workspace ?? `${dir}/ws`;
  if (!options.workspace) await Deno.mkdir(workspace);
  const exitFile = `${dir}/exitcode`;
  const command = [
    "env -u NO_COLOR",
    `ANTHROPIC_BASE_URL=${shellQuote(fake.url)} ANTHROPIC_API_KEY=test-key`,
    `${shellQuote(Deno.execPath())} run ${cliEntry().map(shellQuote).join(" ")} agent`,
    ...(options.args ?? []).map(shellQuote),
    `--workspace ${shellQuote(workspace)}; echo $? > ${shellQuote(exitFile)}`,
  ].join(" ");
  const terminal = await Terminal.start(`sh -c ${shellQuote(command)}`);
  return {
    terminal,
    workspace,
    async exitCode(timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const written = await Deno.readTextFile(exitFile).catch(() => "");
        if (written.endsWith("\n")) return Number(written.trim());
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
      throw new Error(`The agent did not exit within ${timeoutMs} ms`);
    },
    async [Symbol.asyncDispose]() {
      await terminal.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** Leave with Ctrl-D, then check that the session's log replays with --verify. */
async function leaveAndVerify(agent: Agent): Promise<void> {
  await agent.terminal.press("C-d");
  await agent.exitCode();
  const replay = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...cliEntry(), "replay", "--verify", "--quiet", "--workspace", agent.workspace],
  }).output();
  assert.equal(replay.code, 0, new TextDecoder().decode(replay.stdout));
}

/** The prompt is back: the cursor sits right after `> ` on an otherwise empty line. */
function atPrompt(screen: Screen): boolean {
  return screen.cursorLine === ">" && screen.cursorX === 2;
}

async function waitForPrompt(terminal: Terminal, timeoutMs?: number): Promise<Screen> {
  return await terminal.waitFor("the prompt", atPrompt, timeoutMs);
}

/** Type a prompt and press Enter. */
async function submit(terminal: Terminal, line: string): Promise<void> {
  await terminal.type(line);
  await terminal.press("Enter");
}

/** The status line after a turn: tokens, cache share, dollars, context. */
const STATUS = /^\S+ in · \S+ out · \d+% cached · \$[\d.]+ · context \S+ \(\d+%\)$/;

/**
 * The text below the last line that shows `> ${prompt}`, or null if there is no such line; the
 * status line after a turn (and the blank line after it) left out, as layout tests compare text.
 */
function after(screen: Screen, prompt: string): string | null {
  const lines = screen.text.split("\n");
  const at = lines.findLastIndex((line) => line === `> ${prompt}`);
  if (at === -1) return null;
  const below = lines.slice(at + 1);
  const status = below.findIndex((line) => STATUS.test(line));
  if (status !== -1) below.splice(status, below[status + 1] === "" ? 2 : 1);
  return below.join("\n");
}

/** Type `prompt`, press Enter, and return what was shown below it once the prompt is back. */
async function exchange(terminal: Terminal, prompt: string, timeoutMs?: number): Promise<string> {
  await submit(terminal, prompt);
  const screen = await terminal.waitFor(
    `the prompt back after "${prompt}"`,
    (s) => atPrompt(s) && (after(s, prompt) ?? "").length > 0,
    timeoutMs,
  );
  return after(screen, prompt) ?? "";
}

async function readLog(
  workspace: string,
): Promise<{ type: string; data: Record<string, unknown> }[]> {
  const text = await Deno.readTextFile(`${workspace}/.rein/events.jsonl`);
  return text.trim().split("\n").map((line) => JSON.parse(line));
}

Deno.test("a prompt's answer streams in, then the prompt comes back after a blank line", async () => {
  await using fake = await startFakeAnthropic({ script });
  await using agent = await startAgent(fake);
  const { terminal } = agent;
  await waitForPrompt(terminal);
  await submit(terminal, "stream please");
  const midway = await terminal.waitFor(
    "the first words of the answer",
    (s) => (after(s, "stream please") ?? "").includes("Streaming answer"),
  );
  const partial = after(midway, "stream please")?.trim() ?? "";
  assert.ok(STREAMED.startsWith(partial), `not a prefix of the answer: "${partial}"`);
  assert.ok(partial.length < STREAMED.length, `the whole answer arrived at once: "${partial}"`);
  const done = await terminal.waitFor(
    "the prompt after the answer",
    (s) => atPrompt(s) && (after(s, "stream please") ?? "").includes("THE END"),
  );
  assert.equal(after(done, "stream please"), `\n${STREAMED}\n\n>`);
  const status = done.text.split("\n").filter((line) => STATUS.test(line));
  assert.equal(status.length, 1, `one status line after the turn:\n${done.text}`);
});

Deno.test("answers are shown as formatted Markdown, lines streaming in as they are written", async () => {
  await using fake = await startFakeAnthropic({ script });
  await using agent = await startAgent(fake);
  await waitForPrompt(agent.terminal);
  const shown = await exchange(agent.terminal, "markdown please");
  assert.match(shown, /^Plan$/m);
  assert.match(shown, /^Some bold words and code\.$/m);
  assert.match(shown, /^• first item\n• second item$/m);
  assert.match(shown, /^ {2}const answer = 42;$/m);
  assert.match(shown, /^Done\.$/m);
  assert.doesNotMatch(shown, /\*\*|```|^# /m);
});

Deno.test("writes and edits show what changed as diff lines", async () => {
  await using fake = await startFakeAnthropic({ script });
  await using agent = await startAgent(fake, { args: ["--permission-mode", "acceptEdits"] });
  await waitForPrompt(agent.terminal);
  const shown = await exchange(agent.terminal, "edit please");
  assert.match(shown, /● write_file a\.txt\n.*\n {5}\+ alpha\n {5}\+ beta\n/);
  assert.match(shown, /● edit_file a\.txt\n.*\n {5}- beta\n {5}\+ gamma\n/);
});

Deno.test("/help lists the slash commands without asking the model", async () => {
  await using fake = await startFakeAnthropic({ script });
  await using agent = await startAgent(fake);
  await waitForPrompt(agent.terminal);
  const help = await exchange(agent.terminal, "/help");
  for (const command of ["/help", "/session", "/new", "/model", "/exit"]) {
    assert.match(help, new RegExp(`^\\s+${command}\\s+\\S`, "m"), `${command} missing:\n${help}`);
  }
  assert.match(help, /\n\n>$/);
  assert.equal(fake.requests.length, 0, "a slash command reached the model");
});

Deno.test("/compact summarises the conversation with its focus, /context counts it, and it replays", async () => {
  await using fake = await startFakeAnthropic({ script });
  await using agent = await startAgent(fake);
  await waitForPrompt(agent.terminal);
  await exchange(agent.terminal, "hello");
  await exchange(agent.terminal, "hello again");
  const compacted = await exchange(agent.terminal, "/compact the greetings");
  assert.match(compacted, /Compacted: about [\d,]+ → [\d,]+ tokens/);
  const ask = JSON.stringify(fake.requests.at(-1)?.body);
  assert.match(ask, /write a summary of the conversation/);
  assert.match(ask, /Focus the summary on: the greetings/);
  assert.match(await exchange(agent.terminal, "/context"), /compacted 1 time/);
  await exchange(agent.terminal, "after it");
  const next = JSON.stringify(fake.requests.at(-1)?.body);
  assert.match(next, /<summary>/);
  assert.doesNotMatch(
    next,
    /hello again/,
    "the summarised prompts are not sent again as they were",
  );
  await leaveAndVerify(agent);
});

Deno.test("/model lists the models, switches to one, and the next prompt uses it", async () => {
  await using fake = await startFakeAnthropic({ script });
  await using agent = await startAgent(fake);
  await waitForPrompt(agent.terminal);
  const list = await exchange(agent.terminal, "/model");
  assert.match(list, /model claude-sonnet-5/);
  assert.match(list, /claude-haiku-4-5 +haiku/);
  const switched = await exchange(agent.terminal, "/model haiku");
  assert.match(switched, /model claude-sonnet-5 → claude-haiku-4-5/);
  const refused = await exchange(agent.terminal, "/model haiku[1m]");
  assert.match(refused, /has no 1M-token window/);
  await exchange(agent.terminal, "hello");
  assert.equal(fake.requests.at(-1)?.body?.model, "claude-haiku-4-5");
});

Deno.test("a reopened session shows where it left off, and Up recalls earlier prompts", async () => {
  await using fake = await startFakeAnthropic({ script });
  const workspace = await Deno.makeTempDir({ prefix: "rein-history-" });
  try {
    {
      await using first = await startAgent(fake, { workspace });
      await waitForPrompt(first.terminal);
      await exchange(first.terminal, "remember me");
      await submit(first.terminal, "/exit");
      assert.equal(await first.exitCode(), 0);
    }
    await using again = await startAgent(fake, { workspace, args: ["--continue"] });
    const screen = await waitForPrompt(again.terminal);
    assert.match(screen.text, /> remember me\nYou said: remember me/);
    // The history is the log's prompts: the earlier session's, not its slash commands.
    await again.terminal.press("Up");
    await again.terminal.waitFor("the recalled prompt", (s) => s.cursorLine === "> remember me");
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
});

Deno.test("--resume without an id lists the sessions and reopens the one chosen", async () => {
  await using fake = await startFakeAnthropic({ script });
  const workspace = await Deno.makeTempDir({ prefix: "rein-picker-" });
  try {
    for (const prompt of ["the older one", "the newer one"]) {
      await using agent = await startAgent(fake, { workspace });
      await waitForPrompt(agent.terminal);
      await exchange(agent.terminal, prompt);
      await submit(agent.terminal, "/exit");
      assert.equal(await agent.exitCode(), 0);
    }
    await using picker = await startAgent(fake, { workspace, args: ["-r"] });
    const list = await picker.terminal.waitFor(
      "the list of sessions",
      (s) => s.text.includes("Resume which session? [1-2]"),
    );
    assert.match(list.text, / 1\. .* the newer one\n 2\. .* the older one/);
    await submit(picker.terminal, "2");
    const back = await waitForPrompt(picker.terminal);
    assert.match(back.text, /> the older one\nYou said: the older one/);
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
});

Deno.test("Ctrl-C cancels a running bash call promptly and the session stays usable", async () => {
  await using fake = await startFakeAnthropic({ script });
  await using agent = await startAgent(fake, { args: ["--allowedTools", "Bash(sleep *)"] });
  const { terminal } = agent;
  await waitForPrompt(terminal);
  await submit(terminal, "sleep please");
  await terminal.waitFor(
    "the tool line with the working line below it",
    (s) => /^● bash sleep 30\n✻ Working… \d+s · Ctrl-C to cancel$/m.test(s.text),
  );
  const pressed = Date.now();
  await terminal.press("C-c");
  const back = await waitForPrompt(terminal, 10_000);
  const elapsed = Date.now() - pressed;
  assert.ok(elapsed < 5_000, `the prompt took ${elapsed} ms to come back`);
  assert.equal(
    after(back, "sleep please"),
    "\nSleeping.\n\n● bash sleep 30\n  ⎿  Cancelled\n⏹ Cancelled\n\n>",
  );

  const answer = await exchange(terminal, "are you there?");
  assert.equal(answer, "\nYou said: are you there?\n\n>");
  const log = await readLog(agent.workspace);
  const completed = log.filter((e) => e.type === "tool.completed").map((e) => e.data.outcome);
  assert.deepEqual(completed, ["cancelled"]);
  const ended = log.filter((e) => e.type === "turn.ended").map((e) => e.data.reason);
  assert.deepEqual(ended, ["cancelled", "completed"]);
});

Deno.test("Ctrl-C at an empty prompt shows a hint and does not exit", async () => {
  await using fake = await startFakeAnthropic({ script });
  await using agent = await startAgent(fake);
  const { terminal } = agent;
  const before = await waitForPrompt(terminal);
  await terminal.press("C-c");
  const hinted = await terminal.waitFor(
    "the hint",
    (s) => atPrompt(s) && s.text.length > before.text.length,
  );
  assert.equal(hinted.text, `${before.text}\nTo leave, press Ctrl-D or type /exit\n>`);
  assert.equal(await exchange(terminal, "still alive?"), "\nYou said: still alive?\n\n>");
});

Deno.test("Ctrl-C clears a half-typed prompt instead of sending it", async () => {
  await using fake = await startFakeAnthropic({ script });
  await using agent = await startAgent(fake);
  const { terminal } = agent;
  await waitForPrompt(terminal);
  await terminal.type("never mind this");
  await terminal.waitFor("the typed text", (s) => s.cursorLine === "> never mind this");
  await terminal.press("C-c");
  await waitForPrompt(terminal);
  assert.equal(await exchange(terminal, "fresh"), "\nYou said: fresh\n\n>");
  assert.deepEqual(fake.requests.map((r) => lastUserText(r.body)), ["fresh"]);
});

Deno.test("text typed while a turn runs waits for the next prompt instead of garbling output", async () => {
  await using fake = await startFakeAnthropic({ script });
  await using agent = await startAgent(fake);
  const { terminal } = agent;
  await waitForPrompt(terminal);
  await submit(terminal, "stream please");
  await terminal.waitFor("the answer", (s) => (after(s, "stream please") ?? "").includes("alpha"));
  await terminal.type("typed early");
  const done = await terminal.waitFor(
    "the prompt with the early text",
    (s) => s.cursorLine === "> typed early" && (after(s, "stream please") ?? "").includes("END"),
  );
  assert.equal(after(done, "stream please"), `\n${STREAMED}\n\n> typed early`);
  await terminal.press("Enter");
  await terminal.waitFor("the answer", (s) => atPrompt(s) && /You said: typed early/.test(s.text));
});

Deno.test("/exit leaves with exit code 0", async () => {
  await using fake = await startFakeAnthropic({ script });
  await using agent = await startAgent(fake);
  await waitForPrompt(agent.terminal);
  await submit(agent.terminal, "/exit");
  assert.equal(await agent.exitCode(), 0);
});

Deno.test("Ctrl-D at the prompt leaves with exit code 0", async () => {
  await using fake = await startFakeAnthropic({ script });
  await using agent = await startAgent(fake);
  await waitForPrompt(agent.terminal);
  await agent.terminal.press("C-d");
  assert.equal(await agent.exitCode(), 0);
});

Deno.test("with piped input the session prints a plain transcript of prompts and answers", async () => {
  await using fake = await startFakeAnthropic({ script });
  const workspace = await Deno.makeTempDir({ prefix: "rein-piped-" });
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", MAIN, "agent", "--workspace", workspace],
      env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "test-key" },
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode("first\nsecond\n"));
    await writer.close();
    const { code, stdout, stderr } = await child.output();
    const out = new TextDecoder().decode(stdout);
    assert.equal(code, 0, new TextDecoder().decode(stderr));
    assert.ok(!out.includes("\x1b"), `escape codes in piped output:\n${out}`);
    const transcript = "\n\n> first\n\nYou said: first\n\n> second\n\nYou said: second\n\n";
    assert.ok(out.endsWith(transcript), `the prompts are not echoed as a transcript:\n${out}`);
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
});

Deno.test("Ctrl-D during a running turn cancels it and leaves with exit code 0", async () => {
  await using fake = await startFakeAnthropic({ script });
  await using agent = await startAgent(fake, { args: ["--allowedTools", "Bash(sleep *)"] });
  await waitForPrompt(agent.terminal);
  await submit(agent.terminal, "sleep please");
  await agent.terminal.waitFor("the tool line", (s) => /^● bash sleep 30$/m.test(s.text));
  await agent.terminal.press("C-d");
  assert.equal(await agent.exitCode(5_000), 0);
  const log = await readLog(agent.workspace);
  assert.deepEqual(log.filter((e) => e.type === "turn.ended").map((e) => e.data.reason), [
    "cancelled",
  ]);
});

/** Each prompt "mkdir N" asks for `mkdir -p dN`; after its result the model says "Done.". */
const mkdirScript: FakeScriptFn = (request) => {
  const prompt = lastUserText(request.body) ?? "";
  const n = /^mkdir (\d+)$/.exec(prompt)?.[1];
  const last = request.body?.messages.at(-1)?.content;
  const answered = Array.isArray(last) && last.some((block) => block.type === "tool_result");
  if (n === undefined || answered) return message("Done.");
  return message([toolUse(`toolu_mkdir_${n}`, "bash", { command: `mkdir -p d${n}` })]);
};

/** Submit `prompt` and wait for the permission question, with the cursor at its answer line. */
async function untilAsked(terminal: Terminal, prompt: string): Promise<Screen> {
  await submit(terminal, prompt);
  return await terminal.waitFor(
    `the permission question after "${prompt}"`,
    (s) => /Allow this bash call\?/.test(after(s, prompt) ?? "") && s.cursorLine === "❯",
  );
}

Deno.test("the permission question is answered yes, no with a reason, and always; always holds in the next session", async () => {
  await using fake = await startFakeAnthropic({ script: mkdirScript });
  await using agent = await startAgent(fake);
  const { terminal, workspace } = agent;
  await waitForPrompt(terminal);

  const asked = await untilAsked(terminal, "mkdir 1");
  assert.match(after(asked, "mkdir 1") ?? "", /● bash mkdir -p d1/);
  assert.match(asked.text, /2 Yes, and don't ask again for Bash\(mkdir \*\)/);
  await submit(terminal, "1");
  await terminal.waitFor("the prompt after yes", (s) => atPrompt(s) && /Done\./.test(s.text));
  assert.ok((await Deno.stat(`${workspace}/d1`)).isDirectory);

  await untilAsked(terminal, "mkdir 2");
  await submit(terminal, "3 not in this repo");
  await terminal.waitFor(
    "the prompt after no",
    (s) => atPrompt(s) && /Permission denied/.test(after(s, "mkdir 2") ?? ""),
  );
  await assert.rejects(Deno.stat(`${workspace}/d2`));

  await untilAsked(terminal, "mkdir 3");
  await submit(terminal, "2");
  await terminal.waitFor("the prompt after always", (s) => atPrompt(s) && /Done\./.test(s.text));
  const local = JSON.parse(await Deno.readTextFile(`${workspace}/.claude/settings.local.json`));
  assert.deepEqual(local, { permissions: { allow: ["Bash(mkdir *)"] } });

  const fourth = await exchange(terminal, "mkdir 4");
  assert.doesNotMatch(fourth, /Allow this/);
  assert.ok((await Deno.stat(`${workspace}/d4`)).isDirectory);

  await terminal.press("C-d");
  await agent.exitCode();

  const log = await readLog(workspace);
  const decided = log.filter((e) => e.type === "permission.decided").map((e) => e.data);
  assert.deepEqual(decided.map((d) => [d.decision, (d.source as { kind: string }).kind]), [
    ["allow", "user"],
    ["deny", "user"],
    ["allow", "user"],
    ["allow", "session"],
  ]);
  assert.equal((decided[1]?.source as { reason?: string }).reason, "not in this repo");
  const refused = log.find((e) => e.type === "tool.completed" && e.data.callId === "toolu_mkdir_2");
  assert.match(String(refused?.data.content), /not in this repo/);

  // The saved rule is in the folder's settings: the person trusted it (a question otherwise).
  await using next = await startAgent(fake, { workspace, args: ["--trust"] });
  await waitForPrompt(next.terminal);
  const fifth = await exchange(next.terminal, "mkdir 5");
  assert.doesNotMatch(fifth, /Allow this/);
  assert.ok((await Deno.stat(`${workspace}/d5`)).isDirectory);
  await leaveAndVerify(next);
});

Deno.test("Ctrl-C at the permission question denies the call and cancels the turn", async () => {
  await using fake = await startFakeAnthropic({ script: mkdirScript });
  await using agent = await startAgent(fake);
  const { terminal, workspace } = agent;
  await waitForPrompt(terminal);
  await untilAsked(terminal, "mkdir 7");
  await terminal.press("C-c");
  await waitForPrompt(terminal);
  await terminal.press("C-d");
  await agent.exitCode();
  const log = await readLog(workspace);
  const decided = log.find((e) => e.type === "permission.decided");
  assert.equal(decided?.data.decision, "deny");
  assert.deepEqual(decided?.data.source, { kind: "user", answer: "no", cancelled: true });
  assert.deepEqual(log.filter((e) => e.type === "turn.ended").map((e) => e.data.reason), [
    "cancelled",
  ]);
  await assert.rejects(Deno.stat(`${workspace}/d7`));
});

Deno.test("/permissions MODE switches the mode on the record: edits then run without asking, and it replays", async () => {
  await using fake = await startFakeAnthropic({ script });
  await using agent = await startAgent(fake);
  const { terminal, workspace } = agent;
  await waitForPrompt(terminal);
  const listed = await exchange(terminal, "/permissions");
  assert.match(listed, /^Mode: default$/m);
  await exchange(terminal, "/permissions acceptEdits");
  assert.match(await exchange(terminal, "/permissions"), /^Mode: acceptEdits$/m);
  const edited = await exchange(terminal, "edit please");
  assert.doesNotMatch(edited, /Allow this/);
  assert.equal(await Deno.readTextFile(`${workspace}/a.txt`), "alpha\ngamma\n");
  await leaveAndVerify(agent);
});

Deno.test("a line starting with # is saved to memory, /memory shows it, and the model hears of it", async () => {
  await using fake = await startFakeAnthropic({ script });
  await using agent = await startAgent(fake);
  const { terminal, workspace } = agent;
  await waitForPrompt(terminal);
  const saved = await exchange(terminal, "# tests run with deno task test");
  assert.match(saved, /Saved to .*\.rein\/memory\/MEMORY\.md/);
  assert.equal(fake.requests.length, 0, "a note is not a prompt");
  const index = await Deno.readTextFile(`${workspace}/.rein/memory/MEMORY.md`);
  assert.match(index, /- tests run with deno task test/);
  assert.match(await exchange(terminal, "/memory"), /tests run with deno task test/);
  await exchange(terminal, "hello");
  assert.match(JSON.stringify(fake.requests[0]?.body?.messages), /tests run with deno task test/);
  await leaveAndVerify(agent);
});

Deno.test("/skill-name args runs a skill: its body with the arguments is the prompt, on the record", async () => {
  await using fake = await startFakeAnthropic({ script });
  const workspace = await Deno.makeTempDir({ prefix: "rein-skill-ws-" });
  await Deno.mkdir(`${workspace}/.claude/skills/greet`, { recursive: true });
  await Deno.writeTextFile(
    `${workspace}/.claude/skills/greet/SKILL.md`,
    "---\nname: greet\ndescription: Greets someone by name\n---\nSay hello to $ARGUMENTS.\n",
  );
  try {
    await using agent = await startAgent(fake, { workspace });
    const { terminal } = agent;
    await waitForPrompt(terminal);
    await exchange(terminal, "/greet Ada Lovelace");
    assert.equal(lastUserText(fake.requests[0]?.body), "Say hello to Ada Lovelace.");
    await leaveAndVerify(agent);
    const log = await readLog(workspace);
    const invoked = log.find((e) => e.type === "skill.invoked");
    assert.deepEqual(invoked?.data.name, "greet");
    assert.deepEqual(invoked?.data.arguments, "Ada Lovelace");
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
});

Deno.test("a subagent's work shows under its task call, a line per call", async () => {
  await using fake = await startFakeAnthropic({ script });
  await using agent = await startAgent(fake);
  await waitForPrompt(agent.terminal);
  const shown = await exchange(agent.terminal, "delegate please");
  assert.match(shown, /● task Explore: find text files\n\s+↳ glob \*\.txt\n\s+⎿\s+Found none/);
  assert.match(shown, /The explorer is done\./);
  await leaveAndVerify(agent);
});
