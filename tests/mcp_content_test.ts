/**
 * MCP results that are more than text, end to end against the real server-everything: its image
 * and its embedded resources reach the model as content blocks, are recorded with the call, and
 * the run replays with `--verify` (the same requests rebuilt from the log) once the server's
 * program is gone.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type FakeScriptFn,
  message,
  startFakeAnthropic,
  toolUse,
} from "../testing/fake_anthropic.ts";
import { readLogLines, runCli, tempWorkspace } from "./_cli.ts";

const KEY = "sk-ant-mcp-content-test";
const DENO_DIR = Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/root", ".cache/deno");
const EVERYTHING = "npm:@modelcontextprotocol/server-everything@2026.8.31";

/** A program in `dir` that runs server-everything through Deno, removable to make it absent. */
async function everythingProgram(dir: string): Promise<string> {
  await new Deno.Command(Deno.execPath(), {
    args: ["cache", "--quiet", "--no-lock", EVERYTHING],
    stdout: "null",
    stderr: "inherit",
  }).output();
  const path = join(dir, "everything");
  await Deno.writeTextFile(
    path,
    `#!/bin/sh\nexec '${Deno.execPath()}' run -A --quiet --no-lock ${EVERYTHING} stdio "$@"\n`,
  );
  await Deno.chmod(path, 0o755);
  return path;
}

/** A model that calls `calls` one round each, then says it is done. */
function scripted(calls: { name: string; input: Record<string, unknown> }[]): FakeScriptFn {
  return (request) => {
    const answered = (request.body?.messages ?? []).filter((m) => m.role === "assistant").length;
    const call = calls[answered];
    return call ? message([toolUse(`toolu_${answered}`, call.name, call.input)]) : message("Done.");
  };
}

type Block = { type: string; text?: string; source?: Record<string, string> };

/** The content of each tool_result of a request, in order. */
function resultContents(
  body: { messages?: readonly { role: string; content: unknown }[] } | undefined,
) {
  return (body?.messages ?? []).flatMap((m) =>
    m.role === "user" && Array.isArray(m.content)
      ? (m.content as { type: string; content?: unknown }[]).flatMap((block) =>
        block.type === "tool_result" ? [block.content] : []
      )
      : []
  );
}

Deno.test("server-everything's image and embedded resources reach the model as content blocks, in stream-json and a PostToolUse hook too, and the run replays with --verify once the server is gone", async () => {
  const home = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-mcp-content-home-" }));
  await using ws = await tempWorkspace();
  try {
    const bin = await everythingProgram(home);
    await Deno.mkdir(join(ws.path, ".claude"));
    await Deno.writeTextFile(
      join(ws.path, ".claude", "settings.json"),
      JSON.stringify({
        hooks: {
          PostToolUse: [{
            matcher: "mcp__everything__.*",
            hooks: [{
              type: "command",
              command: `jq -c .tool_response >> '${ws.path}/responses.jsonl'`,
            }],
          }],
        },
      }),
    );
    await using fake = await startFakeAnthropic({
      script: scripted([
        { name: "mcp__everything__get-tiny-image", input: {} },
        {
          name: "mcp__everything__get-resource-reference",
          input: { resourceType: "Text", resourceId: 1 },
        },
        {
          name: "mcp__everything__get-resource-reference",
          input: { resourceType: "Blob", resourceId: 2 },
        },
        { name: "mcp__everything__echo", input: { message: "plain" } },
        { name: "mcp__everything__get-resource-links", input: { count: 1 } },
      ]),
    });
    const env = { HOME: home, DENO_DIR, ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
    const config = JSON.stringify({ mcpServers: { everything: { command: bin } } });
    const run = await runCli([
      "-p",
      "show me",
      "--trust",
      "--mcp-config",
      config,
      "--output-format",
      "stream-json",
      "--verbose",
      "--workspace",
      ws.path,
    ], { env });
    assert.equal(run.code, 0, run.stderr);

    const [image, text, blob, echo, links] = resultContents(fake.requests.at(-1)?.body) as [
      Block[],
      Block[],
      Block[],
      string,
      Block[],
    ];
    // The image between the server's two texts, as an image block of the Messages API.
    assert.deepEqual(image.map((b) => b.type), ["text", "image", "text"], JSON.stringify(image));
    assert.equal(image[0]?.text, "Here's the image you requested:");
    assert.equal(image[1]?.source?.type, "base64");
    assert.equal(image[1]?.source?.media_type, "image/png");
    assert.match(image[1]?.source?.data ?? "", /^iVBORw0KGgo[A-Za-z0-9+/]{100,}=*$/);
    // The embedded text resource as a text block naming its server and URI.
    assert.deepEqual(text.map((b) => b.type), ["text", "text", "text"]);
    assert.match(
      text[1]?.text ?? "",
      /^\[Resource from everything at demo:\/\/resource\/dynamic\/text\/1\] Resource 1: This is a plaintext resource/,
    );
    // A blob that is not an image is a line naming it.
    assert.match(
      blob[1]?.text ?? "",
      /^\[Resource from everything at demo:\/\/resource\/dynamic\/blob\/2: text\/plain, \d+ B, binary, not shown\]$/,
    );
    // A text result is the string it always was.
    assert.equal(echo, "Echo: plain");
    // A resource link is a line naming it, in Claude Code's words.
    assert.equal(
      links[1]?.text,
      "[Resource link: Blob Resource 1] demo://resource/dynamic/blob/1 (Resource 1: plaintext resource)",
    );

    // Recorded with the call: the blocks, and the text people read.
    const log = await readLogLines(join(ws.path, ".rein", "events.jsonl"));
    const completed = log.filter((e) => e.type === "tool.completed").map((e) => e.data);
    assert.deepEqual(completed[0]?.blocks, image);
    assert.equal(
      completed[0]?.content,
      "Here's the image you requested:\n[image image/png 4 KB]\nThe image above is the MCP logo.",
    );
    assert.equal(completed[3]?.blocks, undefined);

    // stream-json's user line carries the blocks, as `claude -p` prints them.
    const lines = run.stdout.trim().split("\n").map((line) => JSON.parse(line));
    const user = lines.find((line) =>
      line.type === "user" && line.message.content[0]?.tool_use_id === "toolu_0"
    );
    assert.deepEqual(user?.message.content[0]?.content, image);

    // The PostToolUse hook got the blocks as tool_response; a text result, the text.
    const responses = (await Deno.readTextFile(join(ws.path, "responses.jsonl"))).trim()
      .split("\n").map((line) => JSON.parse(line));
    assert.deepEqual(responses[0], image);
    assert.equal(responses[3], "Echo: plain");

    // Replay rebuilds every request (their digests include the image) from the log alone.
    await Deno.remove(bin);
    const replay = await runCli(["replay", "--verify", "--workspace", ws.path], { env });
    assert.equal(replay.code, 0, replay.stdout + replay.stderr);
    assert.match(replay.stdout, /\[image image\/png 4 KB\]/);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
