import assert from "node:assert/strict";
import { join } from "node:path";
import { createBashTool } from "./bash.ts";
import { callContext, readPid, tempDir, waitForDeath } from "../../testing/tool_helpers.ts";

async function setprivExists(): Promise<boolean> {
  try {
    return (await new Deno.Command("setpriv", { args: ["--version"], stdout: "null" }).output())
      .success;
  } catch {
    return false;
  }
}

/** Fails instead of hanging when `promise` takes longer than `ms`. */
function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

Deno.test("bash returns stdout and stderr interleaved in the order written", async () => {
  await using dir = await tempDir();
  const bash = createBashTool({ workspace: dir.path });
  const result = await bash.run(
    { command: "echo one; echo two >&2; echo three; echo four >&2" },
    callContext(),
  );
  assert.deepEqual(result, { content: "one\ntwo\nthree\nfour", isError: false });
});

Deno.test("bash runs commands in the workspace", async () => {
  await using dir = await tempDir();
  await dir.write({ "hello.txt": "hi there\n" });
  const bash = createBashTool({ workspace: dir.path });
  const result = await bash.run({ command: "pwd; cat hello.txt" }, callContext());
  assert.equal(result.content, `${await Deno.realPath(dir.path)}\nhi there`);
});

Deno.test("bash reports a non-zero exit code as an error after the output", async () => {
  await using dir = await tempDir();
  const bash = createBashTool({ workspace: dir.path });
  const result = await bash.run({ command: "echo oops; exit 3" }, callContext());
  assert.deepEqual(result, { content: "oops\n\nExit code: 3", isError: true });
});

Deno.test("bash names the signal that killed the command", async () => {
  await using dir = await tempDir();
  const bash = createBashTool({ workspace: dir.path });
  const result = await bash.run({ command: "kill -TERM $$" }, callContext());
  assert.deepEqual(result, {
    content: "(No output)\n\nExit code: 143 (killed by SIGTERM)",
    isError: true,
  });
});

Deno.test("bash says when a successful command prints nothing", async () => {
  await using dir = await tempDir();
  const bash = createBashTool({ workspace: dir.path });
  assert.deepEqual(await bash.run({ command: "true" }, callContext()), {
    content: "(No output)",
    isError: false,
  });
});

Deno.test("bash keeps its line numbers in syntax errors and reports them", async () => {
  await using dir = await tempDir();
  const bash = createBashTool({ workspace: dir.path });
  const result = await bash.run({ command: "echo fine\nif then" }, callContext());
  assert.equal(result.isError, true);
  assert.match(result.content, /line 2: syntax error/);
  assert.match(result.content, /Exit code: 2$/);
});

Deno.test("bash timeout kills the whole process group", async () => {
  await using dir = await tempDir();
  const bash = createBashTool({ workspace: dir.path });
  const command = [
    "echo started",
    "sleep 100 & echo $! > background.pid",
    "(sleep 100; true) & echo $! > subshell.pid",
    "echo $$ > bash.pid",
    "sleep 100",
  ].join("\n");
  const result = await within(20_000, bash.run({ command, timeout: 500 }, callContext()));
  assert.deepEqual(result, { content: "started\n\nCommand timed out after 0.5s", isError: true });
  for (const name of ["background.pid", "subshell.pid", "bash.pid"]) {
    const pid = await readPid(join(dir.path, name));
    assert.ok(await waitForDeath(pid), `process ${pid} from ${name} survived the timeout`);
  }
});

Deno.test("bash cancelled through the signal returns promptly and kills the group", async () => {
  await using dir = await tempDir();
  const bash = createBashTool({ workspace: dir.path });
  const controller = new AbortController();
  const running = bash.run(
    { command: "sleep 100 & echo $! > child.pid; echo waiting; sleep 100", timeout: 600_000 },
    callContext(controller.signal),
  );
  const child = await readPid(join(dir.path, "child.pid"));
  controller.abort();
  const result = await within(10_000, running);
  assert.deepEqual(result, {
    content: "waiting\n\nCommand cancelled",
    isError: true,
    cancelled: true,
  });
  assert.ok(await waitForDeath(child), `background process ${child} survived the cancel`);
});

