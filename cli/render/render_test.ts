import assert from "node:assert/strict";
import type { EventPayloads } from "../../events/event_types.ts";
import { createBaseTools } from "../../core/tools/base_tools.ts";
import { eventFactory, respondedData } from "../../testing/event_factory.ts";
import { changeLines, Renderer, resultSummary, stripControls } from "./render.ts";
import { createStyles } from "./style.ts";

/** A renderer writing plain text to a string, with the real base tools to summarize calls. */
function plainRenderer() {
  let output = "";
  const tools = createBaseTools({ workspace: "/work/project" });
  const renderer = new Renderer(
    { write: (text) => output += text },
    createStyles(false),
    (name) => tools.find((tool) => tool.name === name),
  );
  return { renderer, output: () => output, event: eventFactory() };
}

function completed(
  overrides: Partial<EventPayloads["tool.completed"]> = {},
): EventPayloads["tool.completed"] {
  return { callId: "t1", name: "bash", content: "", isError: false, durationMs: 3, ...overrides };
}

function failed(
  overrides: Partial<EventPayloads["model.failed"]> = {},
): EventPayloads["model.failed"] {
  return {
    attempt: 1,
    kind: "overloaded",
    status: 529,
    message: "Overloaded",
    retryInMs: 2000,
    ...overrides,
  };
}

Deno.test("a tool call renders as its name and summary, and its result as one line below", () => {
  const { renderer, output, event } = plainRenderer();
  renderer.event(event("tool.requested", { callId: "t1", name: "bash", input: { command: "ls" } }));
  renderer.event(event("tool.completed", completed({ content: "a.txt\nb.txt\nc.txt\n" })));
  assert.equal(output(), "● bash ls\n  ⎿  a.txt … +2 lines\n");
});

Deno.test("a tool call is summarized by its tool, on one line", () => {
  const { renderer, output, event } = plainRenderer();
  renderer.event(
    event("tool.requested", { callId: "t1", name: "bash", input: { command: "ls\necho hi" } }),
  );
  renderer.event(
    event("tool.requested", { callId: "t2", name: "read_file", input: { path: "notes.txt" } }),
  );
  assert.equal(output(), "● bash ls …\n\n● read_file notes.txt\n");
});

Deno.test("a call of an unknown tool is summarized by its input as JSON", () => {
  const { renderer, output, event } = plainRenderer();
  renderer.event(event("tool.requested", { callId: "t1", name: "mystery", input: { a: 1 } }));
  assert.equal(output(), '● mystery {"a":1}\n');
});

Deno.test("a failed tool result shows its first and last lines", () => {
  const { renderer, output, event } = plainRenderer();
  renderer.event(event("tool.requested", { callId: "t1", name: "bash", input: { command: "x" } }));
  renderer.event(
    event("tool.completed", completed({ content: "x: not found\n\nExit code 127", isError: true })),
  );
  assert.equal(output(), "● bash x\n  ⎿  x: not found · Exit code 127 … +2 lines\n");
});

Deno.test("an interrupted tool result says its outcome is unknown", () => {
  const { renderer, output, event } = plainRenderer();
  renderer.event(event("tool.requested", { callId: "t1", name: "bash", input: { command: "x" } }));
  renderer.event(
    event("tool.completed", completed({ content: "Interrupted", outcome: "interrupted" })),
  );
  assert.equal(output(), "● bash x\n  ⎿  bash: interrupted, outcome unknown\n");
});

Deno.test("a cancelled tool result renders as Cancelled", () => {
  const { renderer, output, event } = plainRenderer();
  renderer.event(event("tool.completed", completed({ outcome: "cancelled" })));
  assert.equal(output(), "  ⎿  Cancelled\n");
});

Deno.test("a model failure that will be retried shows when and which attempt comes next", () => {
  const { renderer, output, event } = plainRenderer();
  renderer.event(event("model.failed", failed({ attempt: 1, retryInMs: 2500 })));
  assert.equal(output(), "overloaded (529) — retrying in 2.5s, attempt 2 (Ctrl-C stops)\n");
});

Deno.test("a model failure that is not retried shows nothing: the turn's end reports it", () => {
  const { renderer, output, event } = plainRenderer();
  renderer.event(event("model.failed", failed({ retryInMs: null })));
  assert.equal(output(), "");
});

Deno.test("a failed turn shows its message", () => {
  const { renderer, output, event } = plainRenderer();
  renderer.event(
    event("turn.ended", { reason: "failed", rounds: 1, message: "Overloaded: gave up" }),
  );
  assert.equal(output(), "✗ Overloaded: gave up\n");
});

Deno.test("a cancelled turn and a turn stopped at --max-turns are noticed", () => {
  const { renderer, output, event } = plainRenderer();
  renderer.event(event("turn.ended", { reason: "cancelled", rounds: 1 }));
  renderer.event(event("turn.ended", { reason: "max_turns", rounds: 3 }));
  renderer.event(
    event("turn.ended", { reason: "max_turns", rounds: 3, message: "Stopped after 3 rounds" }),
  );
  assert.equal(
    output(),
    "⏹ Cancelled\n⏹ Stopped at --max-turns\n⏹ Stopped after 3 rounds\n",
  );
});

