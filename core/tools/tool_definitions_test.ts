import assert from "node:assert/strict";
import { createBaseTools } from "./base_tools.ts";
import { inputJsonSchema, loadToolSchema, toolDefinition } from "./schema.ts";
import { isPlainZod } from "./_plain_input.ts";

const snapshotUrl = new URL("./base_tool_definitions.json", import.meta.url);
const updateHint = "If the change is intended, run UPDATE_SNAPSHOTS=1 deno test -A core/tools/ " +
  "and review the diff of the snapshot";

/** Where two texts first differ: line, column and a short excerpt of each around it. */
function firstDifference(expected: string, actual: string): string {
  let index = 0;
  while (index < expected.length && expected[index] === actual[index]) index++;
  const line = expected.slice(0, index).split("\n").length;
  const column = index - expected.lastIndexOf("\n", index - 1);
  const excerpt = (text: string) => JSON.stringify(text.slice(Math.max(0, index - 40), index + 40));
  return `line ${line}, column ${column}:\n  snapshot: ${excerpt(expected)}\n  now:      ${
    excerpt(actual)
  }`;
}

/**
 * The base tools' definitions as their zod schemas give them, not as the tools ship them, and
 * whether each schema says no more than its JSON Schema (`plainInput`: inputs are then checked
 * without zod).
 */
function derivedDefinitions() {
  const tools = createBaseTools({ workspace: "/nonexistent-workspace" });
  return Promise.all(tools.map(async (tool) => {
    const schema = await loadToolSchema(tool);
    return {
      name: tool.name,
      description: tool.description,
      input_schema: inputJsonSchema(schema),
      plainInput: isPlainZod(schema),
    };
  }));
}

Deno.test("the tool definitions the model sees match the committed snapshot", async () => {
  const actual = `${JSON.stringify(await derivedDefinitions(), null, 2)}\n`;
  if (Deno.env.get("UPDATE_SNAPSHOTS") === "1") {
    await Deno.writeTextFile(snapshotUrl, actual);
    return;
  }
  let expected: string;
  try {
    expected = await Deno.readTextFile(snapshotUrl);
  } catch {
    assert.fail(`Missing snapshot ${snapshotUrl.pathname}. ${updateHint}`);
  }
  if (actual !== expected) {
    assert.fail(
      `Tool definitions differ from ${snapshotUrl.pathname} at ${
        firstDifference(expected, actual)
      }\n${updateHint}`,
    );
  }
});

Deno.test("the base tools send the snapshot's definitions, byte for byte what zod gives", async () => {
  const tools = createBaseTools({ workspace: "/nonexistent-workspace" });
  assert.equal(
    JSON.stringify(tools.map(toolDefinition)),
    JSON.stringify(
      (await derivedDefinitions()).map(({ plainInput: _, ...definition }) => definition),
    ),
    updateHint,
  );
});
