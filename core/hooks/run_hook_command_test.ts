import assert from "node:assert/strict";
import {
  HOOK_OUTPUT_MAX_CHARS,
  type HookCommandOptions,
  runHookCommand,
} from "./run_hook_command.ts";

function options(command: string, more: Partial<HookCommandOptions> = {}): HookCommandOptions {
  return {
    command,
    input: { hook_event_name: "Stop", stop_hook_active: false },
    cwd: Deno.cwd(),
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
    projectDir: "/the/project",
    timeoutMs: 10_000,
    ...more,
  };
}

Deno.test("runHookCommand gives the input as JSON on stdin and collects both streams", async () => {
  const run = await runHookCommand(options("cat; echo; echo oops >&2; exit 3"));
  assert.equal(run.ending, "exited");
  assert.equal(run.exitCode, 3);
  assert.equal(run.stdout, '{"hook_event_name":"Stop","stop_hook_active":false}\n');
  assert.equal(run.stderr, "oops\n");
  assert.ok(run.durationMs >= 0);
});

Deno.test("runHookCommand runs in cwd with exactly the given env and CLAUDE_PROJECT_DIR", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const run = await runHookCommand(
      options('pwd; echo "$CLAUDE_PROJECT_DIR|${HOME-unset}|$GREETING"', {
        cwd: dir,
        env: { PATH: "/usr/bin:/bin", GREETING: "hi" },
      }),
    );
    assert.equal(run.stdout, `${await Deno.realPath(dir)}\n/the/project|unset|hi\n`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runHookCommand ignores a hook that exits without reading a large input", async () => {
  const run = await runHookCommand(
    options("exit 0", { input: { prompt: "x".repeat(1_000_000) } }),
  );
  assert.deepEqual([run.ending, run.exitCode], ["exited", 0]);
});

Deno.test("runHookCommand keeps the head of long output and notes the cut", async () => {
  const run = await runHookCommand(options("head -c 100000 /dev/zero | tr '\\0' a"));
  assert.equal(run.stdout.slice(0, HOOK_OUTPUT_MAX_CHARS), "a".repeat(HOOK_OUTPUT_MAX_CHARS));
  assert.match(
    run.stdout.slice(HOOK_OUTPUT_MAX_CHARS),
    /^\n\[… 34464 more characters cut: rein keeps the first 65536 of a hook's output\]$/,
  );
});

Deno.test("runHookCommand reports a command that cannot start, without throwing", async () => {
  const run = await runHookCommand(options("true", { cwd: "/no/such/dir" }));
  assert.equal(run.ending, "failed_to_start");
  assert.equal(run.exitCode, null);
  assert.match(run.stderr, /^Cannot start hook command in "\/no\/such\/dir": /);
});

Deno.test("runHookCommand does not start when already aborted", async () => {
  const run = await runHookCommand(options("true", { signal: AbortSignal.abort() }));
  assert.deepEqual(run, {
    exitCode: null,
    stdout: "",
    stderr: "",
    durationMs: 0,
    ending: "cancelled",
  });
});

Deno.test("runHookCommand kills a hook that outlives its timeout", async () => {
  const run = await runHookCommand(options("echo started; sleep 30", { timeoutMs: 200 }));
  assert.equal(run.ending, "timed_out");
  assert.equal(run.exitCode, null);
  assert.equal(run.stdout, "started\n");
  assert.ok(run.durationMs < 5000, `took ${run.durationMs} ms`);
});
