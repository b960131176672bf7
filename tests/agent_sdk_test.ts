/**
 * rein driven by the real Claude Agent SDK (npm), as a program built on Claude Code drives it:
 * `query()` spawns rein through `pathToClaudeCodeExecutable` with `--output-format stream-json
 * --verbose --input-format stream-json` and no `-p`, and a `canUseTool` callback answers the
 * calls that need permission (`--permission-prompt-tool stdio`). The sessions replay with
 * `--verify` without the SDK.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { query, type SDKMessage, type SDKUserMessage } from "@anthropic-ai/claude-agent-sdk";
import { message, startFakeAnthropic, toolUse } from "../testing/fake_anthropic.ts";
import { childEnv, runCli } from "./_cli.ts";

const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const KEY = "sk-test-agent-sdk-0001";
/**
 * The tests' permissions: the network is the fake server's loopback only, so neither the SDK (its
 * telemetry, updates) nor rein can reach anything else.
 */
const LOCAL_ONLY = {
  permissions: { read: true, write: true, env: true, run: true, sys: true, net: ["127.0.0.1"] },
} satisfies Omit<Deno.TestDefinition, "fn" | "name">;
/** Deno's cache stays where it is: the person's home is a temp one. */
const DENO_DIR = Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/root", ".cache/deno");

/** A temp home and workspace, and an executable that runs rein as the installed command does. */
async function place() {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-sdk-" }));
  const workspace = join(base, "work");
  const home = join(base, "home");
  await Deno.mkdir(workspace);
  await Deno.mkdir(home);
  const executable = join(base, "rein");
  await Deno.writeTextFile(
    executable,
    `#!/bin/sh\nREIN_DENO='${Deno.execPath()}' exec sh '${ROOT}/cli/launch.sh' "$@"\n`,
  );
  await Deno.chmod(executable, 0o755);
  return {
    base,
    workspace,
    home,
    executable,
    [Symbol.asyncDispose]: () => Deno.remove(base, { recursive: true }),
  };
}

type Options = NonNullable<Parameters<typeof query>[0]["options"]>;

/** Every message of a `query()` run, in order, and what rein wrote on stderr. */
async function run(
  prompt: Parameters<typeof query>[0]["prompt"],
  where: Awaited<ReturnType<typeof place>>,
  url: string,
  options: Options,
  during?: (running: ReturnType<typeof query>, message: SDKMessage) => Promise<void>,
): Promise<{ messages: SDKMessage[]; stderr: string }> {
  const messages: SDKMessage[] = [];
  const stderr: string[] = [];
  try {
    const running = query({
      prompt,
      options: {
        cwd: where.workspace,
        pathToClaudeCodeExecutable: where.executable,
        env: childEnv({
          HOME: where.home,
          DENO_DIR,
          ANTHROPIC_BASE_URL: url,
          ANTHROPIC_API_KEY: KEY,
        }),
        stderr: (text) => stderr.push(text),
        ...options,
      },
    });
    for await (const sent of running) {
      messages.push(sent);
      await during?.(running, sent);
    }
  } catch (error) {
    throw new Error(`query() failed: ${(error as Error).message}\n${stderr.join("")}`);
  }
  return { messages, stderr: stderr.join("") };
}

async function verifies(where: Awaited<ReturnType<typeof place>>): Promise<void> {
  const replay = await runCli(["replay", join(where.workspace, ".rein/events.jsonl"), "--verify"], {
    permissions: ["--allow-read", "--allow-env"],
    env: { HOME: where.home, DENO_DIR: DENO_DIR },
  });
  assert.equal(replay.code, 0, replay.stderr);
  assert.match(replay.stdout, /all match the log/);
}

Deno.test(
  "the Agent SDK's query() drives rein: canUseTool allows a call, which runs, and a result comes back",
  LOCAL_ONLY,
  async () => {
    await using fake = await startFakeAnthropic({
      script: [
        message([toolUse("toolu_1", "write_file", { path: "made.txt", content: "made\n" })]),
        message("Wrote made.txt"),
      ],
    });
    await using where = await place();
    const asked: { tool: string; input: Record<string, unknown> }[] = [];
    const { messages } = await run("write a file", where, fake.url, {
      canUseTool: (tool, input) => {
        asked.push({ tool, input });
        return Promise.resolve({ behavior: "allow", updatedInput: input });
      },
    });
    // Asked in Claude Code's terms: its tool name and field names, the path absolute.
    assert.deepEqual(asked, [{
      tool: "Write",
      input: { file_path: join(where.workspace, "made.txt"), content: "made\n" },
    }]);
    assert.equal(await Deno.readTextFile(join(where.workspace, "made.txt")), "made\n");
    assert.equal(messages[0]?.type, "system");
    const result = messages.at(-1);
    assert.equal(result?.type, "result");
    assert.ok(result?.type === "result" && result.subtype === "success");
    assert.equal(result.result, "Wrote made.txt");
    assert.equal(result.num_turns, 2);
    await Deno.remove(join(where.workspace, "made.txt"));
    await verifies(where);
    await assert.rejects(Deno.stat(join(where.workspace, "made.txt")));
  },
);

