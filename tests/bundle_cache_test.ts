/**
 * The cached bundle `deno task agent` starts (cli/bundle_cache.ts, cli/launch.sh `--bundle-cache`),
 * in a temporary copy of the checkout: used when fresh, not used once any input changed (until a
 * refresh has checked or rebuilt it), never used half-written, not used with REIN_FROM_SOURCE.
 * Which code ran is seen from the run itself: the bundle under test is marked (a line it prints on
 * stderr), and an edit to cli/version.ts shows in `--version`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { message, startFakeAnthropic, toolUse } from "../testing/fake_anthropic.ts";
import { firstUserText, sequentialBash } from "../testing/scenarios.ts";
import { killProcessesIn } from "../testing/tool_helpers.ts";
import { childEnv, runCli } from "./_cli.ts";
import { eventsOf, readLog, untilLogged } from "./_team_e2e.ts";

const ROOT = decodeURIComponent(new URL("..", import.meta.url).pathname).replace(/\/$/, "");
/** What the copy holds: what the bundle is made of, and rein's skills. */
const COPIED = ["cli", "core", "events", "skills", "deno.json", "deno.lock"];
const MARK = "rein-test: the cached bundle runs";
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/**
 * The copy of the checkout the tests share (its modules then compiled once, and a bundle of its
 * inputs built once for the tests that need one), made by the first test to ask and removed when
 * this file's tests end. Each test leaves its inputs as they were and no refresh running.
 */
let shared: Promise<string> | undefined;

async function sharedCopy(): Promise<string> {
  shared ??= (async () => {
    const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-bundle-cache-" }));
    globalThis.addEventListener("unload", () => Deno.removeSync(root, { recursive: true }));
    const copied = await new Deno.Command("cp", {
      args: ["-R", ...COPIED.map((name) => join(ROOT, name)), root],
      stderr: "piped",
    }).output();
    assert.ok(copied.success, decode(copied.stderr));
    return root;
  })();
  const root = await shared;
  await waitForRefresh(root);
  return root;
}

/** The shared copy as a fresh checkout has it: no cache, no bundle. */
async function copyWithoutBundles(): Promise<string> {
  const root = await sharedCopy();
  for await (const entry of Deno.readDir(root)) {
    if (entry.name === ".bundle-cache" || entry.name.startsWith(".bundle-at-")) {
      await Deno.remove(join(root, entry.name), { recursive: true });
    }
  }
  return root;
}

/**
 * Run `test` on the shared copy (see {@link sharedCopy}); then wait for the refresh it may have
 * started, even when it failed.
 */
async function onCopy(root: string, test: () => Promise<void>): Promise<void> {
  try {
    await test();
  } finally {
    await waitForRefresh(root);
  }
}

/** The `deno` arguments that run the copy's refresh (cli/bundle_cache.ts) for `deno`. */
function refreshArgs(root: string, deno: string): string[] {
  return [
    "run",
    "--quiet",
    "--no-config",
    "--allow-read",
    `--allow-write=${root}`,
    "--allow-run",
    "--allow-env",
    join(root, "cli", "bundle_cache.ts"),
    deno,
  ];
}

/** Run the copy's refresh in the foreground, as the launcher starts it; resolves to its outcome. */
async function refresh(root: string, deno = Deno.execPath()): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: refreshArgs(root, deno),
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, decode(out.stderr));
  return decode(out.stdout).trim().split(" ").slice(1).join(" ");
}

/** The KEY of the copy's current bundle. */
async function currentKey(root: string): Promise<string> {
  return (await Deno.readTextFile(join(root, ".bundle-cache", "current"))).trim();
}

/** Mark the copy's current bundle: it prints {@link MARK} on stderr when it starts. */
async function markBundle(root: string): Promise<void> {
  const main = join(root, `.bundle-at-${await currentKey(root)}`, "main.js");
  await Deno.writeTextFile(
    main,
    `console.error(${JSON.stringify(MARK)});\n${await Deno.readTextFile(main)}`,
  );
}

