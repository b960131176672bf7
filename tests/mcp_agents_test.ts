/**
 * MCP servers of subagents and teammates, as their definitions name them (`mcpServers` in
 * `.claude/agents/*.md`: configured servers by name, inline `{name: config}` servers): a subagent
 * sees only its servers' tools, the lead never sees a subagent's inline server, a teammate's
 * process starts only its servers (inline ones included), and an inline server in an untrusted
 * folder starts nothing. Each run replays with `--verify` once the servers' programs are gone.
 * The servers are tests/_mcp_faulty_server.ts (`tools` mode, a real SDK server over stdio); each
 * program notes its start in a file, so the test sees which process started what.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Envelope, EnvelopeOf, McpServerEntry } from "../events/event_types.ts";
import {
  type FakeScriptFn,
  message,
  type RecordedRequest,
  startFakeAnthropic,
  toolUse,
} from "../testing/fake_anthropic.ts";
import { firstUserText } from "../testing/scenarios.ts";
import { killProcessesIn } from "../testing/tool_helpers.ts";
import { runCli } from "./_cli.ts";

const KEY = "sk-ant-mcp-agents";
const DENO_DIR = Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/root", ".cache/deno");
const SERVER = fileURLToPath(new URL("./_mcp_faulty_server.ts", import.meta.url));
const CONFIG = fileURLToPath(new URL("../deno.json", import.meta.url));

/** A workspace and a home of their own, with the server programs in the home. */
async function place(): Promise<
  { ws: string; home: string; bin: string; starts: string } & AsyncDisposable
> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-mcp-agents-" }));
  const [ws, home, bin] = [join(root, "ws"), join(root, "home"), join(root, "bin")];
  for (const dir of [ws, home, bin]) await Deno.mkdir(dir);
  return {
    ws,
    home,
    bin,
    starts: join(root, "starts.txt"),
    async [Symbol.asyncDispose]() {
      killProcessesIn(ws);
      await Deno.remove(root, { recursive: true });
    },
  };
}

/** A program that notes `name` in `starts` and runs the server (removed: the server is gone). */
async function program(bin: string, starts: string, name: string): Promise<string> {
  const path = join(bin, name);
  await Deno.writeTextFile(
    path,
    `#!/bin/sh\necho ${name} >> '${starts}'\n` +
      `exec '${Deno.execPath()}' run -A --quiet --config '${CONFIG}' '${SERVER}' tools\n`,
  );
  await Deno.chmod(path, 0o755);
  return path;
}

/** A {@link program} for each name. */
async function programs(
  at: { bin: string; starts: string },
  names: string[],
): Promise<[string, string, string]> {
  const paths = await Promise.all(names.map((name) => program(at.bin, at.starts, name)));
  return [paths[0] ?? "", paths[1] ?? "", paths[2] ?? ""];
}

/** The last `mcp.configured` of `agent` (any agent's when absent). */
function lastConfigured(log: readonly Envelope[], agent?: string): McpServerEntry[] {
  const events = log.filter((e): e is EnvelopeOf<"mcp.configured"> =>
    e.type === "mcp.configured" && (agent === undefined || e.agent === agent)
  );
  return events.at(-1)?.data.servers ?? [];
}

/** `.claude/agents/helper.md`: server `a` by name and `inl` inline. */
async function helperAgent(ws: string, inline: string): Promise<void> {
  await Deno.mkdir(join(ws, ".claude", "agents"), { recursive: true });
  await Deno.writeTextFile(
    join(ws, ".claude", "agents", "helper.md"),
    "---\nname: helper\ndescription: Works with server a and its own server\n" +
      `mcpServers:\n  - a\n  - inl:\n      command: ${inline}\n---\nYou help.\n`,
  );
}

function toolNames(request: RecordedRequest | undefined): string[] {
  return request?.body?.tools?.map((tool) => tool.name) ?? [];
}

function mcpTools(request: RecordedRequest | undefined): string[] {
  return toolNames(request).filter((name) => name.startsWith("mcp__")).sort();
}

/** The requests whose conversation began with `text`. */
function requestsOf(requests: readonly RecordedRequest[], text: string): RecordedRequest[] {
  return requests.filter((request) => firstUserText(request.body?.messages ?? []) === text);
}

/** The tool_result texts of a request's messages, in order. */
function results(request: RecordedRequest | undefined): string[] {
  return (request?.body?.messages ?? []).flatMap((m) =>
    m.role === "user" && Array.isArray(m.content)
      ? m.content.flatMap((block) =>
        block.type === "tool_result" ? [JSON.stringify(block.content)] : []
      )
      : []
  );
}

