import assert from "node:assert/strict";
import { createBaseTools } from "./base_tools.ts";
import { toolDefinition } from "./tool_schema.ts";

const snapshotUrl = new URL("./testdata/tool_definitions.json", import.meta.url);

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
    assert.fail(
      `Missing snapshot ${snapshotUrl.pathname}; run UPDATE_SNAPSHOTS=1 deno test -A core/tools/`,
    );
  }
  if (actual === expected) return;
  const actualLines = actual.split("\n");
  const expectedLines = expected.split("\n");
  const line = actualLines.findIndex((text, i) => text !== expectedLines[i]);
  assert.fail(
    `Tool definitions differ from ${snapshotUrl.pathname} at line ${line + 1}:\n` +
      `  snapshot: ${expectedLines[line] ?? "(end of file)"}\n` +
      `  now:      ${actualLines[line] ?? "(end of file)"}\n` +
      "If the change is intended, run UPDATE_SNAPSHOTS=1 deno test -A core/tools/ and review the diff.",
  );
});
