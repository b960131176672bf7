import assert from "node:assert/strict";
import { join } from "node:path";
import { createBaseTools } from "./base_tools.ts";
import type { AnyTool } from "./tool.ts";
import { callContext, tempDir } from "../../testing/tool_helpers.ts";

function tool(tools: AnyTool[], name: string): AnyTool {
  const found = tools.find((t) => t.name === name);
  if (found === undefined) throw new Error(`No tool "${name}"`);
  return found;
}

Deno.test("the base tools never write into a protected path but may read it", async () => {
  await using dir = await tempDir();
  await dir.write({ ".rein/events.jsonl": "history\n" });
  const tools = createBaseTools({
    workspace: dir.path,
    protectedPaths: [join(dir.path, ".rein")],
  });
  const path = ".rein/events.jsonl";
  const write = await tool(tools, "write_file").run({ path, content: "" }, callContext());
  const edit = await tool(tools, "edit_file").run(
    { path, old_string: "history", new_string: "" },
    callContext(),
  );
  for (const result of [write, edit]) {
    assert.equal(result.isError, true);
    assert.match(result.content, /^Refusing to (write|edit) "\.rein\/events\.jsonl": it is in/);
  }
  assert.deepEqual(await tool(tools, "read_file").run({ path }, callContext()), {
    content: "     1\thistory",
    isError: false,
  });
  assert.equal(await Deno.readTextFile(join(dir.path, path)), "history\n");
});
