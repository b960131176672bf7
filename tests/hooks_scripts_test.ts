/**
 * Real hook scripts (tests/hooks/) run through runHooks as Claude Code would run them: by
 * command string, with the event's JSON on stdin and CLAUDE_PROJECT_DIR set to this repository.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  buildHookInput,
  type HookEventData,
  type HookEventName,
  type HookSession,
  runHooks,
} from "../core/hooks/mod.ts";
import type { HookCommand, Settings } from "../core/settings/mod.ts";
import { readPid, tempDir, waitForDeath } from "../testing/tool_helpers.ts";

const projectDir = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const env = passThrough("PATH", "HOME", "DENO_DIR");
const session: HookSession = {
  sessionId: "s1",
  transcriptPath: "/w/.rein/events.jsonl",
  cwd: "/w",
  permissionMode: "default",
};

function passThrough(...names: string[]): Record<string, string> {
  return Object.fromEntries(names.flatMap((name) => {
    const value = Deno.env.get(name);
    return value === undefined ? [] : [[name, value]];
  }));
}

/** A hook command for a script in tests/hooks/, as a settings file would write it. */
function script(name: string, ...args: string[]): string {
  const path = `"$CLAUDE_PROJECT_DIR"/tests/hooks/${name}`;
  const command = name.endsWith(".ts") ? `deno run --quiet --allow-env ${path}` : path;
  return [command, ...args.map((arg) => `'${arg}'`)].join(" ");
}

function command(text: string, timeout = 30): HookCommand {
  return { type: "command", command: text, timeout };
}

