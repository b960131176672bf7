import assert from "node:assert/strict";
import { runStatusLine, statusLineSetting } from "./status_line.ts";

Deno.test("statusLineSetting reads Claude Code's command form and names a malformed one", () => {
  assert.equal(statusLineSetting({}), undefined);
  assert.deepEqual(statusLineSetting({ statusLine: { type: "command", command: "x" } }), {
    command: "x",
    padding: 0,
  });
  assert.deepEqual(
    statusLineSetting({ statusLine: { type: "command", command: "x", padding: 2 } }),
    { command: "x", padding: 2 },
  );
  for (const bad of ["x", { type: "static", command: "x" }, { type: "command" }, null, []]) {
    assert.match(
      String(statusLineSetting({ statusLine: bad })),
      /^Invalid settings: "statusLine" must be/,
    );
  }
});

Deno.test("runStatusLine gives the command's first line for Claude Code's JSON, padded; nothing when it fails or hangs", async () => {
  const input = { model: { id: "claude-x" }, session_id: "abc" };
  const cwd = Deno.cwd();
  const read = 'j=$(cat); printf "%s|%s\\nsecond\\n" "$(echo "$j" | jq -r .model.id)" "$PWD"';
  assert.equal(
    await runStatusLine({ command: read, padding: 1 }, input, cwd),
    ` claude-x|${cwd}`,
  );
  assert.equal(await runStatusLine({ command: "exit 3", padding: 0 }, input, cwd), undefined);
  assert.equal(await runStatusLine({ command: "true", padding: 0 }, input, cwd), undefined);
  assert.equal(
    await runStatusLine({ command: "sleep 5; echo late", padding: 0 }, input, cwd, 200),
    undefined,
  );
});
