import assert from "node:assert/strict";
import { eventFactory, startedData } from "../../testing/event_factory.ts";
import { foldEvents } from "../state/state.ts";
import { commandGrantsProjection, grantedRules, type SkillRules } from "./command_grants.ts";
import { renderCommandEvent } from "./command_render.ts";
import { plainText } from "../state/rendered_line.ts";

const settings = (features: string[]) => ({
  sources: [],
  flags: {},
  home: "/h",
  interactive: false,
  features,
});
const skills: SkillRules = (_state, _session, name) =>
  name === "pdf" ? { rules: ["Bash(pdftk:*)"], file: "/w/.claude/skills/pdf/SKILL.md" } : undefined;

function invoked(allowedTools: string[], refused?: string) {
  return {
    name: "review",
    arguments: "",
    path: "/w/.claude/commands/review.md",
    allowedTools,
    shell: [],
    files: [],
    prompt: "p",
    ...(refused === undefined ? {} : { refused }),
  };
}

Deno.test("a command's allowed-tools are granted to its agent until its turn ends", () => {
  const e = eventFactory();
  const other = eventFactory("s1", "helper");
  const given = [
    e("session.started", startedData({ workspace: "/w", settings: settings(["commands"]) })),
    e("command.invoked", invoked(["Bash(git status:*)"])),
  ];
  const during = foldEvents(given, [commandGrantsProjection]);
  assert.deepEqual(grantedRules(during, "s1", "lead", skills), [
    { rule: "Bash(git status:*)", file: "/w/.claude/commands/review.md" },
  ]);
  assert.deepEqual(grantedRules(during, "s1", "helper", skills), [], "another agent's turn");
  const helperEnded = foldEvents(
    [...given, other("turn.ended", { reason: "completed", rounds: 1 })],
    [commandGrantsProjection],
  );
  assert.equal(grantedRules(helperEnded, "s1", "lead", skills).length, 1);
  const after = foldEvents(
    [...given, e("turn.ended", { reason: "completed", rounds: 1 })],
    [commandGrantsProjection],
  );
  assert.deepEqual(grantedRules(after, "s1", "lead", skills), []);
  const refused = foldEvents(
    [given[0]!, e("command.invoked", invoked(["Bash(x)"], "Cannot run /review"))],
    [commandGrantsProjection],
  );
  assert.deepEqual(grantedRules(refused, "s1", "lead", skills), []);
});

Deno.test("a skill grants its allowed-tools once invoked or loaded without error; a failed load grants nothing", () => {
  const e = eventFactory();
  const start = e(
    "session.started",
    startedData({ workspace: "/w", settings: settings(["commands"]) }),
  );
  const load = (id: string, isError: boolean) => [
    e("tool.requested", { callId: id, name: "load_skill", input: { skill: "pdf" } }),
    e("tool.completed", { callId: id, name: "load_skill", content: "", isError, durationMs: 1 }),
  ];
  const failed = foldEvents([start, ...load("t1", true)], [commandGrantsProjection]);
  assert.deepEqual(grantedRules(failed, "s1", "lead", skills), []);
  const loaded = foldEvents([start, ...load("t2", false)], [commandGrantsProjection]);
  assert.deepEqual(grantedRules(loaded, "s1", "lead", skills), [
    { rule: "Bash(pdftk:*)", file: "/w/.claude/skills/pdf/SKILL.md" },
  ]);
  const byName = foldEvents(
    [start, e("skill.invoked", { name: "pdf", arguments: "", path: "/w/x" })],
    [commandGrantsProjection],
  );
  assert.equal(grantedRules(byName, "s1", "lead", skills).length, 1);
});

Deno.test("a session recorded without the commands feature gets no pre-approval (it replays as it ran)", () => {
  const e = eventFactory();
  const state = foldEvents([
    e("session.started", startedData({ workspace: "/w", settings: settings(["todos"]) })),
    e("skill.invoked", { name: "pdf", arguments: "", path: "/w/x" }),
  ], [commandGrantsProjection]);
  assert.deepEqual(grantedRules(state, "s1", "lead", skills), []);
});