async function fire(
  data: HookEventData,
  hooks: HookCommand[],
  options: { matcher?: string; signal?: AbortSignal } = {},
) {
  const event: HookEventName = data.event;
  const settings: Settings["hooks"] = {
    [event]: [{ ...(options.matcher === undefined ? {} : { matcher: options.matcher }), hooks }],
  };
  const matchValue = "tool" in data ? data.tool : "source" in data ? data.source : undefined;
  return await runHooks({
    hooks: settings,
    event,
    matchValue,
    input: buildHookInput(session, data),
    cwd: projectDir,
    projectDir,
    env,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
}

function bashCall(commandLine: string): HookEventData {
  return { event: "PreToolUse", tool: "bash", input: { command: commandLine }, toolUseId: "t1" };
}

Deno.test("a PreToolUse hook on Bash blocks rm with exit 2 and stderr for the model", async () => {
  const hooks = [command(script("block_rm.sh"))];
  const blocked = await fire(bashCall("ls && rm -rf build"), hooks, { matcher: "Bash" });
  assert.equal(blocked.runs[0]?.exitCode, 2);
  assert.deepEqual(blocked.verdict.permission, {
    decision: "deny",
    reason: "Blocked by block_rm.sh: rm is not allowed here; move files to ./trash instead",
  });
  const allowed = await fire(bashCall("echo firm"), hooks, { matcher: "Bash" });
  assert.equal(allowed.runs[0]?.exitCode, 0);
  assert.equal(allowed.verdict.permission, undefined);
});

Deno.test("a matcher written with rein's tool name selects the same hook", async () => {
  const { runs } = await fire(bashCall("rm x"), [command(script("block_rm.sh"))], {
    matcher: "bash",
  });
  assert.equal(runs.length, 1);
  const none = await fire(bashCall("rm x"), [command(script("block_rm.sh"))], { matcher: "Edit" });
  assert.deepEqual(none.runs, []);
});

Deno.test("a Deno hook rewrites a command through updatedInput and allows it", async () => {
  const { runs, verdict } = await fire(bashCall("npm test"), [command(script("rewrite_npm.ts"))]);
  assert.equal(runs[0]?.exitCode, 0, runs[0]?.stderr ?? "");
  assert.deepEqual(verdict.permission, {
    decision: "allow",
    reason: "npm is pnpm in this project",
  });
  assert.deepEqual(verdict.updatedInput, { command: "pnpm test" });
});

Deno.test("a Stop hook blocks once, then lets the agent stop", async () => {
  const hooks = [command(script("stop_once.ts"))];
  const first = await fire(
    { event: "Stop", stopHookActive: false, lastAssistantMessage: "Done." },
    hooks,
  );
  assert.deepEqual(first.verdict.block, {
    reason: "Run the tests before stopping (you said: Done.)",
  });
  const second = await fire({ event: "Stop", stopHookActive: true }, hooks);
  assert.equal(second.runs[0]?.exitCode, 0);
  assert.equal(second.verdict.block, undefined);
});

Deno.test("a SessionStart hook's JSON gives a user message, context and suppressOutput", async () => {
  const { verdict } = await fire(
    { event: "SessionStart", source: "startup", model: "claude-sonnet-5" },
    [command(script("session_context.ts"))],
    { matcher: "startup|resume" },
  );
  assert.deepEqual(verdict, {
    userMessages: [`Hooks loaded from ${projectDir}`],
    additionalContext: ["Session s1 (startup) on claude-sonnet-5"],
    suppressOutput: true,
  });
});

Deno.test("plain stdout of a UserPromptSubmit hook becomes context", async () => {
  const { verdict } = await fire({ event: "UserPromptSubmit", prompt: "build it" }, [
    command(script("plain_context.sh")),
  ]);
  assert.deepEqual(verdict.additionalContext, ["The build command is: make all"]);
});

Deno.test("a UserPromptSubmit hook drops a prompt with exit 2", async () => {
  const { verdict } = await fire({ event: "UserPromptSubmit", prompt: "my password is x" }, [
    command(script("guard_prompt.sh")),
  ]);
  assert.deepEqual(verdict.block, { reason: "Prompts must not contain passwords" });
});

Deno.test("a PostToolUse hook blocks with a reason and adds context, reading file_path", async () => {
  const { verdict } = await fire(
    {
      event: "PostToolUse",
      tool: "edit_file",
      input: { path: "src/a.ts", old_string: "a", new_string: "b" },
      toolUseId: "t2",
      response: { content: "Edited src/a.ts", isError: false },
    },
    [command(script("lint_feedback.sh"))],
    { matcher: "Edit|Write" },
  );
  assert.deepEqual(verdict.block, { reason: "Lint failed in /w/src/a.ts" });
  assert.deepEqual(verdict.additionalContext, ["Run make lint"]);
});

Deno.test("continue: false stops the agent, with stopReason and systemMessage", async () => {
  const { verdict } = await fire({ event: "UserPromptSubmit", prompt: "go" }, [
    command(script("halt.sh")),
  ]);
  assert.deepEqual(verdict.stop, { reason: "Budget used up" });
  assert.deepEqual(verdict.userMessages, ["Stopping now"]);
});

Deno.test("parallel PreToolUse hooks: ask beats allow, a failing hook blocks nothing", async () => {
  const { runs, verdict } = await fire(bashCall("npm run deploy"), [
    command(script("rewrite_npm.ts")),
    command(script("ask.sh")),
    command(script("fail.sh")),
    command(script("malformed.sh")),
  ]);
  assert.deepEqual(runs.map((run) => run.exitCode), [0, 0, 1, 0]);
  assert.deepEqual(verdict.permission, { decision: "ask", reason: "Writes outside src/" });
  assert.deepEqual(verdict.updatedInput, { command: "pnpm run deploy" });
  assert.deepEqual(verdict.additionalContext, ["src/ is the only writable tree"]);
  assert.equal(verdict.block, undefined);
  assert.equal(verdict.userMessages.length, 2);
  assert.match(
    verdict.userMessages[0] ?? "",
    /fail\.sh.* failed with exit code 1: fail\.sh: config/,
  );
  assert.match(
    verdict.userMessages[1] ?? "",
    /malformed\.sh.* wrote output that is not valid JSON/,
  );
});

Deno.test('the legacy decision "approve" allows a PreToolUse call', async () => {
  const { verdict } = await fire(bashCall("git status"), [command(script("legacy_approve.sh"))]);
  assert.deepEqual(verdict.permission, { decision: "allow", reason: "Read-only command" });
});

Deno.test("exit 2 of one hook beats another hook's JSON allow", async () => {
  const { verdict } = await fire(bashCall("npm rm left-pad; rm -r node_modules"), [
    command(script("rewrite_npm.ts")),
    command(script("block_rm.sh")),
  ]);
  assert.equal(verdict.permission?.decision, "deny");
  assert.equal(verdict.updatedInput, undefined);
});

Deno.test("a hanging hook times out after its timeout and dies", async () => {
  await using dir = await tempDir("rein_hooks_");
  const pidFile = join(dir.path, "pid");
  const { runs, verdict } = await fire({ event: "Stop", stopHookActive: false }, [
    command(script("hang.sh", pidFile), 1),
  ]);
  assert.equal(runs[0]?.ending, "timed_out");
  assert.ok((runs[0]?.durationMs ?? 0) < 4000, `took ${runs[0]?.durationMs} ms`);
  assert.ok(await waitForDeath(await readPid(pidFile)));
  assert.equal(verdict.block, undefined);
  assert.match(verdict.userMessages[0] ?? "", /hang\.sh.* timed out after 1\.\d s and was killed/);
});

Deno.test("a hook waiting on a background child holding stdout times out, all of it dies", async () => {
  await using dir = await tempDir("rein_hooks_");
  const pidFile = join(dir.path, "pid");
  const { runs } = await fire({ event: "Stop", stopHookActive: false }, [
    command(script("hang_background.sh", pidFile), 1),
  ]);
  assert.equal(runs[0]?.ending, "timed_out");
  assert.ok((runs[0]?.durationMs ?? 0) < 4000, `took ${runs[0]?.durationMs} ms`);
  assert.ok(await waitForDeath(await readPid(pidFile)));
});

Deno.test("a hook that exits leaving a child on its stdout does not wedge rein", async () => {
  await using dir = await tempDir("rein_hooks_");
  const pidFile = join(dir.path, "pid");
  const { runs } = await fire({ event: "Stop", stopHookActive: false }, [
    command(script("leave_background.sh", pidFile)),
  ]);
  assert.deepEqual([runs[0]?.ending, runs[0]?.exitCode, runs[0]?.stdout], [
    "exited",
    0,
    "left a sleep behind\n",
  ]);
  assert.ok((runs[0]?.durationMs ?? 0) < 4000, `took ${runs[0]?.durationMs} ms`);
  assert.ok(await waitForDeath(await readPid(pidFile)));
});

Deno.test("aborting stops a running hook quickly and kills it", async () => {
  await using dir = await tempDir("rein_hooks_");
  const pidFile = join(dir.path, "pid");
  const controller = new AbortController();
  const started = performance.now();
  const fired = fire({ event: "Stop", stopHookActive: false }, [
    command(script("hang.sh", pidFile)),
  ], { signal: controller.signal });
  const pid = await readPid(pidFile);
  controller.abort();
  const { runs, verdict } = await fired;
  assert.equal(runs[0]?.ending, "cancelled");
  assert.ok(performance.now() - started < 5000);
  assert.ok(await waitForDeath(pid));
  assert.deepEqual(verdict.userMessages, [
    `Stop hook "${script("hang.sh", pidFile)}" was cancelled`,
  ]);
});

Deno.test("matching hooks run in parallel: each sees the other's marker", async () => {
  await using dir = await tempDir("rein_hooks_");
  const { runs } = await fire({ event: "UserPromptSubmit", prompt: "x" }, [
    command(script("wait_for_peer.sh", dir.path, "a", "b"), 10),
    command(script("wait_for_peer.sh", dir.path, "b", "a"), 10),
  ]);
  assert.deepEqual(runs.map((run) => [run.exitCode, run.stdout]), [
    [0, "a saw b\n"],
    [0, "b saw a\n"],
  ]);
});

Deno.test("identical commands in two groups run once", async () => {
  const hooks: Settings["hooks"] = {
    UserPromptSubmit: [
      { hooks: [command(script("plain_context.sh"))] },
      { matcher: "*", hooks: [command(script("plain_context.sh"))] },
    ],
  };
  const { runs, verdict } = await runHooks({
    hooks,
    event: "UserPromptSubmit",
    matchValue: undefined,
    input: buildHookInput(session, { event: "UserPromptSubmit", prompt: "x" }),
    cwd: projectDir,
    projectDir,
    env,
  });
  assert.equal(runs.length, 1);
  assert.deepEqual(verdict.additionalContext, ["The build command is: make all"]);
});
