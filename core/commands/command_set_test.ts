import assert from "node:assert/strict";
import { commandSet, findCommand } from "./command_set.ts";

Deno.test("two plugins with a command of one bare name: each answers only to <plugin>:<name>", () => {
  const files = ["a", "b"].map((plugin) => ({
    source: "commands",
    path: `/p/${plugin}/commands/go.md`,
    text: "Go\n",
    plugin,
  }));
  const commands = commandSet(files, "/ws").items;
  assert.equal(findCommand(commands, "go"), undefined);
  assert.equal(findCommand(commands, "b:go")?.plugin, "b");
});

Deno.test("older logs: a recorded file without a plugin keeps its own name", () => {
  const commands = commandSet(
    [{ source: "commands", path: "/ws/.claude/commands/go.md", text: "Go\n" }],
    "/ws",
  ).items;
  assert.deepEqual(commands.map((c) => [c.name, c.scope]), [["go", "project"]]);
});
