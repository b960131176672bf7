import assert from "node:assert/strict";
import { createBaseTools } from "./base_tools.ts";
import { toolDefinition } from "./schema.ts";

const snapshotUrl = new URL("./testdata/tool_definitions.json", import.meta.url);
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

Deno.test("the tool definitions the model sees match the committed snapshot", async () => {
  const definitions = createBaseTools({ workspace: "/nonexistent-workspace" }).map(toolDefinition);
  const actual = `${JSON.stringify(definitions, null, 2)}\n`;
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