Deno.test("in a session that did not trust its folder, the repository's commands and skills grant nothing; the person's still do", () => {
  const e = eventFactory();
  const untrusted = { ...settings(["commands"]), trusted: false };
  const personal = { ...invoked(["Bash(ls)"]), path: "/h/.claude/commands/mine.md" };
  const state = foldEvents([
    e("session.started", startedData({ workspace: "/w", settings: untrusted })),
    e("command.invoked", invoked(["Bash(git status:*)"])),
    e("command.invoked", personal),
    e("skill.invoked", { name: "pdf", arguments: "", path: "/w/.claude/skills/pdf/SKILL.md" }),
  ], [commandGrantsProjection]);
  assert.deepEqual(grantedRules(state, "s1", "lead", skills), [
    { rule: "Bash(ls)", file: "/h/.claude/commands/mine.md" },
  ]);
});

Deno.test("in an untrusted folder, a plugin's command (the person's --plugin-dir) still grants, even when the plugin lies inside the folder", () => {
  const e = eventFactory();
  const untrusted = { ...settings(["commands"]), trusted: false };
  const path = "/w/plugins/fmt/commands/run.md";
  const state = foldEvents([
    e(
      "session.started",
      startedData({
        workspace: "/w",
        settings: untrusted,
        files: [{ source: "commands", path, text: "Run\n", plugin: "fmt" }],
      }),
    ),
    e("command.invoked", { ...invoked(["Write"]), name: "fmt:run", path }),
    e("command.invoked", invoked(["Bash(git status:*)"])),
  ], [commandGrantsProjection]);
  assert.deepEqual(grantedRules(state, "s1", "lead", skills), [{ rule: "Write", file: path }]);
});

Deno.test("a command run shows what it ran and read; a refused one why", () => {
  const e = eventFactory();
  const ran = e("command.invoked", {
    ...invoked([]),
    shell: [{ command: "git status --short", output: "", isError: false }],
    files: ["/w/notes.md"],
  });
  assert.deepEqual(renderCommandEvent(ran)?.map(plainText), [
    "— /review: ran git status --short, read /w/notes.md",
  ]);
  const refused = e("command.invoked", invoked([], "Cannot run /review: no"));
  assert.deepEqual(renderCommandEvent(refused)?.map((line) => line[0]?.style), ["red"]);
  assert.equal(renderCommandEvent(e("turn.ended", { reason: "completed", rounds: 1 })), undefined);
});

Deno.test("a command invoked while the log shows a turn cut off by a crash is granted for the next prompt's turn, past that turn's end", () => {
  const e = eventFactory();
  const given = [
    e("session.started", startedData({ workspace: "/w", settings: settings(["commands"]) })),
    e("user.prompted", { text: "before the crash" }),
    // The process died mid-turn; `--continue -p "/review"` records the command, then the resume
    // closes the old turn and records the command's prompt.
    e("command.invoked", invoked(["Bash(git status:*)"])),
    e("turn.ended", { reason: "interrupted", rounds: 1 }),
  ];
  const closing = foldEvents(given, [commandGrantsProjection]);
  assert.deepEqual(grantedRules(closing, "s1", "lead", skills), []);
  const prompted = foldEvents(
    [...given, e("user.prompted", { text: "p" })],
    [commandGrantsProjection],
  );
  assert.deepEqual(grantedRules(prompted, "s1", "lead", skills), [
    { rule: "Bash(git status:*)", file: "/w/.claude/commands/review.md" },
  ]);
  const ended = foldEvents(
    [
      ...given,
      e("user.prompted", { text: "p" }),
      e("turn.ended", { reason: "completed", rounds: 1 }),
    ],
    [commandGrantsProjection],
  );
  assert.deepEqual(grantedRules(ended, "s1", "lead", skills), []);
});
