/**
 * rein driven by the real Claude Agent SDK (npm), as a program built on Claude Code drives it:
 * `query()` spawns rein through `pathToClaudeCodeExecutable` with `--output-format stream-json
 * --verbose --input-format stream-json` and no `-p`, and a `canUseTool` callback answers the
 * calls that need permission (`--permission-prompt-tool stdio`). The sessions replay with
 * `--verify` without the SDK.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { query, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { message, startFakeAnthropic, toolUse } from "../testing/fake_anthropic.ts";
import { childEnv, runCli } from "./_cli.ts";

const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const KEY = "sk-test-agent-sdk-0001";
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

/** Every message of a `query()` run, in order. */
async function run(
  prompt: string,
  where: Awaited<ReturnType<typeof place>>,
  url: string,
  canUseTool: Parameters<typeof query>[0]["options"] extends infer O
    ? O extends { canUseTool?: infer C } ? C : never
    : never,
): Promise<SDKMessage[]> {
  const messages: SDKMessage[] = [];
  const stderr: string[] = [];
  try {
    for await (
      const sent of query({
        prompt,
        options: {
          cwd: where.workspace,
          pathToClaudeCodeExecutable: where.executable,
          env: childEnv({
            HOME: where.home,
            DENO_DIR: Deno.env.get("DENO_DIR") ??
              join(Deno.env.get("HOME") ?? "/root", ".cache/deno"),
            ANTHROPIC_BASE_URL: url,
            ANTHROPIC_API_KEY: KEY,
          }),
          canUseTool,
          stderr: (text) => stderr.push(text),
        },
      })
    ) messages.push(sent);
  } catch (error) {
    throw new Error(`query() failed: ${(error as Error).message}\n${stderr.join("")}`);
  }
  return messages;
}

async function verifies(where: Awaited<ReturnType<typeof place>>): Promise<void> {
  const replay = await runCli(["replay", join(where.workspace, ".rein/events.jsonl"), "--verify"], {
    permissions: ["--allow-read", "--allow-env"],
    env: { HOME: where.home, DENO_DIR: DENO_DIR },
  });
  assert.equal(replay.code, 0, replay.stderr);
  assert.match(replay.stdout, /all match the log/);
}

Deno.test("the Agent SDK's query() drives rein: canUseTool allows a call, which runs, and a result comes back", async () => {
  await using fake = await startFakeAnthropic({
    script: [
      message([toolUse("toolu_1", "write_file", { path: "made.txt", content: "made\n" })]),
      message("Wrote made.txt"),
    ],
  });
  await using where = await place();
  const asked: { tool: string; input: Record<string, unknown> }[] = [];
  const messages = await run("write a file", where, fake.url, (tool, input) => {
    asked.push({ tool, input });
    return Promise.resolve({ behavior: "allow", updatedInput: input });
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
});

Deno.test("a call canUseTool denies does not run, and the model reads the SDK's message", async () => {
  await using fake = await startFakeAnthropic({
    script: [
      message([toolUse("toolu_1", "bash", { command: "rm -rf build" })]),
      message("Understood, I left build alone"),
    ],
  });
  await using where = await place();
  await Deno.mkdir(join(where.workspace, "build"));
  const messages = await run(
    "clean up",
    where,
    fake.url,
    () => Promise.resolve({ behavior: "deny", message: "Not on this machine" }),
  );
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
});
