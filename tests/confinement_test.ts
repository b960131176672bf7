/**
 * The agent runs confined: the flags the launcher computes keep a process from reading, writing,
 * reaching or starting anything outside its set, and they are enough for a real run of
 * the `agent` task against the fake model server. Also how the launcher passes on exit codes and
 * signals.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { message, startFakeAnthropic, text, toolUse } from "../testing/fake_anthropic.ts";
import type { FakeScriptFn } from "../testing/fake_anthropic.ts";
import { toolResultCount } from "../testing/scenarios.ts";
import { childEnv, readLogLines } from "./_cli.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const KEY = "sk-ant-api03-CONFINEMENT-0123456789abcdef";

/** A temporary directory holding a workspace, a temp dir, a home and a file outside them all. */
async function sandbox(): Promise<
  { base: string; workspace: string; tmp: string; home: string; outside: string } & AsyncDisposable
> {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-confinement-" }));
  const dirs = {
    workspace: join(base, "project"),
    tmp: join(base, "tmp"),
    home: join(base, "home"),
  };
  for (const dir of Object.values(dirs)) await Deno.mkdir(dir);
  await Deno.mkdir(join(dirs.home, ".claude"));
  await Deno.writeTextFile(join(dirs.home, ".claude", "settings.json"), "{}\n");
  await Deno.writeTextFile(join(dirs.workspace, "inside.txt"), "inside\n");
  const outside = join(base, "outside.txt");
  await Deno.writeTextFile(outside, "outside\n");
  return {
    base,
    ...dirs,
    outside,
    [Symbol.asyncDispose]: () => Deno.remove(base, { recursive: true }),
  };
}

/** Run the `agent` task from `cwd` (so its workspace defaults to `cwd`), as a user does. */
async function agentTask(args: string[], cwd: string, env: Record<string, string>) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "--cwd", ROOT, "agent", ...args],
    cwd,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

/** What each attempt of the probe did: "ok", or the name of the error it threw. */
const PROBE = `
const [workspace, home, outside, modelHost, otherHost] = Deno.args;
const attempts = {
  readOutside: () => Deno.readTextFile(outside),
  writeOutside: () => Deno.writeTextFile(outside, "changed"),
  readSystemFile: () => Deno.readTextFile("/etc/passwd"),
  listRoot: () => Array.fromAsync(Deno.readDir("/")),
  readWorkspace: () => Deno.readTextFile(workspace + "/inside.txt"),
  writeLogDir: async () => {
    await Deno.mkdir(workspace + "/.rein", { recursive: true });
    await Deno.writeTextFile(workspace + "/.rein/probe", "x");
  },
  readUserSettings: () => Deno.readTextFile(home + "/.claude/settings.json"),
  writeUserSettings: () => Deno.writeTextFile(home + "/.claude/settings.json", "{}"),
  tempFile: async () => Deno.remove(await Deno.makeTempFile()),
  fetchOtherHost: () => fetch("http://" + otherHost + "/"),
  fetchModelHost: () => fetch("http://" + modelHost + "/"),
  // Every variable: commands get the environment, rebuilt by the agent without secrets.
  envAll: () => Deno.env.toObject(),
  runOther: () => new Deno.Command("ls").output(),
  runBash: () => new Deno.Command("bash", { args: ["-c", "true"] }).output(),
  hostname: () => Deno.hostname(),
};
const outcome = {};
for (const [name, attempt] of Object.entries(attempts)) {
  try {
    await attempt();
    outcome[name] = "ok";
  } catch (error) {
    outcome[name] = error.name;
  }
}
console.log(JSON.stringify(outcome));
`;

