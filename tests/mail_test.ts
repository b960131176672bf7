/**
 * Mail between the agents of a session, end to end: rein run as a person runs it against the fake
 * model, with teams enabled as Claude Code enables them (`CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS`,
 * or rein's `"teams": {"enabled": true}`). The lead mails itself and a subagent mails the lead;
 * each letter reaches its recipient's next request once, as a `<teammate-message>`; mail waits
 * for an idle lead (`-p` does not end while the lead has unread mail; the REPL at its prompt runs
 * a turn for it); a kill -9 after the send and a `--continue` deliver it once; every log replays
 * with `--verify`. With teams off there are no mail tools and nothing is recorded.
 */
import { lastMessageText } from "../testing/scenarios.ts";
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Envelope, EnvelopeOf, EventType } from "../events/event_types.ts";
import { openJsonlStore } from "../events/jsonl_store.ts";
import {
  type FakeScriptFn,
  message,
  type RecordedRequest,
  startFakeAnthropic,
  toolUse,
} from "../testing/fake_anthropic.ts";
import { fromClaudeInput, toClaudeCall } from "../core/hooks/claude_tool_names.ts";
import { sendMessageTool } from "../core/mail/mod.ts";
import { ToolNames } from "../core/tools/tool_names.ts";
import { firstUserText } from "../testing/scenarios.ts";
import { killProcessesIn } from "../testing/tool_helpers.ts";
import { CLI, runCli } from "./_cli.ts";
import { CliProcess } from "./_cli_process.ts";
import { type Screen, shellQuote, Terminal } from "./_tmux.ts";

const TEAMS = { CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS: "1" };

/** How often `needle` is in the whole conversation a request sent. */
function timesIn(request: RecordedRequest | undefined, needle: string): number {
  return JSON.stringify(request?.body?.messages ?? []).split(needle).length - 1;
}

function eventsOf<T extends EventType>(events: readonly Envelope[], type: T): EnvelopeOf<T>[] {
  return events.filter((event): event is EnvelopeOf<T> => event.type === type);
}

async function readEvents(log: string): Promise<Envelope[]> {
  const text = await Deno.readTextFile(log).catch(() => "");
  return text.split("\n").filter((line) => line.endsWith("}")).map((line) => JSON.parse(line));
}

async function replayVerifies(log: string): Promise<void> {
  const replay = await runCli(["replay", log, "--verify", "--quiet"]);
  assert.equal(replay.code, 0, `replay --verify failed:\n${replay.stdout}${replay.stderr}`);
}

/** A workspace in a temp folder, and the log rein keeps there. */
async function workspace(): Promise<{ path: string; log: string } & AsyncDisposable> {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-mail-" }));
  return {
    path,
    log: join(path, ".rein", "events.jsonl"),
    async [Symbol.asyncDispose]() {
      killProcessesIn(path);
      await Deno.remove(path, { recursive: true });
    },
  };
}

const NOTE = "remember the milk";
const BUG = "found a bug in x.ts";
/** The lead's note to itself as it reaches the model (in a request body's JSON). */
const NOTE_BLOCK = `<teammate-message teammate_id=\\"team-lead\\">\\n${NOTE}\\n</teammate-message>`;

/**
 * The lead mails itself a note; once the note reaches it, it starts a subagent, which mails the
 * lead about a bug; once that reaches it, it answers.
 */
const team: FakeScriptFn = (request) => {
  const last = lastMessageText(request);
  if (firstUserText(request.body?.messages ?? []) === "look around") {
    if (last.includes("toolu_child_send")) return message("Looked.");
    return message([
      toolUse("toolu_child_send", "send_message", {
        to: "team-lead",
        content: BUG,
        summary: "bug",
      }),
    ]);
  }
  if (last.includes(BUG)) return message("All noted.");
  if (last.includes(NOTE)) {
    return message([toolUse("toolu_task", "task", { description: "look", prompt: "look around" })]);
  }
  return message([
    toolUse("toolu_send", "send_message", { to: "team-lead", content: NOTE, summary: "a note" }),
  ]);
};

Deno.test("headless: the lead's mail to itself and a subagent's mail to the lead each reach the lead once, and the log replays", async () => {
  await using fake = await startFakeAnthropic({ script: team });
  await using ws = await workspace();
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-test", ...TEAMS };
  const out = await runCli(["-p", "go", "--workspace", ws.path], { env });
  assert.equal(out.code, 0, out.stderr);
  assert.equal(out.stdout.trim(), "All noted.");
  const events = await readEvents(ws.log);
  const started = eventsOf(events, "session.started")[0];
  assert.ok(started?.data.settings?.features?.includes("teams"));
  assert.equal(started?.data.settings?.env?.CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS, "1");
  assert.deepEqual(
    eventsOf(events, "mail.sent").map((e) => [e.agent, e.data.to, e.data.recipients]),
    [["lead", "team-lead", ["lead"]], ["general-purpose@toolu_task", "team-lead", ["lead"]]],
  );
  assert.deepEqual(
    eventsOf(events, "arrival.injected").map((e) => [e.agent, e.data.source, e.data.key]),
    [["lead", "mail", "toolu_send"], ["lead", "mail", "toolu_child_send"]],
  );
  const last = fake.requests.at(-1);
  assert.equal(
    timesIn(last, '<teammate-message teammate_id=\\"team-lead\\" summary=\\"a note\\">'),
    1,
  );
  assert.equal(
    timesIn(
      last,
      '<teammate-message teammate_id=\\"general-purpose@toolu_task\\" summary=\\"bug\\">',
    ),
    1,
  );
  // `rein state` shows the session's mail.
  const state = await runCli(["state", ws.log]);
  assert.equal(state.code, 0, state.stderr);
  assert.match(state.stdout, /mail\n\s+2 sent, 2 delivered/);
  await replayVerifies(ws.log);
});