Deno.test("a completed turn shows nothing", () => {
  const { renderer, output, event } = plainRenderer();
  renderer.event(event("turn.ended", { reason: "completed", rounds: 1 }));
  assert.equal(output(), "");
});

Deno.test("a retry notice after a tool block is set off by a blank line", () => {
  const { renderer, output, event } = plainRenderer();
  renderer.event(event("tool.requested", { callId: "t1", name: "bash", input: { command: "x" } }));
  renderer.event(event("tool.completed", completed({ content: "ok" })));
  renderer.event(event("model.failed", failed()));
  renderer.event(event("turn.ended", { reason: "failed", rounds: 1, message: "Gave up" }));
  assert.equal(
    output(),
    "● bash x\n  ⎿  ok\n\noverloaded (529) — retrying in 2.0s, attempt 2 (Ctrl-C stops)\n✗ Gave up\n",
  );
});

Deno.test("the prompt, streamed text and a tool block are separated by one blank line each", () => {
  const { renderer, output, event } = plainRenderer();
  renderer.event(event("user.prompted", { text: "list files" }));
  renderer.text("\nListing");
  renderer.text(" the files.");
  renderer.event(
    event(
      "model.responded",
      respondedData([{ type: "tool_use", id: "t1", name: "bash", input: { command: "ls" } }]),
    ),
  );
  renderer.event(event("tool.requested", { callId: "t1", name: "bash", input: { command: "ls" } }));
  renderer.event(event("tool.completed", completed({ content: "a.txt" })));
  renderer.text("Done.");
  assert.equal(
    output(),
    "> list files\n\nListing the files.\n\n● bash ls\n  ⎿  a.txt\n\nDone.",
  );
});

Deno.test("resultSummary gives the first line, how many follow and the last one", () => {
  assert.deepEqual(resultSummary("\n  first  \nmiddle\n  last \n\n"), {
    head: "first",
    more: 2,
    last: "last",
  });
});

Deno.test("resultSummary of a one-line result has nothing more and no last line", () => {
  assert.deepEqual(resultSummary("only\n"), { head: "only", more: 0, last: null });
});

Deno.test("resultSummary of an empty or blank result is (No output)", () => {
  for (const content of ["", "  \n\n \t"]) {
    assert.deepEqual(resultSummary(content), { head: "(No output)", more: 0, last: null });
  }
});

Deno.test("resultSummary cuts a long line at 100 characters", () => {
  const { head } = resultSummary("x".repeat(150));
  assert.equal(head, `${"x".repeat(99)}…`);
});

Deno.test("the retry line counts attempts against the limit when the renderer knows it", () => {
  const lines: string[] = [];
  const renderer = new Renderer(
    { write: (text) => lines.push(text) },
    createStyles(false),
    () => undefined,
    { maxAttempts: 10 },
  );
  renderer.event(eventFactory()("model.failed", failed({ kind: "rate_limited", status: 429 })));
  assert.equal(
    lines.join(""),
    "rate limited (429) — retrying in 2.0s, attempt 2/10 (Ctrl-C stops)\n",
  );
});

Deno.test("text and tool output cannot send control sequences to the terminal", () => {
  assert.equal(
    stripControls("a\x1b[2Jb\x1b]0;owned\x07c\x1b]8;;http://x\x1b\\d\u009be\x07f"),
    "abcdef",
  );
  assert.equal(stripControls("keep\ttabs\nand lines"), "keep\ttabs\nand lines");
  const { renderer, output } = plainRenderer();
  renderer.text("hello \x1b[31mred\x1b[0m\x1b]2;title\x07 world");
  assert.equal(output(), "hello red world");
  assert.equal(resultSummary("\x1b[1mbold\x1b[0m").head, "bold");
});

Deno.test("thinking shows as one dim, collapsed line", () => {
  const { renderer, output, event } = plainRenderer();
  renderer.event(event(
    "model.responded",
    respondedData([
      { type: "thinking", thinking: "First list the files.", signature: "s" },
      { type: "text", text: "ok" },
    ]),
  ));
  assert.equal(output(), "✻ thought for 4 words\n");
});

Deno.test("an edit shows its change as red and green diff lines, cut at twelve", () => {
  assert.deepEqual(changeLines("edit_file", { old_string: "a\nb", new_string: "c" }), [
    "- a",
    "- b",
    "+ c",
  ]);
  const long = Array.from({ length: 20 }, (_, i) => `line ${i}`).join("\n");
  const lines = changeLines("write_file", { content: long });
  assert.equal(lines.length, 13);
  assert.equal(lines.at(-1), "… 8 more lines");
  assert.deepEqual(changeLines("bash", { command: "ls" }), []);
  const { renderer, output, event } = plainRenderer();
  renderer.event(event("tool.requested", {
    callId: "c1",
    name: "edit_file",
    input: { path: "a.ts", old_string: "x", new_string: "y" },
  }));
  renderer.event(event("tool.completed", completed({ callId: "c1", name: "edit_file" })));
  assert.match(output(), /⎿ .*\n {5}- x\n {5}\+ y\n$/);
});
