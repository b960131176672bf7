/**
 * The team at the lead's REPL, end to end in a real terminal (tmux) against the fake model routed
 * per agent: the lead spawns alice in her own process; her command that needs permission is
 * relayed to the REPL and asked with her name, and the person's "y" lets it run; her call shows
 * as one dim line (`alice · bash …`), her mail to the lead as it arrives (waking the idle lead);
 * `/team` lists her; `@alice text` reaches her as the lead's mail marked as the person's words;
 * `/team stop alice` stops her. A plan-mode teammate's plans are asked of the person at the idle
 * prompt (rejected with feedback, then approved). A headless lead's teammate is refused such a
 * call at once, never asking. Each log replays with `--verify`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type FakeScriptFn,
  message,
  startFakeAnthropic,
  toolUse,
} from "../testing/fake_anthropic.ts";
import { firstUserText, lastMessageText } from "../testing/scenarios.ts";
import { killProcessesIn } from "../testing/tool_helpers.ts";
import { eventsOf, readLog, teammatePids, untilLogged } from "./_team_e2e.ts";
import { cliEntry, runCli } from "./_cli.ts";
import { teamEnv } from "./_team_e2e.ts";
import { type Screen, shellQuote, Terminal } from "./_tmux.ts";

const PERSON = "(From the user, typed at the lead's terminal) also write a readme";

/** The fake model: the lead by its first prompt, alice by hers. */
const script: FakeScriptFn = (request) => {
  const first = firstUserText(request.body?.messages ?? []);
  const last = lastMessageText(request);
  if (first === "make a file") {
    if (last.includes(PERSON)) return message("Noted: a readme next.");
    if (last === "make a file") {
      return message([toolUse("toolu_touch", "bash", { command: "touch made-by-alice.txt" })]);
    }
    if (last.startsWith("toolu_touch")) {
      return message([
        toolUse("toolu_mail", "send_message", { to: "lead", content: "made the file" }),
      ]);
    }
    return message("Done.");
  }
  if (last === "build a team") {
    return message([
      toolUse("toolu_spawn", "spawn_teammate", { name: "alice", prompt: "make a file" }),
    ]);
  }
  if (last.startsWith("toolu_spawn")) return message("Alice is on it.");
  if (last.includes("made the file")) return message("Thanks, alice.");
  return message("Ok.");
};

