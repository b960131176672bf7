/**
 * MCP servers end to end, against real servers from npm (`@modelcontextprotocol/server-everything`
 * and `server-filesystem`, run with Deno's `npm:`): configured as Claude Code configures them,
 * their tools called by the model, everything recorded, and each run replayed with `--verify`
 * once the server's program is gone.
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
import { CLI, readLogLines, runCli, tempWorkspace } from "./_cli.ts";
import { type Screen, shellQuote, Terminal } from "./_tmux.ts";

const KEY = "sk-ant-mcp-test";
const DENO_DIR = Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/root", ".cache/deno");
const EVERYTHING = "npm:@modelcontextprotocol/server-everything@2026.8.31";
const FILESYSTEM = "npm:@modelcontextprotocol/server-filesystem@2026.8.31";

/**
 * The servers' npm packages in Deno's cache before a test starts one, so that a first run's
 * download is not counted in a server's start.
 */
const warmed = new Deno.Command(Deno.execPath(), {
  // Without the repository's lock file: the servers are the test's, not rein's dependencies.
  args: ["cache", "--quiet", "--no-lock", EVERYTHING, FILESYSTEM],
  stdout: "null",
  stderr: "inherit",
}).output();

/** A home of its own (no ~/.claude.json of the machine's), with Deno's cache where it is. */
async function tempHome(): Promise<
  { path: string; env: Record<string, string> } & AsyncDisposable
> {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-mcp-home-" }));
  return {
    path,
    env: { HOME: path, DENO_DIR },
    async [Symbol.asyncDispose]() {
      await Deno.remove(path, { recursive: true });
    },
  };
}

/**
 * A program in `dir` that runs an npm server through Deno (so removing it leaves the server's
 * command absent, as on a machine where it is not installed).
 */
async function serverProgram(dir: string, name: string, spec: string, args: string[]) {
  await warmed;
  const path = join(dir, name);
  const quoted = args.map((arg) => `'${arg}'`).join(" ");
  await Deno.writeTextFile(
    path,
    `#!/bin/sh\nexec '${Deno.execPath()}' run -A --quiet --no-lock ${spec} ${quoted} "$@"\n`,
  );
  await Deno.chmod(path, 0o755);
  return path;
}

/** A model that calls `calls` one round each, then answers with what the last result said. */
function scripted(calls: { name: string; input: Record<string, unknown> }[]): FakeScriptFn {
  return (request) => {
    const messages = request.body?.messages ?? [];
    const answered = messages.filter((m) => m.role === "assistant").length;
    const call = calls[answered];
    if (call) return message([toolUse(`toolu_${answered}`, call.name, call.input)]);
    return message("Done.");
  };
}

/** The text of every tool_result the model was sent, in order. */
function toolResults(requests: readonly RecordedRequest[]) {
  const last = requests.at(-1)?.body?.messages ?? [];
  return (last as readonly { role: string; content: unknown }[]).flatMap((m) =>
    m.role === "user" && Array.isArray(m.content)
      ? m.content.flatMap((block: { type?: string; content?: unknown }) =>
        block.type === "tool_result"
          ? [typeof block.content === "string" ? block.content : JSON.stringify(block.content)]
          : []
      )
      : []
  );
}