Deno.test("bash does not start a command whose call is already cancelled", async () => {
  await using dir = await tempDir();
  const bash = createBashTool({ workspace: dir.path });
  const controller = new AbortController();
  controller.abort();
  const result = await bash.run({ command: "touch ran" }, callContext(controller.signal));
  assert.deepEqual(result, {
    content: "Command cancelled before it started",
    isError: true,
    cancelled: true,
  });
  await assert.rejects(Deno.stat(join(dir.path, "ran")), Deno.errors.NotFound);
});

Deno.test("bash cancelled while it is still starting up does not run to the end", async () => {
  await using dir = await tempDir();
  // A fresh tool probes setpriv on its first run; abort during that probe, before any listener.
  const bash = createBashTool({ workspace: dir.path });
  const controller = new AbortController();
  const running = bash.run(
    { command: "sleep 100", timeout: 600_000 },
    callContext(controller.signal),
  );
  controller.abort();
  const result = await within(10_000, running);
  assert.equal(result.isError, true);
  assert.match(result.content, /cancelled/);
});

Deno.test("bash kills background processes left running when the command ends", async () => {
  await using dir = await tempDir();
  const bash = createBashTool({ workspace: dir.path });
  const result = await within(
    10_000,
    bash.run({ command: "sleep 100 & echo $! > bg.pid; echo done" }, callContext()),
  );
  assert.deepEqual(result, {
    content: "done\n\nBackground processes still running when the command ended were killed",
    isError: false,
  });
  assert.ok(await waitForDeath(await readPid(join(dir.path, "bg.pid"))));
});

Deno.test("bash returns even when an escaped process holds the output pipe open", async () => {
  await using dir = await tempDir();
  const bash = createBashTool({ workspace: dir.path });
  // Waits until the child has left the group (its own session) before finishing.
  const escapeThenFinish = "setsid sleep 100 & echo $! > escaped.pid\n" +
    'until [ "$(ps -o sid= -p $! | tr -d " ")" = "$!" ]; do sleep 0.01; done\necho done';
  const result = await within(
    10_000,
    bash.run({ command: escapeThenFinish }, callContext()),
  );
  const escaped = await readPid(join(dir.path, "escaped.pid"));
  try {
    assert.equal(result.content.split("\n")[0], "done");
    assert.equal(result.isError, false);
  } finally {
    Deno.kill(escaped, "SIGKILL");
  }
});

Deno.test("bash keeps the head and tail of long output with a note of what was cut", async () => {
  await using dir = await tempDir();
  const bash = createBashTool({ workspace: dir.path });
  const result = await bash.run({ command: "seq 1 100000" }, callContext());
  assert.equal(result.isError, false);
  assert.ok(result.content.length <= 30_200, `output is ${result.content.length} characters`);
  const match = result.content.match(
    /^([\s\S]*\n)\[… ([\d,]+) lines \(([\d,]+) characters\) cut …\]\n([\s\S]*)$/,
  );
  assert.ok(match, "the cut note sits between head and tail");
  const [, head = "", cutLines = "", cutChars = "", tail = ""] = match;
  assert.ok(head.startsWith("1\n2\n3\n"));
  assert.ok(tail.endsWith("99999\n100000"));
  const headLines = head.split("\n").length - 1;
  const tailLines = tail.split("\n").length;
  assert.equal(headLines + Number(cutLines.replaceAll(",", "")) + tailLines, 100_000);
  const totalChars = (await new Deno.Command("bash", { args: ["-c", "seq 1 100000 | wc -c"] })
    .output()).stdout;
  assert.equal(
    head.length + Number(cutChars.replaceAll(",", "")) + tail.length + 1,
    Number(new TextDecoder().decode(totalChars).trim()),
  );
});

Deno.test("bash without setpriv still runs commands", async () => {
  await using dir = await tempDir();
  const bash = createBashTool({ workspace: dir.path, usePdeathsig: false });
  assert.deepEqual(await bash.run({ command: "echo plain" }, callContext()), {
    content: "plain",
    isError: false,
  });
});

