/**
 * MCP servers that misbehave: one that hangs at start, one that dies in the middle of a call, one
 * that answers with 10 MB. The session goes on, the model and the log say what happened, and the
 * run replays with `--verify` once the servers are gone.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type FakeScriptFn,
  message,
  type RecordedRequest,
  startFakeAnthropic,
  toolUse,
} from "../testing/fake_anthropic.ts";
import { readLogLines, runCli, tempWorkspace } from "./_cli.ts";

const KEY = "sk-ant-mcp-faults-test";
const DENO_DIR = Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/root", ".cache/deno");
const SERVER = fileURLToPath(new URL("./_mcp_faulty_server.ts", import.meta.url));
const CONFIG = fileURLToPath(new URL("../deno.json", import.meta.url));

/** A program in `dir` that runs the faulty server in `mode`. */
async function faultyProgram(dir: string, name: string, mode: string): Promise<string> {
  const path = join(dir, name);
  await Deno.writeTextFile(
    path,
    `#!/bin/sh\nexec '${Deno.execPath()}' run -A --quiet --config '${CONFIG}' '${SERVER}' ${mode}\n`,
  );
  await Deno.chmod(path, 0o755);
  return path;
}

function scripted(calls: { name: string; input: Record<string, unknown> }[]): FakeScriptFn {
  return (request) => {
    const answered = (request.body?.messages ?? []).filter((m) => m.role === "assistant").length;
    const call = calls[answered];
    return call ? message([toolUse(`toolu_${answered}`, call.name, call.input)]) : message("Done.");
  };
}

function toolResults(requests: readonly RecordedRequest[]): string[] {
  const last = requests.at(-1)?.body?.messages ?? [];
  return (last as readonly { role: string; content: unknown }[]).flatMap((m) =>
    m.role === "user" && Array.isArray(m.content)
      ? m.content.flatMap((block: { type?: string; content?: unknown }) =>
        block.type === "tool_result" ? [String(block.content)] : []
      )
      : []
  );
}

Deno.test("a server that hangs at start, one that dies mid-call, answers 10 MB, changes its tool list or passes its timeout: the session goes on, says what happened, and replays with --verify", async () => {
  await using ws = await tempWorkspace();
  const bin = await Deno.makeTempDir({ prefix: "rein-mcp-bin-" });
  try {
    const stuck = await faultyProgram(bin, "stuck", "hang");
    const faulty = await faultyProgram(bin, "faulty", "tools");
    await using fake = await startFakeAnthropic({
      script: scripted([
        { name: "mcp__faulty__crash", input: {} },
        { name: "mcp__faulty__echo", input: { text: "after the restart" } },
        { name: "mcp__faulty__big", input: { megabytes: 10 } },
        { name: "mcp__faulty__grow", input: {} },
        { name: "mcp__faulty__grown", input: {} },
        { name: "mcp__slow__sleep", input: { seconds: 60 } },
      ]),
    });
    const env = {
      HOME: ws.path,
      DENO_DIR,
      ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_API_KEY: KEY,
      MCP_TIMEOUT: "8000",
    };
    const config = JSON.stringify({
      mcpServers: {
        stuck: { command: stuck },
        faulty: { command: faulty },
        // Its calls time out after 1.5 s (an entry's `timeout`, over MCP_TOOL_TIMEOUT).
        slow: { command: faulty, timeout: 1500 },
      },
    });
    const run = await runCli(
      ["-p", "go", "--mcp-config", config, "--allowedTools", "mcp__faulty mcp__slow"]
        .concat(["--workspace", ws.path]),
      { env },
    );
    assert.equal(run.code, 0, run.stderr);
    const results = toolResults(fake.requests);
    assert.match(
      results[0] ?? "",
      /MCP server "faulty" closed the connection during the call \(faulty server: crashing on purpose\); it is restarted once/,
    );
    assert.equal(results[1], "echo: after the restart");
    // 10 MB are kept in a file; the model (and the log) get the beginning and the path.
    assert.match(
      results[2] ?? "",
      /over MAX_MCP_OUTPUT_TOKENS \(25000 tokens\)\. The whole answer is in \.rein\/outputs\/toolu_2\.txt/,
    );
    assert.ok((results[2] ?? "").length < 3_000);
    // The server said its tool list changed: the next request has the new tool.
    assert.equal(results[4], "the new tool answers");
    assert.match(results[5] ?? "", /^mcp__slow__sleep timed out after 1500 ms/);
    const kept = await Deno.stat(join(ws.path, ".rein", "outputs", "toolu_2.txt"));
    assert.equal(kept.size, 10_000_000);
    const log = await readLogLines(join(ws.path, ".rein", "events.jsonl"));
    const states = log.filter((e) => e.type === "mcp.observed").flatMap((e) =>
      (e.data.servers as { name: string; status: string; reason?: string }[]).map((s) =>
        `${s.name}: ${s.status}${s.reason ? ` (${s.reason})` : ""}`
      )
    );
    assert.ok(states.includes("faulty: connected"), states.join("\n"));
    assert.ok(
      states.includes(
        "stuck: pending (not up after 8 s (MCP_TIMEOUT); its tools join when it is)",
      ),
      states.join("\n"),
    );
    assert.ok(
      states.includes(
        "faulty: connected (restarted after the server exited: faulty server: crashing on purpose)",
      ),
      states.join("\n"),
    );
    await Deno.remove(bin, { recursive: true });
    const replay = await runCli(["replay", "--verify", "--workspace", ws.path], { env });
    assert.equal(replay.code, 0, replay.stdout + replay.stderr);
  } finally {
    await Deno.remove(bin, { recursive: true }).catch(() => {});
  }
});
