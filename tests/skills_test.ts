/**
 * Skills end to end: SKILL.md files in a workspace (and rein's bundled ones) reach the system
 * prompt's catalog and the load_skill tool in a headless run against the fake model; the log keeps
 * the text that was read, so replay is unaffected by later edits, and a resume records the new
 * text.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { message, startFakeAnthropic, toolUse } from "../testing/fake_anthropic.ts";
import type { RecordedRequest } from "../testing/fake_anthropic.ts";
import { readLogLines, runCli, tempWorkspace } from "./_cli.ts";

const KEY = "sk-ant-skills-test";
/** Deno's cache, kept when HOME moves to a temp directory (no ~/.claude/skills of the machine). */
const DENO_DIR = Deno.env.get("DENO_DIR") ??
  join(Deno.env.get("HOME") ?? "/root", ".cache", "deno");

function systemText(request: RecordedRequest | undefined): string {
  const system = request?.body?.system;
  return typeof system === "string" ? system : JSON.stringify(system ?? []);
}

function lastMessage(request: RecordedRequest | undefined): string {
  return JSON.stringify(request?.body?.messages?.at(-1) ?? null);
}

function toolNames(request: RecordedRequest | undefined): string[] {
  return (request?.body?.tools ?? []).map((tool) => tool.name);
}

Deno.test("the model loads a project skill; replay uses the recorded SKILL.md after an edit, and a resume records the new one", async () => {
  await using ws = await tempWorkspace();
  const home = join(ws.path, "home");
  const project = join(ws.path, "project");
  const skill = join(project, ".claude", "skills", "greet", "SKILL.md");
  const broken = join(project, ".claude", "skills", "broken", "SKILL.md");
  await Deno.mkdir(join(home, ".claude"), { recursive: true });
  await Deno.mkdir(join(project, ".claude", "skills", "greet"), { recursive: true });
  await Deno.mkdir(join(project, ".claude", "skills", "broken"), { recursive: true });
  await Deno.writeTextFile(
    skill,
    "---\ndescription: Greets people\nargument-hint: [name]\n---\nSay hello to $ARGUMENTS in French.\n",
  );
  await Deno.writeTextFile(broken, "---\nname: broken\n---\nNo description.\n");

  await using fake = await startFakeAnthropic({
    script: [
      message([toolUse("toolu_1", "load_skill", { skill: "greet", args: "Ada" })]),
      message("Bonjour Ada."),
      message([toolUse("toolu_2", "load_skill", { skill: "greet", args: "Bo" })]),
      message("Ciao Bo."),
    ],
  });
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY, HOME: home, DENO_DIR };
  const first = await runCli(["-p", "greet Ada", "--workspace", project], { env });
  assert.equal(first.code, 0, first.stderr);
  assert.equal(first.stdout.trim(), "Bonjour Ada.");
  assert.match(first.stderr, new RegExp(`Skipped the skill at "${broken}": .*no description`));

  const [request1, request2] = fake.requests;
  assert.ok(toolNames(request1).includes("load_skill"));
  assert.match(systemText(request1), /- greet: Greets people/);
  assert.match(systemText(request1), /- investigate-a-run: /, "the bundled skills are listed");
  assert.match(systemText(request1), /- write-a-hook: /);
  assert.doesNotMatch(systemText(request1), /- broken/);
  assert.match(lastMessage(request2), /Say hello to Ada in French\./);
  assert.match(lastMessage(request2), /Its directory is \.claude\/skills\/greet/);

  const log = `${project}/.rein/events.jsonl`;
  const started = (await readLogLines(log)).find((e) => e.type === "session.started");
  const recorded = (started?.data.files as { source: string; path: string; text: string }[])
    .filter((file) => file.source === "skills");
  assert.ok(recorded.some((file) => file.path === skill && file.text.includes("in French")));
  assert.ok(!recorded.some((file) => file.path === broken), "a skipped file is not recorded");

  await Deno.writeTextFile(
    skill,
    "---\ndescription: Greets people warmly\n---\nSay hello to $ARGUMENTS in Italian.\n",
  );
  await Deno.remove(broken);
  const replay = await runCli(["replay", "--verify", "-q", "--workspace", project], {
    permissions: ["--allow-read", "--allow-env"],
    env: { HOME: home, DENO_DIR },
  });
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
  assert.match(replay.stdout, /all match the log/);

  const resumed = await runCli(["--continue", "-p", "greet Bo", "--workspace", project], { env });
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.equal(resumed.stdout.trim(), "Ciao Bo.");
  assert.doesNotMatch(resumed.stderr, /Skipped the skill/);
  const [, , request3, request4] = fake.requests;
  assert.match(systemText(request3), /- greet: Greets people warmly/);
  assert.match(lastMessage(request4), /Say hello to Bo in Italian\./);
  const again = (await readLogLines(log)).find((e) => e.type === "session.resumed");
  const reread = (again?.data.files as { source: string; path: string; text: string }[])
    .find((file) => file.path === skill);
  assert.match(reread?.text ?? "", /in Italian/);

  const replayAgain = await runCli(["replay", "--verify", "-q", "--workspace", project], {
    permissions: ["--allow-read", "--allow-env"],
    env: { HOME: home, DENO_DIR },
  });
  assert.equal(replayAgain.code, 0, replayAgain.stdout + replayAgain.stderr);
});

Deno.test("a SKILL.md edited during a session changes nothing in it: load_skill serves the recorded text", async () => {
  await using ws = await tempWorkspace();
  const home = join(ws.path, "home");
  await Deno.mkdir(home);
  const skill = join(ws.path, ".claude", "skills", "note", "SKILL.md");
  await Deno.mkdir(join(ws.path, ".claude", "skills", "note"), { recursive: true });
  await Deno.writeTextFile(skill, "---\ndescription: Takes notes\n---\nWrite NOTES.md.\n");
  await using fake = await startFakeAnthropic({
    script: [message([toolUse("toolu_l", "load_skill", { skill: "note" })]), message("Done.")],
    onRequest: async (request) => {
      if (request.seq === 1) {
        await Deno.writeTextFile(skill, "---\ndescription: Changed\n---\nChanged.\n");
      }
    },
  });
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY, HOME: home, DENO_DIR };
  const run = await runCli(["-p", "take a note", "--workspace", ws.path], { env });
  assert.equal(run.code, 0, run.stderr);
  assert.match(await Deno.readTextFile(skill), /Changed/);
  assert.match(lastMessage(fake.requests[1]), /Write NOTES\.md\./);
  assert.doesNotMatch(JSON.stringify(fake.requests[1]?.body), /Changed/);
});
