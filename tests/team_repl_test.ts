/**
 * The team at the lead's REPL, end to end in a real terminal (tmux) against the fake model routed
 * per agent: the lead spawns alice in her own process; her command that needs permission is
 * relayed to the REPL and asked with her name, and the person's "y" lets it run; her call shows
 * as one dim line (`alice · bash …`), her mail to the lead as it arrives (waking the idle lead);
 * `/team` lists her; `@alice text` reaches her as the lead's mail marked as the person's words;
 * `/team stop alice` stops her. The log replays with `--verify`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type FakeScriptFn,
  message,
  startFakeAnthropic,
  toolUse,
} from "../testing/fake_anthropic.ts";
import { firstUserText } from "../testing/scenarios.ts";
import { killProcessesIn } from "../testing/tool_helpers.ts";
import { eventsOf, lastText, readLog, teammatePids, untilLogged } from "./_team_e2e.ts";
import { CLI, runCli } from "./_cli.ts";
import { type Screen, shellQuote, Terminal } from "./_tmux.ts";

const PERSON = "(From the user, typed at the lead's terminal) also write a readme";

/** The fake model: the lead by its first prompt, alice by hers. */
const script: FakeScriptFn = (request) => {
  const first = firstUserText(request.body?.messages ?? []);
  const last = lastText(request);
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
    `${shellQuote(Deno.execPath())} run -A ${shellQuote(CLI)} agent --trust`,
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
    const toAlice = fake.requests.find((r) => lastText(r).includes(PERSON));
    assert.match(lastText(toAlice!), /<teammate-message teammate_id="team-lead"/);

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
