import assert from "node:assert/strict";
import { z } from "zod";
import { callContext } from "../../testing/tool_helpers.ts";
import { executeCall } from "./executor.ts";
import type { AnyTool, ToolResult } from "./tool.ts";

function fakeTool(result: ToolResult | Error): AnyTool {
  return {
    name: "fake",
    description: "A tool for tests",
    schema: z.object({ path: z.string() }),
    kind: "effect",
    readOnly: false,
    summarize: (input: { path: string }) => input.path,
    run: () => result instanceof Error ? Promise.reject(result) : Promise.resolve(result),
  };
}

const call = { id: "toolu_1", name: "fake", input: { path: "a.txt" } };
let now = 0;
const clock = () => (now += 5);

function cancelled(): AbortSignal {
  const controller = new AbortController();
  controller.abort();
  return controller.signal;
}

Deno.test("a call that finished as the user pressed Ctrl-C is recorded as done, not cancelled", async () => {
  const tools = new Map([["fake", fakeTool({ content: "Wrote a.txt" })]]);
  const run = await executeCall(call, tools, callContext(cancelled()), clock);
  assert.deepEqual(run.completed, {
    callId: "toolu_1",
    name: "fake",
    content: "Wrote a.txt",
    isError: false,
    durationMs: 5,
  });
});

Deno.test("a call the tool stopped for the cancel is recorded as cancelled", async () => {
  const tools = new Map([[
    "fake",
    fakeTool({ content: "Stopped", isError: true, cancelled: true }),
  ]]);
  const run = await executeCall(call, tools, callContext(cancelled()), clock);
  assert.equal(run.completed.outcome, "cancelled");
  assert.equal(run.completed.isError, true);
});

Deno.test("a tool's events are stamped with the calling session and agent", async () => {
  const tools = new Map([[
    "fake",
    fakeTool({ content: "ok", events: [{ type: "user.prompted", data: { text: "x" } }] }),
  ]]);
  const context = { ...callContext(), session: "s9", agent: "helper" };
  const run = await executeCall(call, tools, context, clock);
  assert.deepEqual(run.events, [
    { type: "user.prompted", data: { text: "x" }, session: "s9", agent: "helper" },
  ]);
});

Deno.test("an unknown tool, a bad input and a throwing tool come back as error results", async () => {
  const tools = new Map([["fake", fakeTool(new Error("disk full"))]]);
  const unknown = await executeCall({ ...call, name: "nope" }, tools, callContext(), clock);
  assert.equal(unknown.completed.content, 'Unknown tool "nope". Available tools: fake');
  const bad = await executeCall({ ...call, input: { path: 3 } }, tools, callContext(), clock);
  assert.equal(bad.completed.content, 'Invalid input for fake: "path" must be a string');
  const thrown = await executeCall(call, tools, callContext(), clock);
  assert.equal(thrown.completed.content, "Tool fake failed: disk full");
  for (const run of [unknown, bad, thrown]) assert.equal(run.completed.isError, true);
});

Deno.test("a tool that returns an event only the loop records fails instead of recording it", async () => {
  const tools = new Map([[
    "fake",
    fakeTool({
      content: "ok",
      events: [{
        type: "tool.completed",
        data: { callId: "toolu_1", name: "fake", content: "x", isError: false, durationMs: 0 },
      }],
    }),
  ]]);
  const run = await executeCall(call, tools, callContext(), clock);
  assert.deepEqual(run.events, []);
  assert.equal(run.completed.isError, true);
  assert.match(
    run.completed.content,
    /returned a tool\.completed event, which only the loop records/,
  );
});