Deno.test({
  name: "bash under setpriv dies when the agent process is SIGKILLed",
  ignore: !(await setprivExists()),
  async fn() {
    await using dir = await tempDir();
    const script = join(dir.path, "agent.ts");
    await Deno.writeTextFile(
      script,
      `import { createBashTool } from ${JSON.stringify(new URL("./bash.ts", import.meta.url).href)};
const bash = createBashTool({ workspace: ${JSON.stringify(dir.path)} });
await bash.run({ command: "echo $$ > bash.pid; sleep 100" }, { signal: new AbortController().signal });
`,
    );
    const configPath = new URL("../../deno.json", import.meta.url).pathname;
    const agent = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", "--config", configPath, script],
      stdout: "null",
      stderr: "null",
    }).spawn();
    const bashPid = await readPid(join(dir.path, "bash.pid"), 20_000);
    agent.kill("SIGKILL");
    await agent.status;
    assert.ok(await waitForDeath(bashPid), `bash ${bashPid} outlived its agent`);
  },
});

Deno.test("bash summarizes a call by the command's first line", () => {
  const bash = createBashTool({ workspace: "/tmp" });
  assert.equal(bash.summarize({ command: "deno test -A\necho done" }), "deno test -A …");
  assert.equal(bash.summarize({ command: "x".repeat(100) }), `${"x".repeat(79)}…`);
});

Deno.test("a command longer than the kernel allows in one argument still runs", async () => {
  await using dir = await tempDir();
  const bash = createBashTool({ workspace: dir.path });
  const long = `echo ${"x".repeat(1024 * 1024)} | wc -c`;
  const result = await bash.run({ command: long }, callContext());
  assert.equal(result.isError, false, result.content);
  assert.equal(result.content.trim(), String(1024 * 1024 + 1));
});

Deno.test("bash keeps secret-looking variables from commands even unconfined", async () => {
  await using dir = await tempDir();
  const secrets = { ANTHROPIC_API_KEY: "sk-ant-test-secret", GITHUB_TOKEN: "ghp_test_secret" };
  const saved = Object.keys(secrets).map((name) => [name, Deno.env.get(name)] as const);
  for (const [name, value] of Object.entries(secrets)) Deno.env.set(name, value);
  try {
    const bash = createBashTool({ workspace: dir.path });
    const result = await bash.run(
      { command: 'echo "${ANTHROPIC_API_KEY-unset} ${GITHUB_TOKEN-unset} ${PATH:+path}"' },
      callContext(),
    );
    assert.deepEqual(result, { content: "unset unset path", isError: false });
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) Deno.env.delete(name);
      else Deno.env.set(name, value);
    }
  }
});

/** A stand-in sandbox that runs bash under `env`, recording what it was asked to run. */
function recordingSandbox(calls: { bashArgs: readonly string[]; readable: readonly string[] }[]) {
  return {
    description: "Commands run in a test sandbox.",
    argv(bashArgs: readonly string[], readable: readonly string[]) {
      calls.push({ bashArgs, readable });
      return ["env", "REIN_SANDBOXED=yes", "bash", ...bashArgs];
    },
  };
}

Deno.test("bash runs each command through its sandbox's command line", async () => {
  await using dir = await tempDir();
  const calls: { bashArgs: readonly string[]; readable: readonly string[] }[] = [];
  const bash = createBashTool({ workspace: dir.path, sandbox: recordingSandbox(calls) });
  // The sandbox is described in the system prompt from the session's record, not here.
  assert.doesNotMatch(bash.description, /test sandbox/);
  const result = await bash.run({ command: "echo $REIN_SANDBOXED; exit 4" }, callContext());
  assert.deepEqual(result, { content: "yes\n\nExit code: 4", isError: true });
  assert.deepEqual(calls, [{
    bashArgs: ["-c", "exec 2>&1; echo $REIN_SANDBOXED; exit 4"],
    readable: [],
  }]);
});

Deno.test("a long command's script file is one the sandbox must let bash read", async () => {
  await using dir = await tempDir();
  const calls: { bashArgs: readonly string[]; readable: readonly string[] }[] = [];
  const bash = createBashTool({ workspace: dir.path, sandbox: recordingSandbox(calls) });
  const long = `echo ${"x".repeat(1024 * 1024)} | wc -c`;
  const result = await bash.run({ command: long }, callContext());
  assert.deepEqual(result, { content: String(1024 * 1024 + 1), isError: false });
  const [call] = calls;
  assert.equal(call?.bashArgs.length, 1);
  assert.deepEqual(call?.readable, call?.bashArgs);
  await assert.rejects(Deno.stat(call?.bashArgs[0] ?? ""), Deno.errors.NotFound, "removed after");
});
