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

Deno.test("the file tools never read, write or edit a protected path, but the open folder in it", async () => {
  await using dir = await tempDir();
  await dir.write({ ".rein/events.jsonl": "history\n", ".rein/memory/MEMORY.md": "- note\n" });
  const tools = createBaseTools({
    workspace: dir.path,
    protectedPaths: [join(dir.path, ".rein")],
    openPaths: [join(dir.path, ".rein/memory")],
  });
  const path = ".rein/events.jsonl";
  const write = await tool(tools, "write_file").run({ path, content: "" }, callContext());
  const edit = await tool(tools, "edit_file").run(
    { path, old_string: "history", new_string: "" },
    callContext(),
  );
  const read = await tool(tools, "read_file").run({ path }, callContext());
  for (const result of [write, edit, read]) {
    assert.equal(result.isError, true);
    assert.match(
      result.content,
      /^Refusing to (read|write|edit) "\.rein\/events\.jsonl": it is in/,
    );
  }
  assert.equal(await Deno.readTextFile(join(dir.path, path)), "history\n");
  const memory = ".rein/memory/MEMORY.md";
  assert.deepEqual(await tool(tools, "read_file").run({ path: memory }, callContext()), {
    content: "     1\t- note",
    isError: false,
  });
  const noted = await tool(tools, "edit_file").run(
    { path: memory, old_string: "- note", new_string: "- note\n- another" },
    callContext(),
  );
  assert.equal(noted.isError, false, noted.content);
  assert.equal(await Deno.readTextFile(join(dir.path, memory)), "- note\n- another\n");
});
