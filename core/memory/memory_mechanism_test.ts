import assert from "node:assert/strict";
import { eventFactory, startedData } from "../../testing/event_factory.ts";
import { foldEvents } from "../state/state.ts";
import { memoryMechanism, noteReminders } from "./memory_mechanism.ts";
import { memoryProjection } from "./memory_projection.ts";
import { memoryReport } from "./memory_report.ts";

const files = [
  { source: "memory", path: "/w/CLAUDE.md", text: "Be brief.\n" },
  { source: "memory.index", path: "/w/.rein/memory/MEMORY.md", text: "- a\n" },
];

Deno.test("a note saved for an agent is reminded once, before its next model call", () => {
  const e = eventFactory();
  const other = eventFactory("s1", "helper");
  const given = [
    e("session.started", startedData({ workspace: "/w", files })),
    e("memory.noted", { path: "/w/.rein/memory/MEMORY.md", text: "use pnpm" }),
    other("memory.noted", { path: "/w/.rein/memory/MEMORY.md", text: "not for the lead" }),
  ];
  const state = foldEvents(given, [memoryProjection]);
  const [reminder, ...rest] = noteReminders(state, "s1", "lead");
  assert.deepEqual(rest, []);
  assert.deepEqual(reminder, {
    type: "reminder.added",
    data: {
      source: "memory",
      text: "The user saved a note to memory; it is in the file now:\n" +
        "- use pnpm  (/w/.rein/memory/MEMORY.md)",
    },
  });
  const after = foldEvents([...given, e(reminder!.type, reminder!.data)], [memoryProjection]);
  assert.deepEqual(noteReminders(after, "s1", "lead"), []);
  assert.equal(noteReminders(after, "s1", "helper").length, 1);
});

Deno.test("the mechanism's sections come from the session's recorded files", () => {
  const e = eventFactory();
  const state = foldEvents([e("session.started", startedData({ workspace: "/w", files }))], [
    memoryProjection,
  ]);
  const sections = memoryMechanism().sections?.({ state, session: "s1", agent: "lead" }) ?? [];
  assert.deepEqual(sections.map((s) => s.id), ["instructions", "memory"]);
  assert.ok(sections[0]?.text.endsWith("Contents of CLAUDE.md:\n\nBe brief."));
  assert.deepEqual(memoryMechanism().fedTypes, ["memory.noted"]);
});

Deno.test("/memory reports what is loaded, from where, how big, and the notes saved", () => {
  const e = eventFactory();
  const state = foldEvents([
    e("session.started", startedData({ workspace: "/w", files })),
    e("memory.noted", { path: "/w/.rein/memory/MEMORY.md", text: "use pnpm" }),
  ], [memoryProjection]);
  assert.equal(
    memoryReport(state, "s1"),
    [
      "Memory as read when the session started or last resumed (edits apply at the next resume).",
      "Project instructions: 1 file, 10 bytes",
      "  CLAUDE.md  10 bytes, 1 line",
      "Memory index: .rein/memory/MEMORY.md  4 bytes, 1 line (all in the prompt)",
      "Notes saved in this session: 1",
      "  - use pnpm  (.rein/memory/MEMORY.md)",
    ].join("\n"),
  );
  const bare = foldEvents([e("session.started", startedData())], [memoryProjection]);
  assert.equal(memoryReport(bare, "s1"), "No memory files were recorded for this session");
  assert.equal(memoryReport(bare, "nope"), 'No session "nope" in the log');
});