Deno.test(
  "a call canUseTool denies does not run, and the model reads the SDK's message",
  LOCAL_ONLY,
  async () => {
    await using fake = await startFakeAnthropic({
      script: [
        message([toolUse("toolu_1", "bash", { command: "rm -rf build" })]),
        message("Understood, I left build alone"),
      ],
    });
    await using where = await place();
    await Deno.mkdir(join(where.workspace, "build"));
    const { messages } = await run("clean up", where, fake.url, {
      canUseTool: () => Promise.resolve({ behavior: "deny", message: "Not on this machine" }),
    });
    await Deno.stat(join(where.workspace, "build"));
    const second = JSON.stringify(fake.requests[1]?.body?.messages.at(-1));
    assert.match(second, /Not on this machine/);
    assert.match(second, /"is_error":true/);
    const result = messages.at(-1);
    assert.ok(result?.type === "result" && result.subtype === "success");
    assert.equal(result.result, "Understood, I left build alone");
    assert.equal(result.permission_denials.length, 1);
    assert.equal(result.permission_denials[0]?.tool_name, "Bash");
    await verifies(where);
  },
);

Deno.test(
  "the SDK's options reach rein: flags it acts on, flags it names as ignored, and the system prompt of the initialize request",
  LOCAL_ONLY,
  async () => {
    await using fake = await startFakeAnthropic({ script: [message("Bonjour")] });
    await using where = await place();
    const { messages, stderr } = await run("hello", where, fake.url, {
      model: "haiku",
      maxTurns: 3,
      permissionMode: "acceptEdits",
      settingSources: ["project"],
      includePartialMessages: true,
      systemPrompt: { type: "preset", preset: "claude_code", append: "Answer in French" },
      hooks: { PreToolUse: [{ hooks: [() => Promise.resolve({})] }] },
      persistSession: false,
      additionalDirectories: [where.home],
      strictMcpConfig: true,
    });
    const result = messages.at(-1);
    assert.ok(result?.type === "result" && result.subtype === "success", stderr);
    assert.equal(result.result, "Bonjour");
    const request = fake.requests[0]?.body;
    assert.equal(request?.model, "claude-haiku-4-5");
    assert.match(JSON.stringify(request?.system), /Answer in French/);
    // rein's own instructions stay: the SDK's preset appends, it does not replace.
    assert.match(JSON.stringify(request?.system), /write_file|read_file/);
    const init = messages[0];
    assert.ok(init?.type === "system" && init.subtype === "init");
    assert.equal(init.permissionMode, "acceptEdits");
    assert.doesNotMatch(stderr, /Ignored --setting-sources/);
    assert.match(stderr, /Ignored --include-partial-messages: rein prints each message whole/);
    assert.match(stderr, /Ignored --no-session-persistence: rein records every session/);
    assert.match(stderr, /Ignored --add-dir: /);
    // rein runs MCP servers: --strict-mcp-config is taken, not ignored (core/mcp).
    assert.doesNotMatch(stderr, /Ignored --strict-mcp-config/);
    assert.match(stderr, /Ignored the initialize request's hooks: rein runs the hooks of settings/);
    await verifies(where);
  },
);

Deno.test(
  "setPermissionMode between prompts of one query() is recorded: the next write does not ask, and replay serves the change",
  LOCAL_ONLY,
  async () => {
    await using fake = await startFakeAnthropic({
      script: [
        message("Ready"),
        message([toolUse("toolu_2", "write_file", { path: "later.txt", content: "later\n" })]),
        message("Wrote later.txt"),
      ],
    });
    await using where = await place();
    const asked: string[] = [];
    let firstDone: () => void = () => {};
    const firstResult = new Promise<void>((resolve) => firstDone = resolve);
    async function* prompts() {
      yield user("get ready");
      await firstResult;
      yield user("now write later.txt");
    }
    const modes: unknown[] = [];
    const { messages } = await run(prompts(), where, fake.url, {
      canUseTool: (tool) => {
        asked.push(tool);
        return Promise.resolve({ behavior: "deny", message: "No" });
      },
    }, async (running, sent) => {
      if (sent.type !== "result" || modes.length > 0) return;
      modes.push(await running.setPermissionMode("acceptEdits"));
      // A mode rein does not have is refused, and the session goes on.
      modes.push(await running.setPermissionMode("auto").catch((error: Error) => error.message));
      firstDone();
    });
    assert.deepEqual(modes[0], { mode: "acceptEdits" });
    assert.match(String(modes[1]), /Unknown permission mode "auto"/);
    assert.deepEqual(asked, []);
    assert.equal(await Deno.readTextFile(join(where.workspace, "later.txt")), "later\n");
    const results = messages.filter((m) => m.type === "result");
    assert.deepEqual(results.map((r) => r.type === "result" && r.subtype), ["success", "success"]);
    await Deno.remove(join(where.workspace, "later.txt"));
    await verifies(where);
  },
);

/** A user message as the SDK's streaming input takes it. */
function user(text: string): SDKUserMessage {
  return {
    type: "user",
    message: { role: "user", content: [{ type: "text", text }] },
    parent_tool_use_id: null,
  };
}

Deno.test(
  "interrupt() cancels the running call and the turn ends with a result; the session replays",
  LOCAL_ONLY,
  async () => {
    await using fake = await startFakeAnthropic({
      script: [message([toolUse("toolu_1", "bash", { command: "sleep 30" })])],
    });
    await using where = await place();
    let interrupted = false;
    const { messages } = await run("wait a while", where, fake.url, {
      canUseTool: (_tool, input) => Promise.resolve({ behavior: "allow", updatedInput: input }),
    }, async (running, sent) => {
      if (sent.type !== "assistant" || interrupted) return;
      interrupted = true;
      await running.interrupt();
    });
    assert.ok(interrupted);
    const result = messages.at(-1);
    assert.equal(result?.type, "result");
    assert.ok(result?.type === "result" && result.subtype === "error_during_execution");
    // One request only: the cancelled turn did not go on to the model.
    assert.equal(fake.requests.length, 1);
    await verifies(where);
  },
);

Deno.test(
  "a second query() with resume goes on with the session the first one started",
  LOCAL_ONLY,
  async () => {
    await using fake = await startFakeAnthropic({
      script: [message("The word is heron"), message("You said heron")],
    });
    await using where = await place();
    const first = await run("remember heron", where, fake.url, {});
    const started = first.messages.at(-1);
    assert.ok(started?.type === "result" && started.subtype === "success");
    const second = await run("what was the word?", where, fake.url, {
      resume: started.session_id,
    });
    const result = second.messages.at(-1);
    assert.ok(result?.type === "result" && result.subtype === "success");
    assert.equal(result.session_id, started.session_id);
    assert.equal(result.result, "You said heron");
    const history = JSON.stringify(fake.requests[1]?.body?.messages);
    assert.match(history, /remember heron/);
    assert.match(history, /The word is heron/);
    await verifies(where);
  },
);

Deno.test(
  "canUseTool's updatedInput is the input the call runs with, and replay runs the same",
  LOCAL_ONLY,
  async () => {
    await using fake = await startFakeAnthropic({
      script: [
        message([toolUse("toolu_1", "write_file", { path: "draft.txt", content: "draft\n" })]),
        message("Wrote it"),
      ],
    });
    await using where = await place();
    const { messages } = await run("write a draft", where, fake.url, {
      canUseTool: (_tool, input) =>
        Promise.resolve({
          behavior: "allow",
          updatedInput: { ...input, file_path: join(where.workspace, "final.txt") },
        }),
    });
    const result = messages.at(-1);
    assert.ok(result?.type === "result" && result.subtype === "success");
    assert.equal(await Deno.readTextFile(join(where.workspace, "final.txt")), "draft\n");
    await assert.rejects(Deno.stat(join(where.workspace, "draft.txt")));
    const log = await Deno.readTextFile(join(where.workspace, ".rein/events.jsonl"));
    const requested = log.split("\n").filter(Boolean).map((line) => JSON.parse(line))
      .find((event) => event.type === "tool.requested");
    assert.deepEqual(requested?.data.input, { path: "final.txt", content: "draft\n" });
    await Deno.remove(join(where.workspace, "final.txt"));
    await verifies(where);
  },
);

Deno.test(
  "settingSources [] keeps the project's settings out: its allow rule no longer spares the question",
  LOCAL_ONLY,
  async () => {
    for (const settingSources of [undefined, [] as []]) {
      await using fake = await startFakeAnthropic({
        script: [
          message([toolUse("toolu_1", "write_file", { path: "made.txt", content: "made\n" })]),
          message("Wrote made.txt"),
        ],
      });
      await using where = await place();
      await Deno.mkdir(join(where.workspace, ".claude"));
      await Deno.writeTextFile(
        join(where.workspace, ".claude", "settings.json"),
        JSON.stringify({ permissions: { allow: ["Write"] } }),
      );
      // The person trusted the folder, as Claude Code records it, so its allow rule applies.
      await Deno.writeTextFile(
        join(where.home, ".claude.json"),
        JSON.stringify({ projects: { [where.workspace]: { hasTrustDialogAccepted: true } } }),
      );
      const asked: string[] = [];
      await run("write a file", where, fake.url, {
        ...(settingSources === undefined ? {} : { settingSources }),
        canUseTool: (tool, input) => {
          asked.push(tool);
          return Promise.resolve({ behavior: "allow", updatedInput: input });
        },
      });
      assert.deepEqual(asked, settingSources === undefined ? [] : ["Write"]);
      await verifies(where);
    }
  },
);