/** The lead mails itself; once the note reaches it, it answers. */
const note: FakeScriptFn = (request) => {
  const last = lastMessageText(request);
  if (last.includes(NOTE)) return message("Got my note.");
  if (last.includes("toolu_send")) return message("Sent.");
  return message([toolUse("toolu_send", "send_message", { to: "lead", content: NOTE })]);
};

/** Project settings enabling teams, with a PostToolUse hook on SendMessage that ends the turn. */
async function stopAfterSend(path: string): Promise<void> {
  await Deno.mkdir(join(path, ".claude"), { recursive: true });
  await Deno.writeTextFile(
    join(path, ".claude", "settings.json"),
    JSON.stringify({
      teams: { enabled: true },
      hooks: {
        PostToolUse: [{
          matcher: "SendMessage",
          hooks: [{
            type: "command",
            command: `echo '{"continue": false, "stopReason": "sent"}'`,
          }],
        }],
      },
    }),
  );
}

Deno.test("headless: a run does not end while the lead has unread mail: a turn is woken for it", async () => {
  await using fake = await startFakeAnthropic({ script: note });
  await using ws = await workspace();
  await stopAfterSend(ws.path);
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-test" };
  const out = await runCli(["-p", "note it", "--trust", "--workspace", ws.path], { env });
  assert.equal(out.code, 0, out.stderr);
  assert.equal(out.stdout.trim(), "Got my note.");
  // rein's own `teams` setting is one it uses: the notice of unused settings does not name it.
  assert.doesNotMatch(out.stderr, /teams/);
  const events = await readEvents(ws.log);
  // The hook ended the first turn right after the send; a second turn took the mail up.
  assert.deepEqual(
    eventsOf(events, "turn.ended").map((e) => [e.data.reason, e.data.message ?? ""]),
    [["completed", "Stopped by a hook: sent"], ["completed", ""]],
  );
  assert.equal(eventsOf(events, "mail.sent").length, 1);
  assert.deepEqual(eventsOf(events, "arrival.injected").map((e) => e.data.key), ["toolu_send"]);
  assert.equal(fake.requests.length, 2);
  assert.equal(timesIn(fake.requests[1], NOTE_BLOCK), 1);
  await replayVerifies(ws.log);
});

