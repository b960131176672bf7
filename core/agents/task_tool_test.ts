import assert from "node:assert/strict";
import { inputJsonSchema, toolDefinition } from "../tools/schema.ts";
import { BUILT_IN_AGENTS } from "./built_in_agents.ts";
import { createTaskTool, TASK_INPUT_SCHEMA } from "./task_tool.ts";

const tool = createTaskTool(BUILT_IN_AGENTS);

Deno.test("the JSON Schema task ships is the one its zod schema gives", async () => {
  const schema = await (tool.schema as () => Promise<Parameters<typeof inputJsonSchema>[0]>)();
  assert.deepEqual(TASK_INPUT_SCHEMA, inputJsonSchema(schema));
  assert.deepEqual(toolDefinition(tool).input_schema, TASK_INPUT_SCHEMA);
});

Deno.test("task is composite and runs at once with the other calls of its answer", () => {
  assert.equal(tool.kind, "composite");
  assert.equal(tool.concurrent, true);
  assert.equal(tool.readOnly, false);
  assert.match(tool.description, /- Explore: .*\(Tools: read_file, glob, grep\)/);
});

Deno.test("task outside a loop that can drive agents is an error for the model", async () => {
  const result = await tool.run({ description: "d", prompt: "p" }, {
    signal: new AbortController().signal,
    session: "s",
    agent: "lead",
    callId: "toolu_1",
    cwd: "/",
    view: () => {
      throw new Error("not read");
    },
  });
  assert.equal(result.isError, true);
  assert.match(result.content, /^Subagents cannot run here/);
});
