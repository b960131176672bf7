/**
 * `@server:uri` in a prompt attaches that MCP resource, as Claude Code does (REPL and `-p`): read
 * from the server before the prompt runs, recorded (`mcp.attached`), and put after the prompt in
 * its user message ("Full contents of resource:" …); a mention that cannot be read is left out
 * with a one-line note and the prompt goes without it; a resource over MAX_MCP_OUTPUT_TOKENS is
 * kept in a file and the model gets its beginning and the path. Against the real
 * `@modelcontextprotocol/server-everything`; each run replays with `--verify` once it is gone.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Envelope } from "../events/event_types.ts";
import { message, type RecordedRequest, startFakeAnthropic } from "../testing/fake_anthropic.ts";
import { runCli, tempWorkspace } from "./_cli.ts";

const KEY = "sk-ant-mcp-attach";
const DENO_DIR = Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/root", ".cache/deno");
const EVERYTHING = "npm:@modelcontextprotocol/server-everything@2026.8.31";
const DOC = "demo://resource/static/document/architecture.md";

const warmed = new Deno.Command(Deno.execPath(), {
  args: ["cache", "--quiet", "--no-lock", EVERYTHING],
  stdout: "null",
  stderr: "inherit",
}).output();

/** A home of its own with the server's program in it (removed: the server is gone). */
async function place(): Promise<
  { home: string; bin: string; env: Record<string, string> } & AsyncDisposable
> {
  await warmed;
  const home = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-mcp-attach-" }));
  const bin = join(home, "everything");
  await Deno.writeTextFile(
    bin,
    `#!/bin/sh\nexec '${Deno.execPath()}' run -A --quiet --no-lock ${EVERYTHING} stdio "$@"\n`,
  );
  await Deno.chmod(bin, 0o755);
  return {
    home,
    bin,
    env: { HOME: home, DENO_DIR },
    async [Symbol.asyncDispose]() {
      await Deno.remove(home, { recursive: true });
    },
  };
}

/** The text blocks of the first request's user message. */
function firstUserBlocks(requests: readonly RecordedRequest[]): string[] {
  const first = requests[0]?.body?.messages[0];
  if (first === undefined) return [];
  if (typeof first.content === "string") return [first.content];
  return first.content.flatMap((block) => block.type === "text" ? [String(block.text)] : []);
}

async function readLog(ws: string): Promise<Envelope[]> {
  const text = await Deno.readTextFile(join(ws, ".rein", "events.jsonl"));
  return text.trim().split("\n").map((line) => JSON.parse(line) as Envelope);
}

/** The architecture document as the server serves it. */
async function documentText(bin: string): Promise<string> {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const client = new Client({ name: "test", version: "1" });
  await client.connect(new StdioClientTransport({ command: bin }));
  try {
    const read = await client.readResource({ uri: DOC });
    return String((read.contents[0] as { text?: string }).text);
  } finally {
    await client.close();
  }
}

