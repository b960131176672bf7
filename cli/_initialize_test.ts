import assert from "node:assert/strict";
import { readInitialize } from "./_initialize.ts";

const init = (request: Record<string, unknown>) =>
  JSON.stringify({ type: "control_request", request_id: "r1", request: request });

Deno.test("the SDK's default system prompt (an empty one) keeps rein's; a string replaces it, an append adds", () => {
  assert.deepEqual(readInitialize(init({ subtype: "initialize", systemPrompt: [""] })), {
    notices: [],
  });
  assert.deepEqual(
    readInitialize(init({ subtype: "initialize", systemPrompt: ["Be terse", "Use tabs"] })),
    { systemPrompt: "Be terse\n\nUse tabs", notices: [] },
  );
  assert.deepEqual(readInitialize(init({ subtype: "initialize", appendSystemPrompt: "Brief" })), {
    appendSystemPrompt: "Brief",
    notices: [],
  });
});

Deno.test("fields of initialize rein does not act on are named, empty ones are not", () => {
  const read = readInitialize(init({
    subtype: "initialize",
    hooks: { PreToolUse: [{ matcher: "Bash", hookCallbackIds: ["hook_0"] }] },
    agents: {},
    sdkMcpServers: ["calc"],
  }));
  assert.deepEqual(read?.notices, [
    "Ignored the initialize request's hooks: rein runs the hooks of settings files only, not " +
    "callbacks of the program",
    "Ignored the initialize request's sdkMcpServers: rein runs no in-process " +
    '(type "sdk") MCP servers; give others with --mcp-config',
  ]);
});

Deno.test("a line that is not an initialize request is left alone", () => {
  assert.equal(
    readInitialize('{"type":"user","message":{"role":"user","content":"hi"}}'),
    undefined,
  );
  assert.equal(readInitialize(init({ subtype: "interrupt" })), undefined);
  assert.equal(readInitialize("not json"), undefined);
});
