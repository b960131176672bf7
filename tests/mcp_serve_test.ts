import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { message, startFakeAnthropic, toolUse } from "../testing/fake_anthropic.ts";
import { childEnv, runCli, tempWorkspace } from "./_cli.ts";

const LAUNCHER = fileURLToPath(new URL("../cli/launch.sh", import.meta.url));

/** What an MCP tool call answers, as the client sees it. */
interface CallAnswer {
  content: { type: string; text?: string }[];
  isError?: boolean;
}

/** The text of a call's answer. */
function textOf(answer: unknown): string {
  return (answer as CallAnswer).content.map((block) => block.text ?? "").join("");
}

/**
 * `rein mcp serve` started as a user's `.mcp.json` would start it: `sh cli/launch.sh mcp serve
 * --workspace W`, so it runs under the launcher's flags for it.
 */
async function connect(workspace: string, extra: string[] = []) {
  const transport = new StdioClientTransport({
    command: "sh",
    args: [LAUNCHER, "mcp", "serve", "--workspace", workspace, ...extra],
    env: childEnv({ REIN_DENO: Deno.execPath() }),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => stderr += new TextDecoder().decode(chunk));
  const client = new Client({ name: "rein-test", version: "1" });
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    async [Symbol.asyncDispose]() {
      await client.close();
    },
  };
}

/** A log made by a scripted headless run: a task created, a file read, then an answer. */
async function scriptedRun(workspace: string): Promise<string> {
  await Deno.writeTextFile(join(workspace, "notes.txt"), "alpha\nneedle here\n");
  await using fake = await startFakeAnthropic({
    script: [
      message([
        toolUse("toolu_task", "create_task", { subject: "Write the docs" }),
        toolUse("toolu_read", "read_file", { path: "notes.txt" }),
      ]),
      message("Done."),
    ],
  });
  const run = await runCli(["-p", "plan it", "--workspace", workspace], {
    env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-test" },
  });
  assert.equal(run.code, 0, run.stderr);
  return join(workspace, ".rein", "events.jsonl");
}

Deno.test("rein mcp serve: the file tools, confined to the workspace and read-only", async () => {
  await using ws = await tempWorkspace();
  await Deno.mkdir(join(ws.path, "src"));
  await Deno.writeTextFile(join(ws.path, "src", "a.ts"), "export const needle = 1;\n");
  const outside = await Deno.makeTempFile({ prefix: "rein-outside-" });
  await Deno.writeTextFile(outside, "secret\n");
  try {
    await using server = await connect(ws.path);
    const { tools } = await server.client.listTools();
    const names = tools.map((tool: { name: string }) => tool.name).sort();
    assert.deepEqual(names, [
      "glob",
      "grep",
      "read_file",
      "session_state",
      "sessions",
      "task_graph",
      "verify_session",
    ]);
    for (const tool of tools as { annotations?: { readOnlyHint?: boolean } }[]) {
      assert.equal(tool.annotations?.readOnlyHint, true);
    }
    const read = await server.client.callTool({
      name: "read_file",
      arguments: { path: "src/a.ts" },
    });
    assert.equal((read as CallAnswer).isError, false);
    assert.match(textOf(read), /1\texport const needle = 1;/);
    const refused = await server.client.callTool({
      name: "read_file",
      arguments: { path: outside },
    });
    assert.equal((refused as CallAnswer).isError, true);
    assert.match(textOf(refused), /outside the workspace/);
    assert.doesNotMatch(textOf(refused), /secret/);
    const escaped = await server.client.callTool({
      name: "read_file",
      arguments: { path: "../../etc/passwd" },
    });
    assert.equal((escaped as CallAnswer).isError, true);
    const grep = await server.client.callTool({ name: "grep", arguments: { pattern: "needle" } });
    assert.match(textOf(grep), /src\/a\.ts/);
    const glob = await server.client.callTool({ name: "glob", arguments: { pattern: "**/*.ts" } });
    assert.match(textOf(glob), /src\/a\.ts/);
    // No write tool is offered, and an unknown tool is an error, not a write.
    const write = await server.client.callTool({
      name: "write_file",
      arguments: { path: "x.txt", content: "x" },
    }).catch((error: Error) => ({
      content: [{ type: "text", text: error.message }],
      isError: true,
    }));
    assert.equal((write as CallAnswer).isError, true);
    assert.equal(await Deno.stat(join(ws.path, "x.txt")).then(() => true, () => false), false);
  } finally {
    await Deno.remove(outside);
  }
});

