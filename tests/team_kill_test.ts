/**
 * Teammate processes killed, end to end against the fake model (issue 23's "Done when"):
 * - a SIGKILL of a teammate in the middle of a bash command (one that sleeps, after bumping a
 *   counter file): the lead's process records the exit and starts it again; the killed call is
 *   closed as interrupted and never run again (the counter says once, and nothing of the command
 *   is left running); the mail the lead sent it meanwhile reaches its model once;
 * - a SIGKILL of the lead's process: no teammate process outlives it (their pids, from
 *   `agent.started`, are gone from /proc), nor the command one was running; `--continue` starts
 *   the team again, which finishes (the killed command closed as interrupted, not run again).
 * Both logs replay with `--verify`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { message, startFakeAnthropic, toolUse } from "../testing/fake_anthropic.ts";
import { firstUserText, lastMessageText } from "../testing/scenarios.ts";
import { killProcessesIn, processesIn } from "../testing/tool_helpers.ts";
import { runCli } from "./_cli.ts";
import { CliProcess } from "./_cli_process.ts";
import {
  alive,
  ended,
  eventsOf,
  mailIn,
  readLog,
  teamEnv,
  teammatePids,
  untilLogged,
} from "./_team_e2e.ts";

/** Lines of the counter file at `file` (none when it does not exist yet). */
async function counted(file: string): Promise<string[]> {
  const text = await Deno.readTextFile(file).catch(() => "");
  return text.split("\n").filter(Boolean);
}

const JOB = "echo run >> counter.txt; sleep 30; echo finished >> counter.txt";

