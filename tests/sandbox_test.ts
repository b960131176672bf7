/**
 * bash under the real bwrap sandbox: what commands can write, read, see and leave behind. Skipped
 * where bwrap cannot run (.ci/run installs it).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { resolveSandbox } from "../core/sandbox/resolve_sandbox.ts";
import {
  DEFAULT_SANDBOX_SETTINGS,
  type SandboxSettings,
} from "../core/sandbox/sandbox_settings.ts";
import { createBashTool } from "../core/tools/bash.ts";
import type { ToolResult } from "../core/tools/tool.ts";
import { callContext, readPid, type TempDir, tempDir } from "../testing/tool_helpers.ts";

const usable = await resolveSandbox({
  settings: DEFAULT_SANDBOX_SETTINGS,
  workspace: Deno.cwd(),
  env: {},
});
const ignore = !(usable.ok && usable.sandbox);
if (ignore) {
  console.warn(
    `Skipping the sandbox tests: ${usable.ok ? usable.notice : usable.error.message}`,
  );
}

/** A temporary directory outside /tmp, which the sandbox's private /tmp would hide anyway. */
async function varTempDir(): Promise<TempDir> {
  const path = await Deno.makeTempDir({ dir: "/var/tmp", prefix: "rein_sandbox_" });
  return {
    path,
    write: () => Promise.reject(new Error("Not needed")),
    [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }),
  };
}

/** A bash tool sandboxed over `workspace`, its log directory `.rein/` read-only. */
async function sandboxedBash(
  workspace: string,
  more: { home?: string; settings?: Partial<SandboxSettings> } = {},
) {
  const resolved = await resolveSandbox({
    settings: { ...DEFAULT_SANDBOX_SETTINGS, ...more.settings },
    workspace,
    readOnly: [join(workspace, ".rein")],
    home: more.home,
    env: Deno.env.toObject(),
  });
  assert.ok(resolved.ok && resolved.sandbox, "the sandbox resolves");
  const bash = createBashTool({ workspace, sandbox: resolved.sandbox });
  return (command: string, signal?: AbortSignal, timeout?: number): Promise<ToolResult> =>
    bash.run({ command, ...(timeout ? { timeout } : {}) }, callContext(signal));
}