/** Each agent's turn (by its first prompt): `calls` one a round, then "Done."; a shutdown approved. */
function turns(byPrompt: Record<string, { name: string; input: Record<string, unknown> }[]>) {
  const script: FakeScriptFn = (request) => {
    const messages = request.body?.messages ?? [];
    const last = JSON.stringify(messages.at(-1) ?? "");
    if (last.includes("shutdown_request")) {
      return message([toolUse("toolu_bye", "respond_shutdown", { approve: true })]);
    }
    const calls = byPrompt[firstUserText(messages)] ?? [];
    const answered = messages.filter((m) => m.role === "assistant").length;
    const call = calls[answered];
    return call ? message([toolUse(`toolu_${answered}`, call.name, call.input)]) : message("Done.");
  };
  return script;
}

async function readLog(ws: string): Promise<Envelope[]> {
  const text = await Deno.readTextFile(join(ws, ".rein", "events.jsonl"));
  return text.trim().split("\n").map((line) => JSON.parse(line) as Envelope);
}

async function startsOf(path: string): Promise<string[]> {
  const text = await Deno.readTextFile(path).catch(() => "");
  return text.trim().split("\n").filter(Boolean).sort();
}

Deno.test("a subagent whose definition names server a and an inline server sees only their tools, the lead sees a and b but never the inline one, a call outside its servers is refused, and the run replays with --verify once the servers are gone", async () => {
  await using at = await place();
  const [a, b, inl] = await programs(at, ["a", "b", "inl"]);
  await helperAgent(at.ws, inl);
  await using fake = await startFakeAnthropic({
    script: turns({
      go: [{
        name: "task",
        input: { description: "help", prompt: "use inl", subagent_type: "helper" },
      }],
      "use inl": [
        { name: "mcp__inl__echo", input: { text: "from inl" } },
        { name: "mcp__a__echo", input: { text: "from a" } },
        { name: "mcp__b__echo", input: { text: "from b" } },
      ],
    }),
  });
  const env = { HOME: at.home, DENO_DIR, ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const config = JSON.stringify({ mcpServers: { a: { command: a }, b: { command: b } } });
  const run = await runCli(
    ["-p", "go", "--trust", "--mcp-config", config, "--workspace", at.ws],
    { env },
  );
  assert.equal(run.code, 0, run.stderr);
  const lead = requestsOf(fake.requests, "go");
  const child = requestsOf(fake.requests, "use inl");
  const echo = (server: string) => [`mcp__${server}__crash`, `mcp__${server}__echo`];
  for (const request of lead) {
    assert.ok(mcpTools(request).includes("mcp__a__echo"), mcpTools(request).join(" "));
    assert.ok(mcpTools(request).includes("mcp__b__echo"), mcpTools(request).join(" "));
    assert.ok(!mcpTools(request).some((name) => name.startsWith("mcp__inl__")));
  }
  assert.equal(child.length, 4);
  for (const request of child) {
    const names = mcpTools(request);
    assert.ok(!names.some((name) => name.startsWith("mcp__b__")), names.join(" "));
    for (const name of [...echo("a"), ...echo("inl")]) assert.ok(names.includes(name), name);
  }
  const said = results(child.at(-1));
  assert.match(said[0] ?? "", /from inl/);
  assert.match(said[1] ?? "", /from a/);
  assert.doesNotMatch(said[2] ?? "", /from b/);
  // Each server started once, in the lead's process: inl when the subagent began.
  assert.deepEqual(await startsOf(at.starts), ["a", "b", "inl"]);
  const log = await readLog(at.ws);
  const spawned = log.find((e) => e.type === "agent.spawned");
  assert.deepEqual(
    (spawned?.data as { mcpServers?: string[] }).mcpServers,
    ["a", "inl"],
  );
  const inlEntry = lastConfigured(log).find((s) => s.name === "inl");
  assert.deepEqual(inlEntry, {
    name: "inl",
    scope: "agent",
    transport: "stdio",
    target: inl,
    enabled: true,
    agent: spawned?.agent,
  });

  for (const path of [a, b, inl]) await Deno.remove(path);
  const replay = await runCli(["replay", "--verify", "--workspace", at.ws], { env });
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
  assert.deepEqual(await startsOf(at.starts), ["a", "b", "inl"]);
});

Deno.test("in a folder that is not trusted, a subagent's inline server starts nothing and is recorded as not started; its named server still serves it", async () => {
  await using at = await place();
  const [a, inl] = await programs(at, ["a", "inl"]);
  await helperAgent(at.ws, inl);
  await using fake = await startFakeAnthropic({
    script: turns({
      go: [{
        name: "task",
        input: { description: "help", prompt: "use inl", subagent_type: "helper" },
      }],
      "use inl": [{ name: "mcp__a__echo", input: { text: "from a" } }],
    }),
  });
  const env = { HOME: at.home, DENO_DIR, ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const config = JSON.stringify({ mcpServers: { a: { command: a } } });
  const run = await runCli(["-p", "go", "--mcp-config", config, "--workspace", at.ws], { env });
  assert.equal(run.code, 0, run.stderr);
  const child = requestsOf(fake.requests, "use inl");
  assert.ok(child.length > 0, "the subagent ran");
  const ofA = ["big", "crash", "echo", "grow", "sleep"].map((tool) => `mcp__a__${tool}`);
  for (const request of child) assert.deepEqual(mcpTools(request), ofA);
  assert.deepEqual(await startsOf(at.starts), ["a"]);
  const log = await readLog(at.ws);
  const inlEntry = lastConfigured(log).find((s) => s.name === "inl");
  assert.equal(inlEntry?.enabled, false);
  assert.equal(inlEntry?.reason, "the folder is not trusted");
  await Deno.remove(a);
  const replay = await runCli(["replay", "--verify", "--workspace", at.ws], { env });
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

Deno.test("a teammate whose definition names server a and an inline server: its process starts only those two (not the lead's b), its requests carry only their tools, its calls reach them, and the run replays with --verify once the servers are gone", async () => {
  await using at = await place();
  const [a, b, inl] = await programs(at, ["a", "b", "inl"]);
  await helperAgent(at.ws, inl);
  await using fake = await startFakeAnthropic({
    script: turns({
      go: [{
        name: "task",
        input: {
          name: "mate",
          description: "helper",
          prompt: "mate work",
          subagent_type: "helper",
        },
      }],
      "mate work": [
        { name: "mcp__inl__echo", input: { text: "mate via inl" } },
        { name: "mcp__a__echo", input: { text: "mate via a" } },
      ],
    }),
  });
  const env = {
    HOME: at.home,
    DENO_DIR,
    ANTHROPIC_BASE_URL: fake.url,
    ANTHROPIC_API_KEY: KEY,
    CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS: "1",
    REIN_SHUTDOWN_TIMEOUT_MS: "2000",
  };
  const config = JSON.stringify({ mcpServers: { a: { command: a }, b: { command: b } } });
  const run = await runCli(
    [
      "-p",
      "go",
      "--trust",
      "--mcp-config",
      config,
      "--permission-mode",
      "bypassPermissions",
      "--workspace",
      at.ws,
    ],
    { env },
  );
  assert.equal(run.code, 0, run.stderr);
  const mate = requestsOf(fake.requests, "mate work");
  assert.ok(mate.length >= 3, `the teammate's requests: ${mate.length}`);
  for (const request of mate) {
    const names = mcpTools(request);
    assert.ok(!names.some((name) => name.startsWith("mcp__b__")), names.join(" "));
    assert.ok(names.includes("mcp__a__echo") && names.includes("mcp__inl__echo"), names.join(" "));
  }
  const said = results(mate[2]);
  assert.match(said[0] ?? "", /mate via inl/);
  assert.match(said[1] ?? "", /mate via a/);
  // The lead's process started a and b; the teammate's a and inl, never b.
  assert.deepEqual(await startsOf(at.starts), ["a", "a", "b", "inl"]);
  const log = await readLog(at.ws);
  assert.equal(log.filter((e) => e.type === "mcp.configured" && e.agent === "mate").length, 1);
  assert.deepEqual(
    lastConfigured(log, "mate").map((s) => [s.name, s.scope]),
    [["a", "dynamic"], ["inl", "agent"]],
  );
  // The lead's pool never held the teammate's inline server.
  for (const request of requestsOf(fake.requests, "go")) {
    assert.ok(!mcpTools(request).some((name) => name.startsWith("mcp__inl__")));
  }

  for (const path of [a, b, inl]) await Deno.remove(path);
  const replay = await runCli(["replay", "--verify", "--workspace", at.ws], { env });
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

Deno.test("with no MCP server configured at all, a subagent's inline server still starts for it (a name it gives that nothing configures names nothing), and the run replays with --verify once it is gone", async () => {
  await using at = await place();
  const [inl] = await programs(at, ["inl"]);
  await helperAgent(at.ws, inl);
  await using fake = await startFakeAnthropic({
    script: turns({
      go: [{
        name: "task",
        input: { description: "help", prompt: "use inl", subagent_type: "helper" },
      }],
      "use inl": [{ name: "mcp__inl__echo", input: { text: "only inl" } }],
    }),
  });
  const env = { HOME: at.home, DENO_DIR, ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const run = await runCli(["-p", "go", "--trust", "--workspace", at.ws], { env });
  assert.equal(run.code, 0, run.stderr);
  for (const request of requestsOf(fake.requests, "go")) assert.deepEqual(mcpTools(request), []);
  const child = requestsOf(fake.requests, "use inl");
  const ofInl = ["big", "crash", "echo", "grow", "sleep"].map((tool) => `mcp__inl__${tool}`);
  for (const request of child) assert.deepEqual(mcpTools(request), ofInl);
  assert.match(results(child.at(-1))[0] ?? "", /only inl/);
  assert.deepEqual(await startsOf(at.starts), ["inl"]);
  await Deno.remove(inl);
  const replay = await runCli(["replay", "--verify", "--workspace", at.ws], { env });
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});