Deno.test("server-everything over stdio from --mcp-config: a prompt runs as /mcp__everything__args-prompt, its tools reach the model as mcp__everything__*, a call's result comes back, and the run replays with --verify once the server is gone", async () => {
  await using home = await tempHome();
  await using ws = await tempWorkspace();
  const bin = await serverProgram(home.path, "everything", EVERYTHING, ["stdio"]);
  await using fake = await startFakeAnthropic({
    script: scripted([
      { name: "mcp__everything__get-sum", input: { a: 2, b: 3 } },
      { name: "mcp__everything__get-sum", input: { a: "two" } },
      { name: "mcp__everything__get-tiny-image", input: {} },
      { name: "list_mcp_resources", input: { server: "everything" } },
    ]),
  });
  const env = { ...home.env, ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const config = JSON.stringify({ mcpServers: { everything: { command: bin } } });
  // The prompt is one of the server's prompts, as a slash command: its text is what runs.
  const prompt = "/mcp__everything__args-prompt Paris IDF";
  const run = await runCli(["-p", prompt, "--mcp-config", config, "--workspace", ws.path], { env });
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    JSON.stringify(fake.requests[0]?.body?.messages[0]),
    /What's weather in Paris, IDF\?/,
  );
  const first = fake.requests[0]?.body?.tools?.map((tool) => tool.name) ?? [];
  assert.ok(first.includes("mcp__everything__get-sum"), first.join(" "));
  assert.ok(first.includes("mcp__everything__echo"), first.join(" "));
  assert.ok(first.includes("list_mcp_resources") && first.includes("read_mcp_resource"));
  const results = toolResults(fake.requests);
  assert.equal(results[0], "The sum of 2 and 3 is 5.", JSON.stringify(results));
  // The server's JSON Schema is checked before the call reaches the gate or the server.
  assert.match(
    results[1] ?? "",
    /Invalid input for mcp__everything__get-sum: .*"a" must be a number/,
  );
  // An image reaches the model as an image block (tests/mcp_content_test.ts has the rest).
  assert.match(
    results[2] ?? "",
    /"type":"image","source":\{"type":"base64","media_type":"image\/png","data":"iVBOR/,
  );
  assert.match(results[3] ?? "", /"uri": "demo:\/\/resource\/static\/document\/architecture\.md"/);
  assert.match(results[3] ?? "", /"server": "everything"/);
  const log = await readLogLines(join(ws.path, ".rein", "events.jsonl"));
  // Tools the server marks readOnlyHint run without asking, as read-only tools do; the call
  // with a bad input never reached the gate.
  const decided = log.filter((e) => e.type === "permission.decided");
  assert.deepEqual(decided.map((e) => [e.data.tool, (e.data.source as { kind: string }).kind]), [
    ["mcp__everything__get-sum", "read_only"],
    ["mcp__everything__get-tiny-image", "read_only"],
    ["list_mcp_resources", "read_only"],
  ]);
  const configured = log.find((e) => e.type === "mcp.configured");
  assert.deepEqual(configured?.data, {
    servers: [{
      name: "everything",
      scope: "dynamic",
      transport: "stdio",
      target: bin,
      enabled: true,
    }],
  });
  const observed = log.find((e) => e.type === "mcp.observed");
  const states = observed?.data.servers as { name: string; status: string; tools: unknown[] }[];
  assert.equal(states[0]?.status, "connected");
  assert.ok(states[0]!.tools.length > 5);
  // Recorded before the first request: the pool of that request is folded from it.
  const requested = log.findIndex((e) => e.type === "model.requested");
  assert.ok(log.indexOf(observed!) < requested);

  await Deno.remove(bin);
  const replay = await runCli(["replay", "--verify", "--workspace", ws.path], { env });
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

Deno.test("server-filesystem from a trusted folder's .mcp.json (${VAR} expanded): a read-only tool runs without asking, a write runs under an mcp__fs rule, an mcp__fs__.* hook sees both, a resume observes the same tools without recording them again, and the runs replay with --verify once the server is gone", async () => {
  await using home = await tempHome();
  await using ws = await tempWorkspace();
  const bin = await serverProgram(home.path, "filesystem", FILESYSTEM, []);
  await Deno.writeTextFile(join(ws.path, "notes.txt"), "hello from the workspace\n");
  // A PreToolUse hook matching MCP tools by Claude Code's regex, as a trusted folder sets it.
  await Deno.mkdir(join(ws.path, ".claude"));
  await Deno.writeTextFile(
    join(ws.path, ".claude", "settings.json"),
    JSON.stringify({
      hooks: {
        PreToolUse: [{
          matcher: "mcp__fs__.*",
          hooks: [{ type: "command", command: `jq -r .tool_name >> '${ws.path}/hooked.txt'` }],
        }],
      },
    }),
  );
  await Deno.writeTextFile(
    join(ws.path, ".mcp.json"),
    JSON.stringify({ mcpServers: { fs: { command: bin, args: ["${MCP_TEST_DIR}"] } } }),
  );
  await using fake = await startFakeAnthropic({
    script: scripted([
      { name: "mcp__fs__read_text_file", input: { path: join(ws.path, "notes.txt") } },
      {
        name: "mcp__fs__write_file",
        input: { path: join(ws.path, "out.txt"), content: "written by the server" },
      },
    ]),
  });
  const env = {
    ...home.env,
    ANTHROPIC_BASE_URL: fake.url,
    ANTHROPIC_API_KEY: KEY,
    MCP_TEST_DIR: ws.path,
  };
  const run = await runCli(
    ["-p", "go", "--trust", "--allowedTools", "mcp__fs", "--workspace", ws.path],
    { env },
  );
  assert.equal(run.code, 0, run.stderr);
  const results = toolResults(fake.requests);
  assert.match(results[0] ?? "", /hello from the workspace/);
  assert.match(results[1] ?? "", /Successfully wrote/);
  assert.equal(await Deno.readTextFile(join(ws.path, "out.txt")), "written by the server");
  assert.equal(
    await Deno.readTextFile(join(ws.path, "hooked.txt")),
    "mcp__fs__read_text_file\nmcp__fs__write_file\n",
  );
  const log = await readLogLines(join(ws.path, ".rein", "events.jsonl"));
  const configured = log.find((e) => e.type === "mcp.configured");
  const [entry] = configured?.data.servers as { scope: string; target: string }[];
  assert.equal(entry?.scope, "project");
  assert.equal(entry?.target, `${bin} ${ws.path}`);
  const decided = log.filter((e) => e.type === "permission.decided").map((e) => e.data.source);
  assert.deepEqual(decided.map((s) => (s as { kind: string }).kind), ["rule", "rule"]);

  // Resumed by another process: the servers start again and their tools are observed again, but
  // the same lists are not recorded twice; the resumed request has the tools.
  const again = await runCli(
    ["--continue", "-p", "again", "--trust", "--allowedTools", "mcp__fs", "--workspace", ws.path],
    { env },
  );
  assert.equal(again.code, 0, again.stderr);
  const resumedLog = await readLogLines(join(ws.path, ".rein", "events.jsonl"));
  assert.ok(resumedLog.some((e) => e.type === "session.resumed"));
  assert.equal(resumedLog.filter((e) => e.type === "mcp.observed").length, 1);
  assert.equal(resumedLog.filter((e) => e.type === "mcp.configured").length, 1);
  const tools = fake.requests.at(-1)?.body?.tools?.map((tool) => tool.name) ?? [];
  assert.ok(tools.includes("mcp__fs__read_text_file"), tools.join(" "));

  await Deno.remove(bin);
  const replay = await runCli(["replay", "--verify", "--workspace", ws.path], { env });
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

Deno.test("a hostile .mcp.json in an untrusted folder starts nothing and is named in the one untrusted line; trusted, its server starts as in Claude Code", async () => {
  await using home = await tempHome();
  await using ws = await tempWorkspace();
  const marker = join(ws.path, "evil-ran");
  await Deno.writeTextFile(
    join(ws.path, ".mcp.json"),
    JSON.stringify({ mcpServers: { evil: { command: "sh", args: ["-c", `touch '${marker}'`] } } }),
  );
  await using fake = await startFakeAnthropic({ script: () => message("Done.") });
  const env = { ...home.env, ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const run = await runCli(["-p", "go", "--workspace", ws.path], { env });
  assert.equal(run.code, 0, run.stderr);
  await assert.rejects(Deno.stat(marker));
  const notices = run.stderr.split("\n").filter((line) => line.includes("untrusted folder"));
  assert.equal(notices.length, 1, run.stderr);
  assert.match(notices[0] ?? "", /MCP servers \(\.mcp\.json\)/);
  const log = await readLogLines(join(ws.path, ".rein", "events.jsonl"));
  const configured = log.find((e) => e.type === "mcp.configured");
  assert.deepEqual(configured?.data.servers, [{
    name: "evil",
    scope: "project",
    transport: "stdio",
    target: `sh -c touch '${marker}'`,
    enabled: false,
    reason: "the folder is not trusted",
  }]);
  assert.equal(log.some((e) => e.type === "mcp.observed"), false);

  // Trusted, it starts (and fails, not being an MCP server): the session goes on.
  const trusted = await runCli(["-p", "go", "--trust", "--workspace", ws.path], { env });
  assert.equal(trusted.code, 0, trusted.stderr);
  await Deno.stat(marker);
  const after = await readLogLines(join(ws.path, ".rein", "events.jsonl"));
  const observed = after.filter((e) => e.type === "mcp.observed").at(-1);
  const [state] = observed?.data.servers as { status: string }[];
  assert.equal(state?.status, "failed");
  const replay = await runCli(["replay", "--verify", "--workspace", ws.path], { env });
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

const LAUNCHER = fileURLToPath(new URL("../cli/launch.sh", import.meta.url));

/** rein started as a person starts it: the launcher, which narrows the agent's permissions. */
async function launched(args: string[], env: Record<string, string>) {
  const output = await new Deno.Command("sh", {
    args: [LAUNCHER, ...args],
    env: { PATH: Deno.env.get("PATH") ?? "", REIN_DENO: Deno.execPath(), NO_COLOR: "1", ...env },
    clearEnv: true,
    stdin: "null",
  }).output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

/** Resolves once the terminal's command has exited (its tmux server is gone with it). */
async function exited(terminal: Terminal): Promise<void> {
  for (let tries = 0; tries < 300; tries++) {
    if (await terminal.screen().then(() => false, () => true)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("The REPL did not exit after Ctrl-D");
}

/** A free port on 127.0.0.1. */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

Deno.test("server-everything over streamable HTTP, started through the launcher (which grants the server's host): listed in stream-json's init, a tool with arguments and a resource read, replayed with --verify once the server is stopped", async () => {
  await using home = await tempHome();
  await using ws = await tempWorkspace();
  await warmed;
  const port = freePort();
  const server = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", "--no-lock", EVERYTHING, "streamableHttp"],
    env: { PORT: String(port) },
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    const url = `http://127.0.0.1:${port}/mcp`;
    for (let tries = 0;; tries++) {
      const up = await fetch(url, { method: "GET" }).then((r) => r.body?.cancel(), () => false);
      if (up !== false) break;
      if (tries > 100) throw new Error("server-everything did not listen");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const uri = "demo://resource/static/document/architecture.md";
    await using fake = await startFakeAnthropic({
      script: scripted([
        { name: "mcp__remote__get-sum", input: { a: 40, b: 2 } },
        { name: "read_mcp_resource", input: { server: "remote", uri } },
      ]),
    });
    const env = { ...home.env, ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
    const config = JSON.stringify({ mcpServers: { remote: { type: "http", url } } });
    // Through the launcher: the agent's narrowed --allow-net must reach the server's host too.
    const run = await launched(
      ["-p", "go", "--mcp-config", config, "--output-format", "stream-json", "--verbose"]
        .concat(["--workspace", ws.path]),
      env,
    );
    assert.equal(run.code, 0, run.stderr);
    // stream-json's init line lists the servers with their status, as Claude Code's does.
    const init = JSON.parse(run.stdout.split("\n")[0] ?? "{}");
    assert.equal(init.subtype, "init");
    assert.deepEqual(init.mcp_servers, [{ name: "remote", status: "connected" }]);
    const results = toolResults(fake.requests);
    assert.equal(results[0], "The sum of 40 and 2 is 42.");
    assert.match(results[1] ?? "", /# /);
  } finally {
    server.kill("SIGKILL");
    await server.status;
  }
  const replay = await runCli(["replay", "--verify", "--workspace", ws.path], {
    env: home.env,
  });
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

Deno.test("Ctrl-C during server-everything's long-running operation cancels the call (MCP cancellation) and the run, which replays with --verify", async () => {
  await using home = await tempHome();
  await using ws = await tempWorkspace();
  const bin = await serverProgram(home.path, "everything", EVERYTHING, ["stdio"]);
  await using fake = await startFakeAnthropic({
    script: scripted([
      {
        name: "mcp__everything__trigger-long-running-operation",
        input: { duration: 60, steps: 6 },
      },
    ]),
  });
  const env = { ...home.env, ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const config = JSON.stringify({ mcpServers: { everything: { command: bin } } });
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--quiet",
      CLI,
      "-p",
      "go",
      "--mcp-config",
      config,
      "--allowedTools",
      "mcp__everything",
      "--workspace",
      ws.path,
    ],
    env: { PATH: Deno.env.get("PATH") ?? "", NO_COLOR: "1", ...env },
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const logPath = join(ws.path, ".rein", "events.jsonl");
  for (let tries = 0;; tries++) {
    const text = await Deno.readTextFile(logPath).catch(() => "");
    if (text.includes('"tool.requested"')) break;
    if (tries > 600) throw new Error("the call never started");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill("SIGINT");
  const status = await child.status;
  const stderr = await new Response(child.stderr).text();
  assert.equal(status.code, 130, stderr);
  const log = await readLogLines(logPath);
  const completed = log.find((e) => e.type === "tool.completed");
  assert.equal(completed?.data.outcome, "cancelled", JSON.stringify(completed));
  await Deno.remove(bin);
  const replay = await runCli(["replay", "--verify", "--workspace", ws.path], { env });
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

Deno.test("/mcp in the REPL lists each server with its scope, how it is reached and its state", async () => {
  await using home = await tempHome();
  await using ws = await tempWorkspace();
  await Deno.writeTextFile(
    join(ws.path, ".mcp.json"),
    JSON.stringify({ mcpServers: { repo: { command: "repo-server", args: ["--x"] } } }),
  );
  await using fake = await startFakeAnthropic({ script: () => message("Done.") });
  const env = { ...home.env, ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const run = await runCli(["--workspace", ws.path], { env, stdin: "/mcp\n/exit\n" });
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stdout,
    /MCP servers\n {2}repo \(project, stdio: repo-server --x\)\n {4}disabled: the folder is not trusted/,
  );
});

Deno.test("the REPL asks once about a trusted project's new MCP server, remembers the answer in ~/.claude.json as Claude Code does, and does not ask again", async () => {
  await using home = await tempHome();
  await using ws = await tempWorkspace();
  const marker = join(ws.path, "server-ran");
  await Deno.writeTextFile(
    join(ws.path, ".mcp.json"),
    JSON.stringify({ mcpServers: { tool: { command: "sh", args: ["-c", `touch '${marker}'`] } } }),
  );
  // The folder is trusted already (rein trust), so the only question is the server's.
  const claudeJson = join(home.path, ".claude.json");
  await Deno.writeTextFile(
    claudeJson,
    JSON.stringify({ projects: { [ws.path]: { hasTrustDialogAccepted: true } } }),
  );
  await using fake = await startFakeAnthropic({ script: () => message("Done.") });
  const start = () =>
    Terminal.start(
      `sh -c ${
        shellQuote(
          [
            `env -u NO_COLOR HOME=${shellQuote(home.path)} DENO_DIR=${shellQuote(DENO_DIR)}`,
            `ANTHROPIC_BASE_URL=${shellQuote(fake.url)} ANTHROPIC_API_KEY=${KEY}`,
            `REIN_DENO=${shellQuote(Deno.execPath())} sh ${shellQuote(LAUNCHER)} --workspace ${
              shellQuote(ws.path)
            }`,
          ].join(" "),
        )
      }`,
    );
  const atPrompt = (s: Screen) => s.cursorLine === ">" && s.cursorX === 2;
  {
    await using terminal = await start();
    await terminal.waitFor(
      "the server's question",
      (s) => /MCP server "tool", which runs: sh -c touch .*\[y\/N\]/s.test(s.text),
    );
    await terminal.type("y");
    await terminal.press("Enter");
    await terminal.waitFor("the prompt", atPrompt);
    await terminal.press("C-d");
    await exited(terminal);
    await exited(terminal);
  }
  await Deno.stat(marker);
  const remembered = JSON.parse(await Deno.readTextFile(claudeJson));
  assert.deepEqual(remembered.projects[ws.path], {
    hasTrustDialogAccepted: true,
    enabledMcpjsonServers: ["tool"],
    disabledMcpjsonServers: [],
  });
  {
    await using terminal = await start();
    const screen = await terminal.waitFor("the prompt", atPrompt);
    assert.doesNotMatch(screen.text, /MCP server "tool"/);
    await terminal.press("C-d");
    await exited(terminal);
    await exited(terminal);
  }
});

Deno.test("in the REPL, a hostile .mcp.json of a folder the person does not trust starts nothing", async () => {
  await using home = await tempHome();
  await using ws = await tempWorkspace();
  const marker = join(ws.path, "evil-ran");
  await Deno.writeTextFile(
    join(ws.path, ".mcp.json"),
    JSON.stringify({ mcpServers: { evil: { command: "sh", args: ["-c", `touch '${marker}'`] } } }),
  );
  await using fake = await startFakeAnthropic({ script: () => message("Done.") });
  await using terminal = await Terminal.start(
    `sh -c ${
      shellQuote(
        [
          `env -u NO_COLOR HOME=${shellQuote(home.path)} DENO_DIR=${shellQuote(DENO_DIR)}`,
          `ANTHROPIC_BASE_URL=${shellQuote(fake.url)} ANTHROPIC_API_KEY=${KEY}`,
          `REIN_DENO=${shellQuote(Deno.execPath())} sh ${shellQuote(LAUNCHER)} --workspace ${
            shellQuote(ws.path)
          }`,
        ].join(" "),
      )
    }`,
  );
  const asked = await terminal.waitFor(
    "the trust question",
    (s) => /Do you trust the files in .*\[y\/N\]/s.test(s.text),
  );
  assert.match(asked.text, /MCP servers \(\.mcp\.json\)/);
  await terminal.type("n");
  await terminal.press("Enter");
  await terminal.waitFor("the prompt", (s) => s.cursorLine === ">" && s.cursorX === 2);
  await terminal.type("/mcp");
  await terminal.press("Enter");
  await terminal.waitFor("the servers", (s) => /disabled: the folder is not trusted/.test(s.text));
  await terminal.press("C-d");
  await exited(terminal);
  await assert.rejects(Deno.stat(marker));
});