Deno.test("under the flags the agent task shows, a script reaches only the workspace, ~/.claude, temp, the model host and the agent's programs", async () => {
  await using box = await sandbox();
  const env = childEnv({
    HOME: box.home,
    TMPDIR: box.tmp,
    ANTHROPIC_BASE_URL: "http://127.0.0.1:9",
    ANTHROPIC_API_KEY: KEY,
    // The home is a fake one: keep Deno's cache where it is.
    DENO_DIR: Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/root", ".cache", "deno"),
  });
  const shown = await agentTask(["--show-permissions"], box.workspace, env);
  assert.equal(shown.code, 0, shown.stderr);
  const flags = shown.stdout.trim().split("\n");
  assert.ok(!flags.some((flag) => flag === "--allow-all" || flag === "-A"), shown.stdout);
  assert.ok(flags.includes(`--allow-net=127.0.0.1:9`), shown.stdout);

  const probe = join(box.base, "probe.js");
  await Deno.writeTextFile(probe, PROBE);
  const run = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--no-config",
      ...flags,
      probe,
      box.workspace,
      box.home,
      box.outside,
      "127.0.0.1:9",
      "127.0.0.1:10",
    ],
    cwd: box.workspace,
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  assert.equal(run.code, 0, decoder.decode(run.stderr));
  assert.deepEqual(JSON.parse(decoder.decode(run.stdout)), {
    readOutside: "NotCapable",
    writeOutside: "NotCapable",
    readSystemFile: "NotCapable",
    listRoot: "NotCapable",
    readWorkspace: "ok",
    writeLogDir: "ok",
    readUserSettings: "ok",
    writeUserSettings: "NotCapable",
    tempFile: "ok",
    fetchOtherHost: "NotCapable",
    // Allowed: nothing listens on port 9, so the connection itself fails.
    fetchModelHost: "TypeError",
    envAll: "ok",
    runOther: "NotCapable",
    runBash: "ok",
    hostname: "NotCapable",
  });
  assert.equal(await Deno.readTextFile(box.outside), "outside\n");
});

/** write_file, edit_file, then bash printing the file; then "Done". */
const editAndRun: FakeScriptFn = (request) => {
  const calls = [
    toolUse("toolu_write", "write_file", { path: "notes/todo.txt", content: "alpha\nbeta\n" }),
    toolUse("toolu_edit", "edit_file", {
      path: "notes/todo.txt",
      old_string: "beta",
      new_string: "beta, edited under the launcher",
    }),
    toolUse("toolu_bash", "bash", { command: "cat notes/todo.txt" }),
  ];
  const call = calls[toolResultCount(request.body)];
  return call ? message([text("Working."), call]) : message("Done");
};

/** The command line of the live process whose arguments include `marker`, from /proc. */
async function commandLineWith(marker: string): Promise<string[] | undefined> {
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const raw = await Deno.readTextFile(`/proc/${entry.name}/cmdline`).catch(() => "");
    const args = raw.split("\0").filter(Boolean);
    // rein from source, or the cached bundle of the checkout `deno task agent` starts when fresh.
    const rein = (arg: string) =>
      arg.endsWith("cli/main.ts") || /\/\.bundle-at-\w+\/main\.js$/.test(arg);
    if (args.includes(marker) && args.some(rein)) return args;
  }
  return undefined;
}

Deno.test("`deno task agent -p` runs a turn with an edit and a bash call under the narrowed flags", async () => {
  await using box = await sandbox();
  let agentArgs: string[] | undefined;
  await using fake = await startFakeAnthropic({
    script: editAndRun,
    onRequest: async (request) => {
      if (request.seq === 1 && (await Deno.stat("/proc").catch(() => undefined))) {
        agentArgs = await commandLineWith(box.workspace);
      }
    },
  });
  const env = childEnv({
    ANTHROPIC_BASE_URL: fake.url,
    ANTHROPIC_API_KEY: KEY,
    TMPDIR: box.tmp,
  });
  const result = await agentTask(
    [
      "-p",
      "edit the notes and show them",
      "--workspace",
      box.workspace,
      "--permission-mode",
      "bypassPermissions",
    ],
    box.base,
    env,
  );
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "Done\n");
  assert.equal(
    await Deno.readTextFile(join(box.workspace, "notes", "todo.txt")),
    "alpha\nbeta, edited under the launcher\n",
  );
  const log = await readLogLines(join(box.workspace, ".rein", "events.jsonl"));
  const completed = log.filter((event) => event.type === "tool.completed");
  assert.deepEqual(completed.map((event) => event.data.isError), [false, false, false]);
  const bash = JSON.stringify(completed[2]?.data);
  assert.match(bash, /beta, edited under the launcher/);
  assert.ok(!JSON.stringify(log).includes(KEY), "the API key reached the log");
  if (await Deno.stat("/proc").catch(() => undefined)) {
    assert.ok(agentArgs, "no agent process seen at the first request");
    assert.ok(!agentArgs.includes("--allow-all") && !agentArgs.includes("-A"), agentArgs.join(" "));
    assert.ok(agentArgs.includes(`--allow-net=${new URL(fake.url).host}`), agentArgs.join(" "));
    assert.ok(
      agentArgs.includes("--allow-run=bash,bwrap,setpriv,setsid,rg,git"),
      agentArgs.join(" "),
    );
  }
});

