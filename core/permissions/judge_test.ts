import assert from "node:assert/strict";
import { suggestRule } from "./judge.ts";

Deno.test("the rule offered for 'don't ask again' is a prefix only where the program is not an interpreter", () => {
  const suggest = (command: string) => suggestRule({ tool: "bash", input: { command } }, "/w");
  assert.equal(suggest("npm test -- --watch"), "Bash(npm test *)");
  assert.equal(suggest("mkdir -p build"), "Bash(mkdir *)");
  assert.equal(suggest("git push origin main"), "Bash(git push *)");
  assert.equal(suggest('bash -c "rm -rf x"'), 'Bash(bash -c "rm -rf x")');
  assert.equal(suggest("node -e 1"), "Bash(node -e 1)");
  assert.equal(suggest("find . -exec rm {} ;"), "Bash(find . -exec rm {} ;)");
  assert.equal(suggest("ls && rm x"), "Bash(ls && rm x)");
  assert.equal(suggest("echo $(id)"), "Bash(echo $\\(id\\))");
  assert.equal(
    suggestRule({ tool: "edit_file", input: { path: "src/a.ts" } }, "/w"),
    "Edit(/src/a.ts)",
  );
});