Deno.test("rein -p attaches @everything:<uri> after the prompt in its user message (Claude Code's text), records it, and replays with --verify once the server is gone", async () => {
  await using at = await place();
  await using ws = await tempWorkspace();
  await using fake = await startFakeAnthropic({ script: () => message("Read it.") });
  const env = { ...at.env, ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const config = JSON.stringify({ mcpServers: { everything: { command: at.bin } } });
  const prompt = `Summarise @everything:${DOC}.`;
  const run = await runCli(["-p", prompt, "--mcp-config", config, "--workspace", ws.path], {
    env,
  });
  assert.equal(run.code, 0, run.stderr);
  const expected = await documentText(at.bin);
  assert.ok(expected.length > 100);
  const blocks = firstUserBlocks(fake.requests);
  assert.deepEqual(blocks, [
    prompt,
    `Full contents of resource:\n${expected}\nDo NOT read this resource again unless you think ` +
    "it may have changed, since you already have the full contents.",
  ]);
  const log = await readLog(ws.path);
  const attached = log.find((e) => e.type === "mcp.attached");
  assert.deepEqual(
    [attached?.data.server, attached?.data.uri, attached?.agent],
    ["everything", DOC, "lead"],
  );
  const injected = log.find((e) => e.type === "arrival.injected");
  assert.deepEqual([injected?.data.source, injected?.data.key], ["mcp", String(attached?.seq)]);

  await Deno.remove(at.bin);
  const replay = await runCli(["replay", "--verify", "--workspace", ws.path], { env });
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

Deno.test("in the REPL, a mention of a server that is not configured and one of an unknown resource are each left out with a one-line note, the readable one is attached, and the prompt is sent", async () => {
  await using at = await place();
  await using ws = await tempWorkspace();
  await using fake = await startFakeAnthropic({ script: () => message("Done.") });
  const env = { ...at.env, ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const config = JSON.stringify({ mcpServers: { everything: { command: at.bin } } });
  const prompt =
    `Compare @nope:demo://x with @everything:demo://no/such/thing and @everything:${DOC}`;
  const run = await runCli(["--mcp-config", config, "--workspace", ws.path], {
    env,
    stdin: `${prompt}\n/exit\n`,
  });
  assert.equal(run.code, 0, run.stderr);
  const output = run.stdout + run.stderr;
  assert.match(
    output,
    /@nope:demo:\/\/x is not attached: no MCP server "nope" is configured\n/,
  );
  assert.match(
    output,
    /@everything:demo:\/\/no\/such\/thing is not attached: "everything" cannot read it \(.+\)\n/,
  );
  const blocks = firstUserBlocks(fake.requests);
  assert.equal(blocks.length, 2, JSON.stringify(blocks).slice(0, 500));
  assert.equal(blocks[0], prompt);
  assert.match(blocks[1] ?? "", /^Full contents of resource:\n/);
  const log = await readLog(ws.path);
  assert.deepEqual(
    log.filter((e) => e.type === "mcp.attached").map((e) => e.data.uri),
    [DOC],
  );
  await Deno.remove(at.bin);
  const replay = await runCli(["replay", "--verify", "--workspace", ws.path], { env });
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

Deno.test("a resource over MAX_MCP_OUTPUT_TOKENS is kept in .rein/outputs/ and the model gets its beginning and the file's path, as a large tool output", async () => {
  await using at = await place();
  await using ws = await tempWorkspace();
  await using fake = await startFakeAnthropic({ script: () => message("Done.") });
  const env = {
    ...at.env,
    ANTHROPIC_BASE_URL: fake.url,
    ANTHROPIC_API_KEY: KEY,
    MAX_MCP_OUTPUT_TOKENS: "100",
  };
  const config = JSON.stringify({ mcpServers: { everything: { command: at.bin } } });
  const run = await runCli(
    ["-p", `Read @everything:${DOC}`, "--mcp-config", config, "--workspace", ws.path],
    { env },
  );
  assert.equal(run.code, 0, run.stderr);
  const attachedText = firstUserBlocks(fake.requests)[1] ?? "";
  const path = /The whole of it is in (\.rein\/outputs\/mcp-resource-[0-9a-f-]+\.txt)/.exec(
    attachedText,
  )?.[1];
  assert.ok(path, attachedText.slice(-400));
  assert.match(attachedText, /over MAX_MCP_OUTPUT_TOKENS \(100 tokens\)/);
  const whole = await Deno.readTextFile(join(ws.path, path));
  assert.ok(whole.includes(await documentText(at.bin)));
  assert.ok(attachedText.length < whole.length);
  const log = await readLog(ws.path);
  assert.equal(log.find((e) => e.type === "mcp.attached")?.data.spilled, path);
  await Deno.remove(at.bin);
  const replay = await runCli(["replay", "--verify", "--workspace", ws.path], { env });
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});