Deno.test("a teammate killed mid-command is started again: the killed call closed as interrupted and never run twice, its mail delivered once; the log replays", async () => {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-team-kill-" }));
  const log = join(path, ".rein", "events.jsonl");
  const counter = join(path, "counter.txt");
  await using fake = await startFakeAnthropic({
    script: (request) => {
      const first = firstUserText(request.body?.messages ?? []);
      const last = lastMessageText(request);
      if (first === "run the job") {
        if (last.includes("shutdown_request")) {
          return message([toolUse("toolu_dave_bye", "respond_shutdown", { approve: true })]);
        }
        if (last === "run the job") {
          return message([toolUse("toolu_job", "bash", { command: JOB })]);
        }
        if (last.startsWith("toolu_job ")) {
          const saw = mailIn(request).some((letter) => letter.text.includes("note for dave"));
          return message([toolUse("toolu_dave_mail", "send_message", {
            to: "team-lead",
            content: `dave: the job was interrupted${saw ? "; got the note" : ""}`,
          })]);
        }
        return message("Reported.");
      }
      if (mailIn(request).some((letter) => letter.text.includes("dave: the job"))) {
        return message("Dave reported.");
      }
      if (last.startsWith("toolu_dave ")) {
        return message([
          toolUse("toolu_note", "send_message", { to: "dave", content: "note for dave" }),
        ]);
      }
      if (last.startsWith("toolu_note ")) return message("Dave is on it.");
      return message([toolUse("toolu_dave", "spawn_teammate", {
        name: "dave",
        prompt: "run the job",
      })]);
    },
    // The lead writes to dave once his command runs.
    onRequest: async (request) => {
      if (!lastMessageText(request).startsWith("toolu_dave ")) return;
      const deadline = Date.now() + 60_000;
      while ((await counted(counter)).length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  });
  try {
    const env = teamEnv(fake.url);
    const args = [
      "-p",
      "start dave",
      "--workspace",
      path,
      "--permission-mode",
      "bypassPermissions",
    ];
    await using lead = new CliProcess(args, env);
    // Killed in the middle of its command, once the lead's note to it is in the log.
    const first = await untilLogged(
      log,
      "dave's command and the lead's note",
      (events) =>
        eventsOf(events, "mail.sent").some((e) => e.data.from === "lead")
          ? eventsOf(events, "agent.started")[0]
          : undefined,
      () => lead.running,
    );
    assert.deepEqual(await counted(counter), ["run"]);
    Deno.kill(first.data.process.pid, "SIGKILL");

    const out = await lead.output;
    assert.equal(out.code, 0, out.stderr);
    const events = await readLog(log);
    assert.equal(out.stdout.trim(), "Dave reported.");
    // Recorded and started again.
    assert.deepEqual(
      eventsOf(events, "agent.exited").map((e) => [e.agent, e.data.code, e.data.signal]),
      [["dave", null, "SIGKILL"]],
    );
    assert.deepEqual(eventsOf(events, "agent.started").map((e) => [e.agent, e.data.restart]), [
      ["dave", 0],
      ["dave", 1],
    ]);
    // The killed call: started once, closed as interrupted, never run again; its command did
    // not go on without it.
    const job = (e: { data: { callId: string } }) => e.data.callId === "toolu_job";
    assert.equal(eventsOf(events, "tool.requested").filter(job).length, 1);
    const closed = eventsOf(events, "tool.completed").filter(job);
    assert.deepEqual(closed.map((e) => [e.agent, e.data.outcome]), [["dave", "interrupted"]]);
    assert.deepEqual(await counted(counter), ["run"]);
    assert.deepEqual(processesIn(path), []);
    // The continued turn: the model saw the interrupted result and the note, the note once.
    const note = eventsOf(events, "mail.sent").find((e) => e.data.content === "note for dave");
    assert.ok(note !== undefined);
    const delivered = eventsOf(events, "arrival.injected").filter((e) =>
      e.agent === "dave" && e.data.text.includes("note for dave")
    );
    assert.equal(delivered.length, 1);
    const noted = fake.requests.filter((r) =>
      mailIn(r).some((letter) => letter.text.includes("note for dave"))
    );
    assert.equal(noted.length, 1);
    assert.equal(firstUserText(noted[0]!.body?.messages ?? []), "run the job");
    const report = eventsOf(events, "mail.sent").filter((e) =>
      e.data.from === "dave" && e.data.content.startsWith("dave:")
    );
    assert.deepEqual(report.map((e) => e.data.content), [
      "dave: the job was interrupted; got the note",
    ]);
    // Dave's report reached the lead once.
    assert.equal(
      eventsOf(events, "arrival.injected").filter((e) =>
        e.agent === "lead" && e.data.text.includes("dave: the job")
      ).length,
      1,
    );
    for (const pid of teammatePids(events)) assert.ok(!alive(pid), `teammate ${pid} outlived -p`);

    const replay = await runCli(["replay", log, "--verify"]);
    assert.equal(replay.code, 0, `replay --verify failed:\n${replay.stdout}${replay.stderr}`);
    assert.match(
      replay.stdout,
      new RegExp(`: ${events.length} events replayed, all match the log`),
    );
  } finally {
    killProcessesIn(path);
    await Deno.remove(path, { recursive: true });
  }
});

Deno.test("a SIGKILL of the lead's process leaves no teammate process running, nor a command of one; --continue starts the team again and it finishes; the log replays", async () => {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-team-kill-" }));
  const log = join(path, ".rein", "events.jsonl");
  const erinFile = join(path, "erin.txt");
  let killed: (() => void) | undefined;
  const leadKilled = new Promise<void>((resolve) => killed = resolve);
  const asked = new Map<string, number>();
  await using fake = await startFakeAnthropic({
    script: (request) => {
      const first = firstUserText(request.body?.messages ?? []);
      const last = lastMessageText(request);
      if (first === "sort it" || first === "check it") {
        const name = first === "sort it" ? "erin" : "frank";
        if (last.includes("shutdown_request")) {
          return message([toolUse(`toolu_bye_${name}`, "respond_shutdown", { approve: true })]);
        }
        // Erin is in the middle of a command when the lead dies; frank waits for the model.
        if (last === "sort it") {
          return message([toolUse("toolu_erin_job", "bash", {
            command: "echo start >> erin.txt; sleep 30; echo end >> erin.txt",
          })]);
        }
        if (last === "check it" || last.startsWith("toolu_erin_job ")) {
          const report = name === "erin" ? "erin: sorted" : "frank: checked";
          return message([
            toolUse(`toolu_mail_${name}`, "send_message", { to: "team-lead", content: report }),
          ]);
        }
        return message("Reported.");
      }
      const mail = mailIn(request).map((letter) => letter.text).join("\n");
      if (mail.includes("erin: sorted") || mail.includes("frank: checked")) {
        return message("Team done.");
      }
      if (last.startsWith("toolu_erin ") || last.startsWith("toolu_frank ")) {
        return message("The team is working.");
      }
      return message([
        toolUse("toolu_erin", "spawn_teammate", { name: "erin", prompt: "sort it" }),
        toolUse("toolu_frank", "spawn_teammate", { name: "frank", prompt: "check it" }),
      ]);
    },
    // Until the lead's process is killed, its second request and frank's first are held.
    onRequest: async (request) => {
      const first = firstUserText(request.body?.messages ?? []);
      asked.set(first, (asked.get(first) ?? 0) + 1);
      const held = first === "check it"
        ? asked.get(first) === 1
        : first === "start two" && asked.get(first) === 2;
      if (held) await leadKilled;
    },
  });
  try {
    const env = teamEnv(fake.url);
    const args = ["-p", "start two", "--workspace", path, "--permission-mode", "bypassPermissions"];
    let pids: number[];
    {
      await using lead = new CliProcess(args, env);
      pids = await untilLogged(
        log,
        "frank's request and erin's command",
        (events) =>
          asked.get("check it") === 1 && asked.get("start two") === 2 &&
            eventsOf(events, "agent.started").length === 2 &&
            eventsOf(events, "tool.requested").some((e) => e.data.callId === "toolu_erin_job")
            ? teammatePids(events)
            : undefined,
        () => lead.running,
      );
      while ((await counted(erinFile)).length === 0) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      for (const pid of pids) assert.ok(alive(pid));
      assert.ok(processesIn(path).some((p) => p.command.includes("sleep 30")));
      const out = await lead.kill();
      assert.equal(out.signal, "SIGKILL");
    }
    // No teammate outlives the lead's process, nor erin's command.
    for (const pid of pids) assert.ok(await ended(pid), `teammate ${pid} outlived the lead`);
    const deadline = Date.now() + 5_000;
    while (processesIn(path).length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.deepEqual(processesIn(path), []);
    killed?.();

    const resumed = await runCli(["--continue", "-p", "--workspace", path], { env });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(resumed.stdout.trim(), "Team done.");
    const events = await readLog(log);
    assert.ok(events.some((e) => e.type === "session.resumed" && e.agent === "lead"));
    // Both teammates started again by the resumed lead, each continuing the turn it was killed in:
    // erin's command closed as interrupted, never run again.
    const again = eventsOf(events, "agent.started").filter((e) => e.data.restart === 1);
    assert.deepEqual(again.map((e) => e.agent).sort(), ["erin", "frank"]);
    for (const name of ["erin", "frank"]) {
      assert.ok(events.some((e) => e.type === "session.resumed" && e.agent === name), name);
    }
    const job = (e: { data: { callId: string } }) => e.data.callId === "toolu_erin_job";
    assert.equal(eventsOf(events, "tool.requested").filter(job).length, 1);
    assert.deepEqual(
      eventsOf(events, "tool.completed").filter(job).map((e) => e.data.outcome),
      ["interrupted"],
    );
    assert.deepEqual(await counted(erinFile), ["start"]);
    assert.deepEqual(
      eventsOf(events, "mail.sent")
        .filter((e) => /^(erin|frank): /.test(e.data.content))
        .map((e) => [e.agent, e.data.content])
        .sort(),
      [["erin", "erin: sorted"], ["frank", "frank: checked"]],
    );
    for (const pid of teammatePids(events)) {
      assert.ok(await ended(pid), `teammate ${pid} outlived -p`);
    }

    const replay = await runCli(["replay", log, "--verify"]);
    assert.equal(replay.code, 0, `replay --verify failed:\n${replay.stdout}${replay.stderr}`);
    assert.match(
      replay.stdout,
      new RegExp(`: ${events.length} events replayed, all match the log`),
    );
  } finally {
    killed?.();
    killProcessesIn(path);
    await Deno.remove(path, { recursive: true });
  }
});