Deno.test("the REPL shows a teammate's calls and mail, asks the person her permission question, lists and stops her, and sends the person's @mail", async () => {
  await using fake = await startFakeAnthropic({ script });
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-team-repl-" }));
  const log = join(path, ".rein", "events.jsonl");
  const exit = join(path, "exit-code");
  const command = [
    `ANTHROPIC_BASE_URL=${shellQuote(fake.url)} ANTHROPIC_API_KEY=test-key`,
    "CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS=1",
    `${shellQuote(Deno.execPath())} run ${cliEntry().map(shellQuote).join(" ")} agent --trust`,
    `--workspace ${shellQuote(path)}; echo $? > ${shellQuote(exit)}`,
  ].join(" ");
  const terminal = await Terminal.start(`sh -c ${shellQuote(command)}`);
  try {
    const atPrompt = (screen: Screen) => screen.cursorLine === ">" && screen.cursorX === 2;
    await terminal.waitFor("the prompt", atPrompt);
    await terminal.type("build a team");
    await terminal.press("Enter");

    // Alice's command needs permission: asked here, with her name.
    const asked = await terminal.waitFor(
      "alice's permission question",
      (s) =>
        s.text.includes("alice wants to run `touch made-by-alice.txt`") && s.cursorLine === "❯",
      60_000,
    );
    assert.match(asked.text, /Allow this bash call\?/);
    await terminal.type("y");
    await terminal.press("Enter");

    // Her call runs, shows as her line; her mail wakes the idle lead.
    const woken = await terminal.waitFor(
      "the lead woken by alice's mail",
      (s) => s.text.includes("Thanks, alice.") && atPrompt(s),
      60_000,
    );
    assert.match(woken.text, /alice · bash touch made-by-alice\.txt/);
    assert.match(woken.text, /✉ alice → lead: made the file/);
    assert.match(woken.text, /> \(woken by mail toolu_mail\)/);
    assert.equal(await Deno.readTextFile(join(path, "made-by-alice.txt")), "");

    await terminal.type("/team");
    await terminal.press("Enter");
    const listed = await terminal.waitFor(
      "the roster",
      (s) => /alice: (idle|working), claude-/.test(s.text) && atPrompt(s),
    );
    assert.match(listed.text, /alice: (idle|working), claude-[^\n]*tokens, \$/);

    await terminal.type("@alice also write a readme");
    await terminal.press("Enter");
    await untilLogged(
      log,
      "alice's answer to the person's mail",
      (events) =>
        eventsOf(events, "model.responded").find((e) =>
          e.agent === "alice" && JSON.stringify(e.data.content).includes("a readme next")
        ),
    );
    const toAlice = fake.requests.find((r) => lastMessageText(r).includes(PERSON));
    assert.match(lastMessageText(toAlice!), /<teammate-message teammate_id="team-lead"/);

    await terminal.type("/team stop alice");
    await terminal.press("Enter");
    const stopped = await terminal.waitFor(
      "alice stopped",
      (s) => s.text.includes("⚑ alice stopped (shutdown)") && atPrompt(s),
    );
    assert.match(stopped.text, /> \/team stop alice\n⚑ alice stopped \(shutdown\)/);

    await terminal.press("C-d");
    const deadline = Date.now() + 15_000;
    while (!(await Deno.readTextFile(exit).catch(() => "")).endsWith("\n")) {
      if (Date.now() > deadline) throw new Error("rein did not exit");
      await new Promise((resolve) => setTimeout(resolve, 40));
    }

    const events = await readLog(log);
    const question = eventsOf(events, "question.asked");
    assert.deepEqual(question.map((e) => [e.agent, e.data.id, e.data.tool]), [
      ["alice", "toolu_touch", "bash"],
    ]);
    assert.deepEqual(
      eventsOf(events, "question.answered").map((e) => [e.agent, e.data.to, e.data.answer]),
      [["lead", "alice", "yes"]],
    );
    const decided = eventsOf(events, "permission.decided").find((e) =>
      e.data.callId === "toolu_touch"
    );
    assert.equal(decided?.agent, "alice");
    assert.equal(decided?.data.decision, "allow");
    assert.deepEqual(decided?.data.source, { kind: "user", answer: "yes" });
    const mail = eventsOf(events, "mail.sent").filter((e) => e.data.person === true);
    assert.deepEqual(mail.map((e) => [e.agent, e.data.recipients, e.data.content]), [
      ["lead", ["alice"], PERSON],
    ]);
    assert.deepEqual(
      eventsOf(events, "agent.stopped").map((e) => [e.agent, e.data]),
      [["alice", { reason: "shutdown", forced: true }]],
    );
    assert.equal(teammatePids(events).length, 1);

    const replay = await runCli(["replay", log, "--verify", "--quiet"]);
    assert.equal(replay.code, 0, `replay --verify failed:\n${replay.stdout}${replay.stderr}`);
  } finally {
    await terminal.close();
    killProcessesIn(path);
    await Deno.remove(path, { recursive: true });
  }
});