Deno.test("rein mcp serve: the log as tools and resources, never written", async () => {
  await using ws = await tempWorkspace();
  const log = await scriptedRun(ws.path);
  const before = await Deno.readTextFile(log);
  const logFiles = () => [...Deno.readDirSync(join(ws.path, ".rein"))].map((e) => e.name).sort();
  const filesBefore = await logFiles();
  {
    await using server = await connect(ws.path);
    const sessions = JSON.parse(textOf(await server.client.callTool({ name: "sessions" })));
    assert.equal(sessions.length, 1);
    const id: string = sessions[0].id;
    assert.equal(sessions[0].firstPrompt, "plan it");
    const cli = await runCli(["sessions", "--json", "--workspace", ws.path]);
    assert.deepEqual(sessions, JSON.parse(cli.stdout));

    const state = await server.client.callTool({
      name: "session_state",
      arguments: { session: id.slice(0, 8) },
    });
    assert.equal((state as CallAnswer).isError, false, textOf(state));
    const cliState = await runCli(["state", "--json", "--session", id, "--workspace", ws.path]);
    assert.deepEqual(JSON.parse(textOf(state)), JSON.parse(cliState.stdout));
    const early = await server.client.callTool({
      name: "session_state",
      arguments: { session: id, at: 1 },
    });
    const cliEarly = await runCli([
      "state",
      "--json",
      "--session",
      id,
      "--at",
      "1",
      "--workspace",
      ws.path,
    ]);
    assert.deepEqual(JSON.parse(textOf(early)), JSON.parse(cliEarly.stdout));
    assert.notDeepEqual(JSON.parse(textOf(early)), JSON.parse(textOf(state)));

    const tasks = await server.client.callTool({ name: "task_graph", arguments: {} });
    assert.match(textOf(tasks), /Write the docs/);

    const verified = await server.client.callTool({
      name: "verify_session",
      arguments: { session: id },
    });
    assert.equal((verified as CallAnswer).isError, false, textOf(verified));
    const unknown = await server.client.callTool({
      name: "verify_session",
      arguments: { session: "ffffffff" },
    });
    assert.equal((unknown as CallAnswer).isError, true);

    const { resources } = await server.client.listResources();
    const uris = resources.map((r: { uri: string }) => r.uri).sort();
    assert.deepEqual(uris, [`rein://session/${id}/state`, "rein://sessions"].sort());
    const listed = await server.client.readResource({ uri: "rein://sessions" });
    assert.deepEqual(JSON.parse(listed.contents[0].text), sessions);
    const stateResource = await server.client.readResource({ uri: `rein://session/${id}/state` });
    assert.deepEqual(JSON.parse(stateResource.contents[0].text), JSON.parse(cliState.stdout));
  }
  assert.equal(await Deno.readTextFile(log), before, "the log was written");
  assert.deepEqual(await logFiles(), filesBefore, "a file appeared beside the log");
});

Deno.test("rein mcp serve runs under narrow flags: no write, no net, reads only its folders", async () => {
  await using ws = await tempWorkspace();
  const result = new Deno.Command("sh", {
    args: [LAUNCHER, "mcp", "serve", "--workspace", ws.path, "--show-permissions"],
    env: { ...childEnv(), REIN_DENO: Deno.execPath(), XDG_STATE_HOME: "/nowhere/state" },
  }).outputSync();
  const flags = new TextDecoder().decode(result.stdout).trim().split("\n");
  assert.deepEqual(flags, [
    `--allow-read=${ws.path},${ws.path}/.rein,/nowhere/state/rein`,
    "--allow-run=rg",
    "--allow-env=REIN_CALLER_DIR,NO_COLOR,HOME,XDG_STATE_HOME",
    "--no-prompt",
  ]);
});

Deno.test("another rein uses rein's record: rein mcp serve as an MCP server of a rein -p run, which replays with --verify", async () => {
  await using recorded = await tempWorkspace();
  await scriptedRun(recorded.path);
  const sessions = await runCli(["sessions", "--json", "--workspace", recorded.path]);
  const id: string = JSON.parse(sessions.stdout)[0].id;
  await using ws = await tempWorkspace();
  const config = JSON.stringify({
    mcpServers: {
      rein: { command: "sh", args: [LAUNCHER, "mcp", "serve", "--workspace", recorded.path] },
    },
  });
  const calls = [
    { name: "mcp__rein__sessions", input: {} },
    { name: "mcp__rein__read_file", input: { path: "notes.txt" } },
    { name: "mcp__rein__verify_session", input: { session: id } },
  ];
  await using fake = await startFakeAnthropic({
    script: (request) => {
      const answered = (request.body?.messages ?? []).filter((m) => m.role === "assistant").length;
      const call = calls[answered];
      return call
        ? message([toolUse(`toolu_${answered}`, call.name, call.input)])
        : message("Done.");
    },
  });
  const run = await runCli(["-p", "look", "--mcp-config", config, "--workspace", ws.path], {
    env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-test" },
  });
  assert.equal(run.code, 0, run.stderr);
  const tools = (fake.requests[0]?.body?.tools ?? []).map((tool: { name: string }) => tool.name);
  assert.ok(tools.includes("mcp__rein__session_state"), tools.join(" "));
  const last = fake.requests.at(-1)?.body?.messages ?? [];
  const results = (last as { role: string; content: unknown }[]).flatMap((m) =>
    m.role === "user" && Array.isArray(m.content)
      ? m.content.flatMap((block: { type?: string; content?: unknown; is_error?: boolean }) =>
        block.type === "tool_result"
          ? [`${block.is_error ? "ERROR " : ""}${JSON.stringify(block.content)}`]
          : []
      )
      : []
  );
  assert.equal(results.length, 3, results.join("\n"));
  assert.match(results[0] ?? "", new RegExp(id));
  assert.match(results[1] ?? "", /needle here/);
  assert.match(results[2] ?? "", /all match the log/);
  assert.ok(results.every((r) => !r.startsWith("ERROR")), results.join("\n"));
  const replay = await runCli(["replay", "--verify", "--quiet", "--workspace", ws.path]);
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});