/** Host processes running `sh -c '…; : marker'` (bwrap's and bash's own lines hold it too). */
async function processesWith(marker: string): Promise<number[]> {
  const pids: number[] = [];
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name) || Number(entry.name) === Deno.pid) continue;
    try {
      const cmdline = await Deno.readTextFile(`/proc/${entry.name}/cmdline`);
      if (cmdline.startsWith("sh\0") && cmdline.includes(marker)) pids.push(Number(entry.name));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

/** Polls until no process carries `marker`; returns those still alive after `ms`. */
async function survivors(marker: string, ms = 3000): Promise<number[]> {
  return await processesUntil(marker, (alive) => alive.length === 0, ms);
}

/** The processes showing `marker` once `done` holds of them, or when `ms` have passed. */
async function processesUntil(
  marker: string,
  done: (pids: number[]) => boolean,
  ms: number,
): Promise<number[]> {
  const deadline = Date.now() + ms;
  let alive = await processesWith(marker);
  while (!done(alive) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    alive = await processesWith(marker);
  }
  return alive;
}

function uniqueMarker(): string {
  return `rein-marker-${crypto.randomUUID()}`;
}

Deno.test({
  name: "sandboxed bash writes in the workspace but nowhere outside it",
  ignore,
  async fn() {
    await using workspace = await tempDir();
    await using sibling = await varTempDir();
    const run = await sandboxedBash(workspace.path);
    assert.deepEqual(await run("echo made > inside.txt && cat inside.txt"), {
      content: "made",
      isError: false,
    });
    const outside = await run(`echo escaped > ${sibling.path}/outside.txt`);
    assert.equal(outside.isError, true);
    assert.match(outside.content, /Read-only file system/);
    await assert.rejects(Deno.stat(join(sibling.path, "outside.txt")), Deno.errors.NotFound);
    assert.match((await run("touch /usr/rein-sandbox-test")).content, /Read-only file system/);
  },
});

Deno.test({
  name: "sandboxed bash has a private /tmp",
  ignore,
  async fn() {
    await using workspace = await tempDir();
    const run = await sandboxedBash(workspace.path);
    const name = `/tmp/${uniqueMarker()}`;
    assert.deepEqual(await run(`echo private > ${name} && cat ${name}`), {
      content: "private",
      isError: false,
    });
    await assert.rejects(Deno.stat(name), Deno.errors.NotFound);
    assert.equal((await run(`cat ${name}`)).isError, true, "nor does the next call see it");
  },
});

Deno.test({
  name: "sandboxed bash cannot read the credentials in the home directory",
  ignore,
  async fn() {
    await using workspace = await tempDir();
    await using home = await varTempDir();
    await Deno.mkdir(join(home.path, ".ssh"));
    await Deno.writeTextFile(join(home.path, ".ssh", "id_test"), "PRIVATE KEY");
    await Deno.writeTextFile(join(home.path, ".netrc"), "machine x password hunter2");
    await Deno.writeTextFile(join(home.path, "notes.txt"), "readable");
    const run = await sandboxedBash(workspace.path, { home: home.path });
    const key = await run(`cat ${home.path}/.ssh/id_test`);
    assert.equal(key.isError, true);
    assert.doesNotMatch(key.content, /PRIVATE KEY/);
    const netrc = await run(`cat ${home.path}/.netrc`);
    assert.equal(netrc.isError, true);
    assert.doesNotMatch(netrc.content, /hunter2/);
    assert.deepEqual(await run(`cat ${home.path}/notes.txt`), {
      content: "readable",
      isError: false,
    });
  },
});

Deno.test({
  name: "sandboxed bash does not see the API key",
  ignore,
  async fn() {
    await using workspace = await tempDir();
    const saved = Deno.env.get("ANTHROPIC_API_KEY");
    Deno.env.set("ANTHROPIC_API_KEY", "sk-ant-sandbox-test");
    try {
      const run = await sandboxedBash(workspace.path);
      assert.deepEqual(await run('echo "${ANTHROPIC_API_KEY-unset}"; env | grep -c sk-ant'), {
        content: "unset\n0\n\nExit code: 1",
        isError: true,
      });
    } finally {
      if (saved === undefined) Deno.env.delete("ANTHROPIC_API_KEY");
      else Deno.env.set("ANTHROPIC_API_KEY", saved);
    }
  },
});

Deno.test({
  name: "sandboxed bash cannot change the event log",
  ignore,
  async fn() {
    await using workspace = await tempDir();
    await workspace.write({ ".rein/events.jsonl": '{"type":"session.started"}\n' });
    const run = await sandboxedBash(workspace.path);
    const log = join(workspace.path, ".rein", "events.jsonl");
    for (
      const command of [
        "echo '{}' >> .rein/events.jsonl",
        "rm -f .rein/events.jsonl",
        "mv .rein .rein-old",
        "touch .rein/other",
      ]
    ) {
      const result = await run(command);
      assert.equal(result.isError, true, `${command}: ${result.content}`);
    }
    assert.equal(await Deno.readTextFile(log), '{"type":"session.started"}\n');
    assert.deepEqual(await run("wc -l < .rein/events.jsonl"), { content: "1", isError: false });
  },
});

Deno.test({
  name: "processes a sandboxed call starts, even in their own session, die when it returns",
  ignore,
  async fn() {
    await using workspace = await tempDir();
    const run = await sandboxedBash(workspace.path);
    const marker = uniqueMarker();
    const result = await run([
      `setsid sh -c 'sleep 300; : ${marker}' &`,
      `nohup sh -c 'sleep 300; : ${marker}' > /dev/null 2>&1 &`,
      `( ( sh -c 'sleep 300; : ${marker}' & ) & )`,
      `until [ "$(pgrep -fc '^sh -c sleep 300; : ${marker}')" = 3 ]; do sleep 0.01; done`,
      "echo started",
    ].join("\n"));
    assert.deepEqual(result, { content: "started", isError: false });
    assert.deepEqual(await survivors(marker), []);
  },
});

Deno.test({
  name: "a sandboxed call's timeout and cancellation kill every process it started",
  ignore,
  async fn() {
    await using workspace = await tempDir();
    const run = await sandboxedBash(workspace.path);
    const marker = uniqueMarker();
    const timedOut = await run(`setsid sh -c 'sleep 300; : ${marker}' & sleep 300`, undefined, 500);
    assert.deepEqual(timedOut, {
      content: "(No output)\n\nCommand timed out after 0.5s",
      isError: true,
    });
    assert.deepEqual(await survivors(marker), []);

    const controller = new AbortController();
    const running = run(
      `setsid sh -c 'sleep 300; : ${marker}' & echo $$ > started.pid; sleep 300`,
      controller.signal,
    );
    await readPid(join(workspace.path, "started.pid"));
    controller.abort();
    assert.equal((await running).cancelled, true);
    assert.deepEqual(await survivors(marker), []);
  },
});

Deno.test({
  name: "sandboxed processes die when the agent process is SIGKILLed",
  ignore,
  async fn() {
    await using workspace = await tempDir();
    const marker = uniqueMarker();
    const script = join(workspace.path, "agent.ts");
    const module = (path: string) => JSON.stringify(new URL(path, import.meta.url).href);
    await Deno.writeTextFile(
      script,
      `import { resolveSandbox, DEFAULT_SANDBOX_SETTINGS } from ${module("../core/sandbox/mod.ts")};
import { createBashTool } from ${module("../core/tools/bash.ts")};
const workspace = ${JSON.stringify(workspace.path)};
const resolved = await resolveSandbox({ settings: DEFAULT_SANDBOX_SETTINGS, workspace, env: {} });
if (!resolved.ok || !resolved.sandbox) throw new Error("no sandbox");
const bash = createBashTool({ workspace, sandbox: resolved.sandbox });
await bash.run(
  { command: "setsid sh -c 'sleep 300; : ${marker}' & echo $$ > bash.pid; sleep 300" },
  { signal: new AbortController().signal } as never,
);
`,
    );
    const agent = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--quiet",
        "--config",
        new URL("../deno.json", import.meta.url).pathname,
        script,
      ],
      stdout: "null",
      stderr: "inherit",
    }).spawn();
    await readPid(join(workspace.path, "bash.pid"), 20_000);
    // The escaped process runs (a bash still forking it may show the marker for a moment too;
    // `setsid` may not have become `sh` yet when the pid file is written).
    const escaped = await processesUntil(marker, (pids) => pids.length >= 1, 3000);
    assert.ok(escaped.length >= 1, "the escaped process runs");
    agent.kill("SIGKILL");
    await agent.status;
    assert.deepEqual(await survivors(marker), []);
  },
});

Deno.test({
  name: "the network setting decides whether a sandboxed command can connect",
  ignore,
  async fn() {
    await using workspace = await tempDir();
    using listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const accepting = (async () => {
      for await (const connection of listener) connection.close();
    })().catch(() => {});
    const connect = `exec 3<>/dev/tcp/127.0.0.1/${listener.addr.port} && echo connected`;
    const online = await sandboxedBash(workspace.path);
    assert.deepEqual(await online(connect), { content: "connected", isError: false });
    const offline = await sandboxedBash(workspace.path, { settings: { network: false } });
    const refused = await offline(connect);
    assert.equal(refused.isError, true);
    assert.doesNotMatch(refused.content, /connected/);
    listener.close();
    await accepting;
  },
});

Deno.test({
  name: "a 1 MB command runs in the sandbox",
  ignore,
  async fn() {
    await using workspace = await tempDir();
    const run = await sandboxedBash(workspace.path);
    const result = await run(`echo ${"x".repeat(1024 * 1024)} | wc -c`);
    assert.deepEqual(result, { content: String(1024 * 1024 + 1), isError: false });
  },
});