/** The REPL in a terminal on a fresh workspace against `url`, with `flags`; and where it logs. */
async function startRepl(url: string, flags = ""): Promise<{
  terminal: Terminal;
  path: string;
  log: string;
  exited: () => Promise<void>;
}> {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-team-repl-" }));
  const exit = join(path, "exit-code");
  const command = [
    `ANTHROPIC_BASE_URL=${shellQuote(url)} ANTHROPIC_API_KEY=test-key`,
    "CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS=1",
    `${shellQuote(Deno.execPath())} run ${
      cliEntry().map(shellQuote).join(" ")
    } agent --trust ${flags}`,
    `--workspace ${shellQuote(path)}; echo $? > ${shellQuote(exit)}`,
  ].join(" ");
  const terminal = await Terminal.start(`sh -c ${shellQuote(command)}`);
  const exited = async () => {
    const deadline = Date.now() + 15_000;
    while (!(await Deno.readTextFile(exit).catch(() => "")).endsWith("\n")) {
      if (Date.now() > deadline) {
        throw new Error(`rein did not exit:\n${(await terminal.screen()).text}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
  };
  return { terminal, path, log: join(path, ".rein", "events.jsonl"), exited };
}

/** Bob in plan mode: a write refused before approval, two plans, then the write. */
const planScript: FakeScriptFn = (request) => {
  const first = firstUserText(request.body?.messages ?? []);
  const last = lastMessageText(request);
  if (first === "write b.txt") {
    // Asked to shut down as the REPL ends (Ctrl-D): it agrees.
    if (last.includes("shutdown_request")) {
      return message([toolUse("toolu_bye", "respond_shutdown", { approve: true })]);
    }
    if (last === "write b.txt") {
      return message([toolUse("toolu_w1", "write_file", { path: "b.txt", content: "early\n" })]);
    }
    if (last.startsWith("toolu_w1")) {
      return message([toolUse("toolu_plan1", "submit_plan", { plan: "v1: write b.txt" })]);
    }
    if (last.startsWith("toolu_plan1")) {
      return message([toolUse("toolu_plan2", "submit_plan", { plan: "v2: test, then b.txt" })]);
    }
    if (last.startsWith("toolu_plan2")) {
      return message([toolUse("toolu_w2", "write_file", { path: "b.txt", content: "done\n" })]);
    }
    return message("Wrote b.txt.");
  }
  if (last === "plan it") {
    return message([
      toolUse("toolu_spawn", "spawn_teammate", {
        name: "bob",
        prompt: "write b.txt",
        mode: "plan",
      }),
    ]);
  }
  if (last.startsWith("toolu_spawn")) return message("Bob is planning.");
  return message("Ok.");
};

Deno.test("the REPL idle at its prompt asks the person to approve a plan-mode teammate's plan: rejected with feedback, then approved", async () => {
  await using fake = await startFakeAnthropic({ script: planScript });
  const { terminal, path, log, exited } = await startRepl(
    fake.url,
    "--permission-mode acceptEdits",
  );
  try {
    const atPrompt = (screen: Screen) => screen.cursorLine === ">" && screen.cursorX === 2;
    await terminal.waitFor("the prompt", atPrompt);
    await terminal.type("plan it");
    await terminal.press("Enter");
    const first = await terminal.waitFor(
      "bob's first plan",
      (s) => s.text.includes("v1: write b.txt") && s.cursorLine === "❯",
      60_000,
    );
    assert.match(
      first.text,
      /bob asks to approve this plan:\n {2}v1: write b\.txt\ny \/ n \+ feedback/,
    );
    await terminal.type("n add a test first");
    await terminal.press("Enter");
    await terminal.waitFor(
      "bob's second plan",
      (s) => s.text.includes("v2: test, then b.txt") && s.cursorLine === "❯",
      60_000,
    );
    await terminal.type("y");
    await terminal.press("Enter");
    await untilLogged(
      log,
      "bob's write",
      (events) => eventsOf(events, "tool.completed").find((e) => e.data.callId === "toolu_w2"),
    );
    assert.equal(await Deno.readTextFile(join(path, "b.txt")), "done\n");
    await terminal.waitFor("the prompt again", atPrompt);
    await terminal.press("C-d");
    await exited();

    const events = await readLog(log);
    assert.deepEqual(
      eventsOf(events, "protocol.answered").filter((e) => e.data.id.startsWith("toolu_plan")).map((
        e,
      ) => [
        e.agent,
        e.data.id,
        e.data.approve,
        e.data.reason ?? null,
        e.data.person ?? null,
      ]),
      [
        ["lead", "toolu_plan1", false, "add a test first", true],
        ["lead", "toolu_plan2", true, null, true],
      ],
    );
    const rejected = fake.requests.find((r) => lastMessageText(r).startsWith("toolu_plan1"));
    assert.match(lastMessageText(rejected!), /\[Plan Rejected\] add a test first/);
    const refused = eventsOf(events, "tool.completed").find((e) => e.data.callId === "toolu_w1");
    assert.equal(refused?.data.outcome, "denied");

    const replay = await runCli(["replay", log, "--verify", "--quiet"]);
    assert.equal(replay.code, 0, `replay --verify failed:\n${replay.stdout}${replay.stderr}`);
  } finally {
    await terminal.close();
    killProcessesIn(path);
    await Deno.remove(path, { recursive: true });
  }
});

Deno.test("a headless lead's teammate is refused a call that needs asking at once: no question is relayed, nobody waits", async () => {
  await using fake = await startFakeAnthropic({ script });
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-team-headless-" }));
  try {
    const out = await runCli(["-p", "build a team", "--workspace", path], {
      env: teamEnv(fake.url, { REIN_SHUTDOWN_TIMEOUT_MS: "300" }),
    });
    assert.equal(out.code, 0, out.stderr);
    const log = join(path, ".rein", "events.jsonl");
    const events = await readLog(log);
    const decided = eventsOf(events, "permission.decided").find((e) =>
      e.data.callId === "toolu_touch"
    );
    assert.equal(decided?.agent, "alice");
    assert.equal(decided?.data.decision, "deny");
    assert.equal(decided?.data.source.kind, "headless");
    assert.deepEqual(eventsOf(events, "question.asked"), []);
    await assert.rejects(Deno.stat(join(path, "made-by-alice.txt")));
    const replay = await runCli(["replay", log, "--verify", "--quiet"]);
    assert.equal(replay.code, 0, `replay --verify failed:\n${replay.stdout}${replay.stderr}`);
  } finally {
    killProcessesIn(path);
    await Deno.remove(path, { recursive: true });
  }
});

/**
 * The lead spawns alice, then waits in bash until the test has seen the person answer her (the
 * file `answered` appears): its first turn still runs when she asks, however long that takes.
 */
const sleepyLead: FakeScriptFn = (request) => {
  const first = firstUserText(request.body?.messages ?? []);
  const last = lastMessageText(request);
  if (first === "make a file") {
    if (last.includes("shutdown_request")) {
      return message([toolUse("toolu_bye", "respond_shutdown", { approve: true })]);
    }
    if (last === "make a file") {
      return message([toolUse("toolu_touch", "bash", { command: "touch made-by-alice.txt" })]);
    }
    // Allowed "always": the same command again is not asked about.
    if (last.startsWith("toolu_touch")) {
      return message([toolUse("toolu_again", "bash", { command: "touch made-by-alice.txt" })]);
    }
    return message("Done.");
  }
  if (last === "build a team") {
    return message([
      toolUse("toolu_spawn", "spawn_teammate", { name: "alice", prompt: "make a file" }),
    ]);
  }
  if (last.startsWith("toolu_spawn")) {
    const wait = "until [ -f answered ]; do sleep 0.05; done";
    return message([toolUse("toolu_sleep", "bash", { command: `sh -c '${wait}'` })]);
  }
  if (last.startsWith("toolu_sleep")) return message("Slept.");
  return message("Ok.");
};

Deno.test("a teammate's question reaches the person while the lead's first turn (a prompt given on the command line) still runs; its \"always\" saves the rule, and the same call is not asked again", async () => {
  await using fake = await startFakeAnthropic({ script: sleepyLead });
  const { terminal, path, log, exited } = await startRepl(
    fake.url,
    `--allowedTools ${shellQuote("Bash(sh -c *)")} ${shellQuote("build a team")}`,
  );
  try {
    await terminal.waitFor(
      "alice's permission question",
      (s) =>
        s.text.includes("alice wants to run `touch made-by-alice.txt`") && s.cursorLine === "❯",
      60_000,
    );
    await terminal.type("2");
    await terminal.press("Enter");
    await untilLogged(
      log,
      "the person's answer",
      (events) => eventsOf(events, "question.answered")[0],
    );
    // The lead's command ends only now.
    await Deno.writeTextFile(join(path, "answered"), "");
    await terminal.waitFor(
      "the lead's turn to end",
      (s) => s.text.includes("Slept.") && s.cursorLine === ">",
      60_000,
    );
    await untilLogged(
      log,
      "alice's second call",
      (events) => eventsOf(events, "tool.completed").find((e) => e.data.callId === "toolu_again"),
    );
    await terminal.press("C-d");
    await exited();
    const events = await readLog(log);
    const answered = eventsOf(events, "question.answered")[0];
    const slept = eventsOf(events, "tool.completed").find((e) => e.data.callId === "toolu_sleep");
    assert.ok(answered !== undefined && slept !== undefined);
    assert.ok(answered.seq < slept.seq, "answered while the lead's sleep still ran");
    assert.equal(answered.data.answer, "always");
    assert.equal(eventsOf(events, "question.asked").length, 1);
    const decided = eventsOf(events, "permission.decided");
    const first = decided.find((e) => e.data.callId === "toolu_touch")?.data.source;
    assert.equal(first?.kind === "user" && first.rule, "Bash(touch made-by-alice.txt *)");
    const again = decided.find((e) => e.data.callId === "toolu_again")?.data;
    assert.equal(again?.decision, "allow");
    assert.equal(again?.source.kind, "session");
    const local = await Deno.readTextFile(join(path, ".claude", "settings.local.json"));
    assert.match(local, /Bash\(touch made-by-alice\.txt \*\)/);
    const replay = await runCli(["replay", log, "--verify", "--quiet"]);
    assert.equal(replay.code, 0, `replay --verify failed:\n${replay.stdout}${replay.stderr}`);
  } finally {
    await terminal.close();
    killProcessesIn(path);
    await Deno.remove(path, { recursive: true });
  }
});