Deno.test("a kill -9 after the mail is sent and a --continue deliver it exactly once", async () => {
  let hold: ((value: void) => void) | undefined;
  const held = new Promise<void>((resolve) => hold = resolve);
  let holding = true;
  await using fake = await startFakeAnthropic({
    script: note,
    // The request that carries the note is held while the first process runs: it is killed then.
    onRequest: async (request) => {
      if (holding && lastMessageText(request).includes(NOTE)) await held;
    },
  });
  await using ws = await workspace();
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-test", ...TEAMS };
  {
    await using first = new CliProcess(["-p", "note it", "--workspace", ws.path], env);
    const deadline = Date.now() + 30_000;
    while (!fake.requests.some((request) => lastMessageText(request).includes(NOTE))) {
      if (!first.running) throw new Error(`rein ended early: ${(await first.output).stderr}`);
      if (Date.now() > deadline) throw new Error("the request carrying the mail never came");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal((await first.kill()).signal, "SIGKILL");
  }
  holding = false;
  hold?.();
  const atKill = await readEvents(ws.log);
  assert.equal(eventsOf(atKill, "mail.sent").length, 1);
  assert.deepEqual(eventsOf(atKill, "turn.ended"), []);
  const resumed = await runCli(["--continue", "-p", "--workspace", ws.path], { env });
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.equal(resumed.stdout.trim(), "Got my note.");
  const events = await readEvents(ws.log);
  assert.equal(eventsOf(events, "mail.sent").length, 1);
  assert.deepEqual(eventsOf(events, "arrival.injected").map((e) => e.data.key), ["toolu_send"]);
  // The request asked again after the resume holds the note once.
  assert.equal(timesIn(fake.requests.at(-1), NOTE_BLOCK), 1);
  await replayVerifies(ws.log);
});

Deno.test("with teams off there are no mail tools and nothing of mail is recorded", async () => {
  await using fake = await startFakeAnthropic({ script: team });
  await using ws = await workspace();
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-test" };
  const out = await runCli(["-p", "go", "--workspace", ws.path], { env });
  const tools = fake.requests[0]?.body?.tools?.map((tool) => tool.name) ?? [];
  assert.ok(!tools.includes("send_message") && !tools.includes("check_inbox"), tools.join());
  assert.doesNotMatch(JSON.stringify(fake.requests[0]?.body?.system), /teammate-message/);
  const events = await readEvents(ws.log);
  // The session has the feature (a later resume with teams on has mail), and no mail.
  const started = eventsOf(events, "session.started")[0];
  assert.ok(started?.data.settings?.features?.includes("teams"));
  assert.deepEqual(
    events.filter((e) => e.type.startsWith("mail.") || e.type === "arrival.injected"),
    [],
    out.stderr,
  );
  await replayVerifies(ws.log);
});

Deno.test("the REPL idle at its prompt runs a turn for mail the lead has not read", async () => {
  await using fake = await startFakeAnthropic({ script: note });
  await using ws = await workspace();
  await stopAfterSend(ws.path);
  const dir = await Deno.makeTempDir({ prefix: "rein-mail-repl-" });
  const command = [
    `ANTHROPIC_BASE_URL=${shellQuote(fake.url)} ANTHROPIC_API_KEY=test-key`,
    `${shellQuote(Deno.execPath())} run -A ${shellQuote(CLI)} agent --trust`,
    `--workspace ${shellQuote(ws.path)}; echo $? > ${shellQuote(join(dir, "exit"))}`,
  ].join(" ");
  await using terminal = await Terminal.start(`sh -c ${shellQuote(command)}`);
  try {
    const atPrompt = (typed: string) => (screen: Screen) =>
      screen.cursorLine === `> ${typed}`.trimEnd() && screen.cursorX === 2 + typed.length;
    await terminal.waitFor("the prompt", atPrompt(""));
    await terminal.type("note it");
    await terminal.press("Enter");
    const woken = await terminal.waitFor(
      "the turn the mail starts",
      (s) => s.text.includes("Got my note.") && atPrompt("")(s),
    );
    assert.match(woken.text, /✉ lead → lead: remember the milk/);
    assert.match(woken.text, /> \(woken by mail toolu_send\)/);
    assert.equal(fake.requests.length, 2);
    await terminal.press("C-d");
    const deadline = Date.now() + 10_000;
    while (!(await Deno.readTextFile(join(dir, "exit")).catch(() => "")).endsWith("\n")) {
      if (Date.now() > deadline) throw new Error("rein did not exit");
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    await replayVerifies(ws.log);
  } finally {
    await terminal.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hooks see send_message as Claude Code's SendMessage {to, summary, message}, and a hook's rewrite in that shape comes back as rein's", () => {
  const names = new ToolNames([sendMessageTool]);
  assert.deepEqual(
    toClaudeCall("send_message", { to: "alice", content: "hi", summary: "greeting" }, "/w", names),
    { tool_name: "SendMessage", tool_input: { to: "alice", message: "hi", summary: "greeting" } },
  );
  assert.deepEqual(
    fromClaudeInput("send_message", { to: "bob", message: "hello", summary: "s" }, "/w", names),
    { to: "bob", content: "hello", summary: "s" },
  );
});

Deno.test("an idle daemon follows the log and is woken by mail another process appends for it", async () => {
  const script: FakeScriptFn = (request) =>
    lastMessageText(request).includes("<teammate-message")
      ? message("Thanks, alice.")
      : message("Idle.");
  await using fake = await startFakeAnthropic({ script });
  await using ws = await workspace();
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-test", ...TEAMS };
  await using daemon = new CliProcess(["daemon", "--workspace", ws.path], env);
  const until = async (what: string, done: (all: Envelope[]) => boolean) => {
    const deadline = Date.now() + 30_000;
    while (!done(await readEvents(ws.log))) {
      if (!daemon.running) throw new Error(`rein daemon ended: ${(await daemon.output).stderr}`);
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  await until("the daemon's session", (all) => all.some((e) => e.type === "session.started"));
  const session = (await readEvents(ws.log))[0]?.session ?? "";
  // What a teammate in its own process would append: mail from alice to the daemon's agent.
  const other = await openJsonlStore(ws.log, { clock: () => new Date() });
  try {
    await other.append([{
      type: "mail.sent",
      session,
      agent: "alice",
      data: {
        id: "m_alice",
        from: "alice",
        to: "team-lead",
        recipients: ["daemon"],
        content: "the build is green",
        kind: "message",
      },
    }]);
  } finally {
    await other.close();
  }
  await until("the turn the mail woke", (all) => all.some((e) => e.type === "turn.ended"));
  const out = await daemon.kill();
  const events = await readEvents(ws.log);
  assert.deepEqual(
    eventsOf(events, "arrival.injected").map((e) => [e.agent, e.data.key, e.data.text]),
    [[
      "daemon",
      "m_alice",
      '<teammate-message teammate_id="alice">\nthe build is green\n</teammate-message>',
    ]],
  );
  assert.equal(fake.requests.length, 1, out.stderr);
  assert.match(out.stdout, /woken by mail m_alice/);
});