/** Start the launcher on a module of the test's own, which prints "ready" and waits. */
async function launchFixture(box: { base: string; workspace: string }, code: string) {
  const entry = join(box.base, "fixture.js");
  await Deno.writeTextFile(entry, code);
  // cli/launch.ts, the full launcher the shell launcher hands unusual cases to.
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-env",
      "--allow-run",
      "--no-prompt",
      "--quiet",
      "--no-config",
      join(ROOT, "cli", "launch.ts"),
      "--entry",
      entry,
      "--workspace",
      box.workspace,
    ],
    env: childEnv({ ANTHROPIC_API_KEY: KEY }),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes("\n")) {
    const { value, done } = await lines.read();
    if (done) throw new Error(`The fixture ended before it was ready: ${seen}`);
    seen += value;
  }
  const pid = Number(/ready (\d+)/.exec(seen)?.[1]);
  return { child, pid, rest: lines };
}

const WAITING = `
Deno.addSignalListener("SIGTERM", () => { console.log("got SIGTERM"); Deno.exit(42); });
Deno.addSignalListener("SIGINT", () => { console.log("got SIGINT"); });
console.log("ready " + Deno.pid);
setTimeout(() => Deno.exit(3), 20_000);
`;

Deno.test("the launcher ignores SIGINT, passes SIGTERM on and exits with rein's code", async () => {
  await using box = await sandbox();
  const { child, rest } = await launchFixture(box, WAITING);
  child.kill("SIGINT");
  await new Promise((resolve) => setTimeout(resolve, 200));
  child.kill("SIGTERM");
  const status = await child.status;
  let printed = "";
  for (let read = await rest.read(); !read.done; read = await rest.read()) printed += read.value;
  await child.stderr.cancel();
  assert.equal(status.code, 42);
  // SIGINT came to the launcher alone (from a terminal, rein gets its own): it was not passed on.
  assert.equal(printed, "got SIGTERM\n");
});

Deno.test("killing the launcher kills rein too", {
  ignore: !(await Deno.stat("/proc").catch(() => undefined)),
}, async () => {
  await using box = await sandbox();
  const { child, pid, rest } = await launchFixture(box, WAITING);
  assert.ok(pid > 0);
  child.kill("SIGKILL");
  await child.status;
  await rest.cancel();
  await child.stderr.cancel();
  const deadline = Date.now() + 5_000;
  while (await Deno.stat(`/proc/${pid}`).catch(() => undefined)) {
    // A zombie (state Z) has ended: it only waits for its reaper.
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`).catch(() => "");
    if (/\) Z /.test(stat)) break;
    assert.ok(Date.now() < deadline, `rein (pid ${pid}) outlived its launcher`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
});

Deno.test(
  "under the launcher, sandboxed bash still cannot read ~/.ssh, see the API key or write outside",
  {
    ignore: !(await new Deno.Command("bwrap", { args: ["--version"] }).output().then(
      (out) => out.success,
      () => false,
    )),
  },
  async () => {
    await using box = await sandbox();
    // A home outside /tmp, which the sandbox replaces anyway: only hiding keeps ~/.ssh out.
    const home = await Deno.realPath(
      await Deno.makeTempDir({ dir: "/var/tmp", prefix: "rein-home-" }),
    );
    await using _home = { [Symbol.asyncDispose]: () => Deno.remove(home, { recursive: true }) };
    await Deno.mkdir(join(home, ".ssh"));
    await Deno.writeTextFile(join(home, ".ssh", "id_test"), "PRIVATE-KEY-MATERIAL\n");
    const command = `cat ~/.ssh/id_test; echo "key=[$ANTHROPIC_API_KEY]"; ` +
      `echo x > ${box.outside}; echo done`;
    await using fake = await startFakeAnthropic({
      script: (request) =>
        toolResultCount(request.body) === 0
          ? message([toolUse("toolu_bash", "bash", { command })])
          : message("Done"),
    });
    const env = childEnv({
      ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_API_KEY: KEY,
      TMPDIR: box.tmp,
      HOME: home,
      DENO_DIR: Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/root", ".cache", "deno"),
    });
    const result = await agentTask(
      ["-p", "try", "--workspace", box.workspace, "--allowedTools", "Bash"],
      box.base,
      env,
    );
    assert.equal(result.code, 0, result.stderr);
    const log = await readLogLines(join(box.workspace, ".rein", "events.jsonl"));
    const output = String(log.find((event) => event.type === "tool.completed")?.data.content);
    assert.doesNotMatch(output, /PRIVATE-KEY-MATERIAL/);
    assert.match(output, /key=\[\]/);
    assert.match(output, /done/);
    assert.equal(await Deno.readTextFile(box.outside), "outside\n");
  },
);