/** `sh cli/launch.sh ARGS` of the copy, as the `agent` task runs it (REIN_DENO: this Deno). */
async function launch(
  root: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command("sh", {
    args: [join(root, "cli", "launch.sh"), ...args],
    cwd: root,
    env: childEnv({ REIN_DENO: Deno.execPath(), ...env }),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
}

/** Whether `deno task agent --version` in the copy ran the marked bundle (and printed `version`). */
async function ranMarked(root: string, version = "0.1.0", env: Record<string, string> = {}) {
  const run = await launch(root, ["--bundle-cache", "--version"], env);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.trim(), version);
  return run.stderr.includes(MARK);
}

/** Hold the copy's refresh lock with this (live) process, so no refresh starts. */
async function holdLock(root: string): Promise<AsyncDisposable> {
  const lock = join(root, ".bundle-cache", "lock");
  await Deno.writeTextFile(lock, `${Deno.pid}\n`);
  return { [Symbol.asyncDispose]: () => Deno.remove(lock) };
}

/** Until no refresh of the copy is running (its lock is gone or held by a process that is not). */
async function waitForRefresh(root: string): Promise<void> {
  const lock = join(root, ".bundle-cache", "lock");
  for (let i = 0; i < 1200; i++) {
    const pid = (await Deno.readTextFile(lock).catch(() => "")).trim();
    if (pid === "" || !await Deno.stat(`/proc/${pid}`).then(() => true, () => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("The refresh did not end in 2 minutes");
}

/** The outcomes in the copy's refresh log, one a line. */
async function refreshLog(root: string): Promise<string[]> {
  const log = await Deno.readTextFile(join(root, ".bundle-cache", "refresh.log")).catch(() => "");
  return log.split("\n").filter(Boolean).map((line) => line.split(" ").slice(1).join(" "));
}

/**
 * Run `started` (a launch that starts a refresh), then wait until that refresh has ended; resolves
 * to its outcome, from its log.
 */
async function refreshAfter(root: string, started: () => Promise<unknown>): Promise<string> {
  const before = (await refreshLog(root)).length;
  await started();
  for (let i = 0; i < 1800; i++) {
    const log = await refreshLog(root);
    if (log.length > before) return log.at(-1) ?? "";
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("The refresh did not end in 3 minutes");
}

Deno.test("the cached bundle runs while fresh; a change to any of its inputs (a module, a JSON or text import, deno.json, deno.lock, cli/build.ts, a removed module, another Deno) runs from source until a refresh has checked it; REIN_FROM_SOURCE and a launcher without --bundle-cache run from source", async () => {
  const root = await sharedCopy();
  await onCopy(root, async () => {
    // Built, or (when another test of this file ran first) the one a test built for these inputs.
    assert.match(await refresh(root), /^(built|restamped) [0-9a-f]{20}$/);
    const key = await currentKey(root);
    await markBundle(root);
    assert.ok(await ranMarked(root), "fresh: the bundle runs");
    assert.ok(!await ranMarked(root, "0.1.0", { REIN_FROM_SOURCE: "1" }), "REIN_FROM_SOURCE=1");
    assert.ok(await ranMarked(root, "0.1.0", { REIN_FROM_SOURCE: "0" }), "REIN_FROM_SOURCE=0");
    const plain = await launch(root, ["--version"]);
    assert.ok(!plain.stderr.includes(MARK), "without --bundle-cache the launcher runs cli/main.ts");
    // A real session from the cached bundle: its flags let it read its chunks and rein's skills.
    await using fake = await startFakeAnthropic({ script: sequentialBash(1, () => "echo hi") });
    const session = await launch(root, [
      "--bundle-cache",
      "agent",
      "-p",
      "go",
      "--allowedTools",
      "Bash",
    ], {
      ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_API_KEY: "sk-bundle-cache-test-key",
    });
    assert.equal(session.code, 0, session.stderr);
    assert.ok(session.stderr.includes(MARK));
    assert.equal(session.stdout, "Done: ran 1 commands\n");
    assert.match(JSON.stringify(fake.requests[0]?.body?.system), /investigate-a-run/);

    const inputs: [string, (text: string) => string][] = [
      ["core/harness.ts", (text) => `${text}// edited\n`],
      ["cli/view/page.css", (text) => `${text}/* edited */\n`],
      ["core/tools/base_tool_definitions.json", (text) => `${text}\n`],
      ["deno.json", (text) => `${text}\n`],
      ["deno.lock", (text) => `${text}\n`],
      ["cli/build.ts", (text) => `${text}// edited\n`],
    ];
    {
      // No refresh may start (the lock is held), so each edit is seen by the launcher's check alone.
      await using _lock = await holdLock(root);
      for (const [path, edit] of inputs) {
        const file = join(root, path);
        const original = await Deno.readTextFile(file);
        await Deno.writeTextFile(file, edit(original));
        assert.ok(!await ranMarked(root), `${path} edited: from source`);
        // Its content back as it was: still from source until a refresh compares the content.
        await Deno.writeTextFile(file, original);
        assert.ok(!await ranMarked(root), `${path} restored: from source until refreshed`);
      }
    }
    // The launcher starts the refresh; it finds the content of the bundle in place: no build.
    const outcome = await refreshAfter(root, async () => assert.ok(!await ranMarked(root)));
    assert.equal(outcome, `restamped ${key}`);
    assert.ok(await ranMarked(root), "the inputs restored and refreshed: the bundle runs");
    {
      await using _lock = await holdLock(root);
      const module = join(root, "cli", "version.ts");
      await Deno.rename(module, `${module}.away`);
      const run = await launch(root, ["--bundle-cache", "--version"]);
      assert.notEqual(run.code, 0, "from source, without the module");
      assert.ok(!run.stderr.includes(MARK), "a removed module: not the bundle");
      await Deno.rename(`${module}.away`, module);
      // Another Deno (as the launcher names it) than the bundle was built for.
      const other = join(root, "deno");
      await Deno.symlink(Deno.execPath(), other);
      assert.ok(!await ranMarked(root, "0.1.0", { REIN_DENO: other }), "another Deno");
    }
    // A bundle for a Deno named by a link: pointing the link at another binary makes it stale.
    const bin = join(root, "bin");
    await Deno.mkdir(bin);
    const link = join(bin, "deno");
    await Deno.symlink(Deno.execPath(), link);
    assert.match(await refresh(root, link), /^built /);
    const bundled = async () => {
      const run = await launch(root, ["--bundle-cache", "--show-permissions", "agent"], {
        REIN_DENO: link,
      });
      return run.stdout.includes(`/.bundle-at-${await currentKey(root)}`);
    };
    {
      await using _lock = await holdLock(root);
      assert.ok(await bundled(), "built for the link");
      await Deno.symlink(Deno.execPath(), join(root, "deno-2"));
      await Deno.remove(link);
      await Deno.symlink(join(root, "deno-2"), link);
      assert.ok(!await bundled(), "the link now names another binary");
    }
    for (const made of ["bin", "deno", "deno-2"]) {
      await Deno.remove(join(root, made), { recursive: true });
    }
  });
});

Deno.test("an edit runs from source at once, and the refresh the launcher starts puts a bundle of the edited sources in place, which runs next", async () => {
  const root = await sharedCopy();
  const version = join(root, "cli", "version.ts");
  const original = await Deno.readTextFile(version);
  await onCopy(root, async () => {
    await refresh(root);
    const old = await currentKey(root);
    await markBundle(root);
    await Deno.writeTextFile(version, 'export const REIN_VERSION = "0.1.0-edited";\n');
    const outcome = await refreshAfter(root, async () => {
      assert.ok(!await ranMarked(root, "0.1.0-edited"), "the edit runs at once, from source");
    });
    assert.match(outcome, /^built [0-9a-f]{20}$/);
    assert.notEqual(await currentKey(root), old);
    // The new bundle (unmarked) runs the edited code.
    const run = await launch(root, ["--bundle-cache", "--show-permissions", "agent"]);
    assert.match(run.stdout, new RegExp(`/\\.bundle-at-${await currentKey(root)}\\b`));
    assert.ok(!await ranMarked(root, "0.1.0-edited"));
  }).finally(() => Deno.writeTextFile(version, original));
});

Deno.test("a bundle is never run half-written: a refresh killed mid-way leaves none, a folder without its stamp is not run, and the next refresh takes over the dead one's lock", async () => {
  const root = await copyWithoutBundles();
  await onCopy(root, async () => {
    const cache = join(root, ".bundle-cache");
    // A refresh killed once its work folder is there (before anything is put in place).
    const child = new Deno.Command(Deno.execPath(), {
      args: refreshArgs(root, Deno.execPath()),
      stdout: "null",
      stderr: "null",
    }).spawn();
    const started = async () =>
      (await Array.fromAsync(Deno.readDir(cache)).catch(() => [])).some((e) =>
        e.name.startsWith("build-")
      );
    let exited = false;
    child.status.then(() => exited = true);
    while (!await started()) {
      assert.ok(!exited, "the refresh ended before it began its work");
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    child.kill("SIGKILL");
    await child.status;
    assert.equal(await Deno.stat(join(cache, "current")).catch(() => undefined), undefined);
    // Its lock names a process that is gone: held by it, the launcher would never refresh again.
    assert.equal((await Deno.readTextFile(join(cache, "lock"))).trim(), String(child.pid));

    // A complete bundle, then its stamp gone (as a folder that was never finished would be).
    assert.match(await refresh(root), /^built /, "the dead refresh's lock is taken over");
    assert.deepEqual(
      (await Array.fromAsync(Deno.readDir(cache))).filter((e) => e.name.startsWith("build-")),
      [],
      "the dead refresh's work folder is removed",
    );
    await markBundle(root);
    assert.ok(await ranMarked(root));
    {
      await using _lock = await holdLock(root);
      const stamp = join(root, `.bundle-at-${await currentKey(root)}`, "stamp");
      await Deno.rename(stamp, `${stamp}.away`);
      assert.ok(!await ranMarked(root), "no stamp: not run");
      await Deno.rename(`${stamp}.away`, stamp);
      assert.ok(await ranMarked(root));
      // A refresh with the lock held by a live process does nothing.
      assert.equal(await refresh(root), "busy");
    }
  });
});

Deno.test("a lead started from the cached bundle starts its teammates from it: the teammate's process runs it, makes its bash call, and the team's log replays", async () => {
  const root = await sharedCopy();
  await refresh(root);
  const bundle = join(root, `.bundle-at-${await currentKey(root)}`);
  const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-bundle-team-" }));
  const log = join(workspace, ".rein", "events.jsonl");
  let teammateCommand = "";
  await using fake = await startFakeAnthropic({
    script: (request) => {
      const messages = request.body?.messages ?? [];
      if (firstUserText(messages) === "Run one command") {
        if (messages.length > 1) return message("Ran it.");
        return message([toolUse("toolu_echo", "bash", { command: "echo from-alice > alice.txt" })]);
      }
      if (messages.length > 1) return message("Team done.");
      return message([
        toolUse("toolu_alice", "spawn_teammate", { name: "alice", prompt: "Run one command" }),
      ]);
    },
    // The lead's answer after the spawn waits for the teammate's turn, and sees its process.
    onRequest: async (request) => {
      const messages = request.body?.messages ?? [];
      if (firstUserText(messages) !== "go team" || messages.length === 1) return;
      const started = await untilLogged(
        log,
        "alice's turn",
        (events) =>
          events.some((e) => e.agent === "alice" && e.type === "turn.ended")
            ? eventsOf(events, "agent.started").find((e) => e.agent === "alice")
            : undefined,
      );
      teammateCommand = await Deno.readTextFile(`/proc/${started.data.process.pid}/cmdline`)
        .then((text) => text.replaceAll("\0", " "), () => "");
    },
  });
  try {
    const run = await launch(root, [
      "--bundle-cache",
      "agent",
      "-p",
      "go team",
      "--allowedTools",
      "Bash",
      "--workspace",
      workspace,
    ], {
      ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_API_KEY: "sk-bundle-cache-test-key",
      CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS: "1",
      REIN_SHUTDOWN_TIMEOUT_MS: "300",
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim(), "Team done.");
    assert.match(teammateCommand, new RegExp(` ${bundle}/main\\.js teammate `));
    const echoed = eventsOf(await readLog(log), "tool.completed").find((e) => e.agent === "alice");
    assert.equal(echoed?.data.isError, false, JSON.stringify(echoed?.data));
    assert.equal(await Deno.readTextFile(join(workspace, "alice.txt")), "from-alice\n");
    const started = eventsOf(await readLog(log), "agent.started");
    assert.ok(started[0]?.data.process.flags.some((flag) => flag.includes(bundle)));
    const replay = await runCli(["replay", log, "--verify"]);
    assert.equal(replay.code, 0, `replay --verify failed:\n${replay.stdout}${replay.stderr}`);
  } finally {
    killProcessesIn(workspace);
    await Deno.remove(workspace, { recursive: true });
  }
});
