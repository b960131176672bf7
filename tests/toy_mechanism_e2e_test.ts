/**
 * What adding a mechanism to rein takes, shown with the toy tally (testing/tally/): in a throwaway
 * worktree of the working copy, its folder copied to core/tally/ and its payload file to
 * events/payloads/tally.ts join rein with two lines in events/event_types.ts (the payload file in
 * `PayloadFiles` and in `PAYLOAD_FILES`) and two in core/harness.ts (the mechanism's import and
 * its line in `reinMechanisms`), and nothing else
 * changes; that tree type-checks, and rein run from it as a person runs it has the tally end to
 * end: its zod tool, its JSON-Schema-only tool (a bad input refused naming the member), its
 * workspace-wide slice in `rein state --json`, its wake source waking an idle `rein daemon` on an
 * ask another process appends, its render lines; and the log replays with `--verify`.
 * Its tools are named by their Claude Code names (`Mechanism.toolFacts`) in the settings'
 * permission rules (`TallyAdd`, `TallyPeek(session)` allowed, `TallyPeek(workspace)` denied) and
 * in a PreToolUse hook's matcher (`TallyPeek`), as rein's own are.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Envelope } from "../events/event_types.ts";
import { openJsonlStore } from "../events/jsonl_store.ts";
import {
  type FakeScriptFn,
  message,
  startFakeAnthropic,
  toolUse,
} from "../testing/fake_anthropic.ts";
import { toolResultCount } from "../testing/scenarios.ts";
import { killProcessesIn } from "../testing/tool_helpers.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));

/** `git ARGS` in `cwd`; its stdout, or a failure naming the command. */
async function git(cwd: string, args: string[]): Promise<string> {
  const out = await new Deno.Command("git", { args, cwd, stdout: "piped", stderr: "piped" })
    .output();
  const decoder = new TextDecoder();
  assert.equal(out.code, 0, `git ${args.join(" ")}: ${decoder.decode(out.stderr)}`);
  return decoder.decode(out.stdout);
}

/**
 * A worktree at `tree` of the repository as it is on disk (HEAD, then the changed, new and
 * removed files of the working copy, committed there), so that the test runs the code being
 * worked on, committed or not.
 */
async function worktreeOfWorkingCopy(tree: string): Promise<void> {
  await git(REPO, ["worktree", "add", "--detach", tree, "HEAD"]);
  const listed = async (flags: string[]) =>
    (await git(REPO, ["ls-files", "-z", "--exclude-standard", ...flags])).split("\0")
      .filter(Boolean);
  for (const path of await listed(["-m", "-o"])) {
    const info = await Deno.lstat(join(REPO, path)).catch(() => undefined);
    if (!info?.isFile) continue;
    await Deno.mkdir(join(tree, path, ".."), { recursive: true });
    await Deno.copyFile(join(REPO, path), join(tree, path));
  }
  for (const path of await listed(["-d"])) await Deno.remove(join(tree, path)).catch(() => {});
  await git(tree, ["add", "-A"]);
  const identity = ["-c", "user.name=rein test", "-c", "user.email=test@rein.invalid"];
  await git(tree, [...identity, "commit", "-q", "--allow-empty", "-m", "the working copy"]);
}

/** Copy the files of `from` (a flat folder) into `to`. */
async function copyFolder(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    assert.ok(entry.isFile, `"${entry.name}" in ${from} is not a file`);
    await Deno.copyFile(join(from, entry.name), join(to, entry.name));
  }
}

/** Insert `line` in `path`'s text after its last line matching `after` (indented as it is). */
async function insertLine(path: string, after: RegExp, line: string): Promise<void> {
  const lines = (await Deno.readTextFile(path)).split("\n");
  const at = lines.findLastIndex((text) => after.test(text));
  assert.ok(at >= 0, `No line of ${path} matches ${after}: where does the new line go now?`);
  const indent = /^\s*/.exec(lines[at] ?? "")?.[0] ?? "";
  lines.splice(at + 1, 0, `${indent}${line}`);
  await Deno.writeTextFile(path, lines.join("\n"));
}

/** The text of a request's last message (its blocks' text and tool results). */
function lastMessage(body: { messages: readonly { content: unknown }[] } | undefined): string {
  return JSON.stringify(body?.messages.at(-1)?.content ?? "");
}

/**
 * `-p "count"`: adds 2 (zod tool), peeks at the session (allowed by `TallyPeek`), peeks with a
 * scope the schema has not (refused), peeks at the workspace (denied by `TallyPeek(workspace)`),
 * then answers. Woken on an ask: adds what it was asked to.
 */
const script: FakeScriptFn = (request) => {
  const last = lastMessage(request.body);
  const asked = /Please add (\d+) to the tally/.exec(last)?.[1];
  if (asked !== undefined) {
    return message([toolUse("toolu_asked", "tally_add", { by: Number(asked) })]);
  }
  if (last.includes("toolu_asked")) return message("Added what I was asked to.");
  switch (toolResultCount(request.body)) {
    case 0:
      return message([toolUse("toolu_add", "tally_add", { by: 2 })]);
    case 1:
      return message([toolUse("toolu_peek", "tally_peek", { scope: "session" })]);
    case 2:
      return message([toolUse("toolu_galaxy", "tally_peek", { scope: "galaxy" })]);
    case 3:
      return message([toolUse("toolu_workspace", "tally_peek", { scope: "workspace" })]);
    default:
      return message("Counted.");
  }
};

Deno.test("a mechanism folder joins rein with its payload file, two lines in events/event_types.ts and two in core/harness.ts, and runs end to end", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-tally-e2e-" }));
  const tree = join(dir, "tree");
  const workspace = join(dir, "work");
  const log = join(workspace, ".rein", "events.jsonl");
  const fake = await startFakeAnthropic({ script });
  let daemon: Deno.ChildProcess | undefined;
  await worktreeOfWorkingCopy(tree);
  try {
    // --- Registering the mechanism: its folder, its payload file, a line in each list. ---
    await copyFolder(join(tree, "testing", "tally"), join(tree, "core", "tally"));
    await Deno.copyFile(
      join(tree, "testing", "tally", "tally_payloads.ts"),
      join(tree, "events", "payloads", "tally.ts"),
    );
    const eventTypes = join(tree, "events", "event_types.ts");
    await insertLine(
      eventTypes,
      /^\s*typeof import\("\.\/payloads\/\w+\.ts"\),$/,
      `typeof import("./payloads/tally.ts"),`,
    );
    await insertLine(
      eventTypes,
      /^\s*import\("\.\/payloads\/\w+\.ts"\),$/,
      `import("./payloads/tally.ts"),`,
    );
    const harness = join(tree, "core", "harness.ts");
    await insertLine(
      harness,
      /^import .* from "\.[^"]*";$/,
      `import { tallyMechanism } from "./tally/mod.ts";`,
    );
    await insertLine(harness, /^\s+environmentMechanism,$/, "tallyMechanism,");
    const numstat = (await git(tree, ["diff", "--numstat"])).trim().split("\n").sort();
    assert.deepEqual(numstat, ["2\t0\tevents/event_types.ts", "2\t0\tcore/harness.ts"].sort());
    const copied = [...Deno.readDirSync(join(tree, "testing", "tally"))].map((e) => e.name);
    const status = (await git(tree, ["status", "--porcelain", "--untracked-files=all"]))
      .split("\n").filter(Boolean).sort();
    assert.deepEqual(
      status,
      [
        " M core/harness.ts",
        " M events/event_types.ts",
        "?? events/payloads/tally.ts",
        ...copied.map((name) => `?? core/tally/${name}`),
      ].sort(),
    );

    // The tree type-checks, and the tally's types are rein's own: the payload files' test (which
    // finds every file of events/payloads/) passes, and no extension declares them any more.
    const deno = async (args: string[], cwd = tree) => {
      const out = await new Deno.Command(Deno.execPath(), {
        args,
        cwd,
        env: env(),
        clearEnv: true,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      const decoder = new TextDecoder();
      return {
        code: out.code,
        stdout: decoder.decode(out.stdout),
        stderr: decoder.decode(out.stderr),
      };
    };
    const env = () => ({
      PATH: Deno.env.get("PATH") ?? "",
      HOME: join(dir, "home"),
      // The home is the test's (no one's settings): Deno's cache stays where it is.
      DENO_DIR: Deno.env.get("DENO_DIR") ??
        join(
          Deno.env.get("XDG_CACHE_HOME") ?? join(Deno.env.get("HOME") ?? "/tmp", ".cache"),
          "deno",
        ),
      NO_COLOR: "1",
      ANTHROPIC_API_KEY: "sk-ant-test-key-0123456789",
      ANTHROPIC_BASE_URL: fake.url,
    });
    await Deno.mkdir(join(dir, "home"));
    const own = join(dir, "own_types.ts");
    await Deno.writeTextFile(
      own,
      [
        `import { EVENT_TYPES, type ExtensionPayloads, type ReinPayloads } from "${
          join(tree, "events", "event_types.ts")
        }";`,
        `const none: keyof ExtensionPayloads extends never ? true : false = true;`,
        `const added: ReinPayloads["tally.added"] = { by: 1, total: 1 };`,
        `if (!none || !EVENT_TYPES.includes("tally.added") || added.by !== 1) Deno.exit(1);`,
      ].join("\n"),
    );
    const checked = await deno(["check", "cli/main.ts", "core/tally/mod.ts", own]);
    assert.equal(checked.code, 0, checked.stderr);
    const ran = await deno(["run", "--quiet", "--allow-read", own]);
    assert.equal(ran.code, 0, ran.stderr);
    const typesTest = await deno(["test", "--allow-read", "--quiet", "events/event_types_test.ts"]);
    assert.equal(typesTest.code, 0, typesTest.stdout + typesTest.stderr);

    // --- rein from that tree, as a person runs it. ---
    const cli = join(tree, "cli", "main.ts");
    await Deno.mkdir(join(workspace, ".claude"), { recursive: true });
    await Deno.writeTextFile(
      join(workspace, ".claude", "settings.json"),
      JSON.stringify({
        tally: { enabled: true },
        permissions: { allow: ["TallyAdd", "TallyPeek(session)"], deny: ["TallyPeek(workspace)"] },
        hooks: {
          PreToolUse: [{
            matcher: "TallyPeek",
            hooks: [{
              type: "command",
              command: "jq -c '[.tool_name, .tool_input]' >> peeks.jsonl",
            }],
          }],
        },
      }),
    );
    // The person trusted the folder, as Claude Code records it, so its settings apply.
    await Deno.mkdir(join(dir, "home"), { recursive: true });
    await Deno.writeTextFile(
      join(dir, "home", ".claude.json"),
      JSON.stringify({ projects: { [workspace]: { hasTrustDialogAccepted: true } } }),
    );
    const counted = await deno([
      "run",
      "-A",
      "--quiet",
      cli,
      "-p",
      "count",
      "--workspace",
      workspace,
    ]);
    assert.equal(counted.code, 0, counted.stderr);
    assert.equal(counted.stdout.trim(), "Counted.");
    const events = async (): Promise<Envelope[]> => {
      const text = await Deno.readTextFile(log).catch(() => "");
      return text.split("\n").filter((line) => line.endsWith("}")).map((line) => JSON.parse(line));
    };
    const results = (await events()).flatMap((e) =>
      e.type === "tool.completed" ? [[e.data.callId, e.data.content, e.data.isError ?? false]] : []
    );
    assert.deepEqual(results, [
      ["toolu_add", "Tally is now 2", false],
      ["toolu_peek", "The session's tally is 2", false],
      [
        "toolu_galaxy",
        'Invalid input for tally_peek: "scope" must be one of "session", "workspace"',
        true,
      ],
      [
        "toolu_workspace",
        `Permission denied: Permission rule "TallyPeek(workspace)" in "${
          join(workspace, ".claude", "settings.json")
        }" denies it`,
        true,
      ],
    ]);
    // The hook matched by the Claude name saw it as tool_name, for each peek that got that far.
    assert.equal(
      await Deno.readTextFile(join(workspace, "peeks.jsonl")),
      '["TallyPeek",{"scope":"session"}]\n["TallyPeek",{"scope":"workspace"}]\n',
    );
    const first = fake.requests[0]?.body?.tools?.map((tool) => tool.name) ?? [];
    assert.ok(first.includes("tally_add") && first.includes("tally_peek"), first.join());
    const session = (await events()).find((e) => e.type === "session.started")?.session ?? "";

    // A daemon idle in a session of its own is woken by an ask another process appends.
    daemon = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--quiet",
        cli,
        "daemon",
        "--workspace",
        workspace,
      ],
      env: env(),
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const output = daemon.output();
    const isDaemon = (e: Envelope) => e.agent === "daemon";
    const until = async (what: string, done: (all: Envelope[]) => boolean) => {
      const deadline = Date.now() + 60_000;
      while (!done(await events())) {
        if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    };
    await until("the daemon's session", (all) => all.some(isDaemon));
    const daemonSession = (await events()).find(isDaemon)?.session ?? "";
    const other = await openJsonlStore(log, {
      clock: () => new Date(),
      eventTypes: ["tally.added", "tally.asked"],
    });
    try {
      await other.append([{
        type: "tally.asked",
        data: { by: 3 },
        session: daemonSession,
        agent: "daemon",
      } as never]);
    } finally {
      await other.close();
    }
    await until("the turn the ask woke", (all) => {
      const woke = all.findIndex((e) =>
        isDaemon(e) && e.type === "arrival.injected" && e.data.source === "tally"
      );
      return woke >= 0 && all.slice(woke).some((e) => isDaemon(e) && e.type === "turn.ended");
    });
    daemon.kill("SIGTERM");
    const out = await output;
    const stdout = new TextDecoder().decode(out.stdout);
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    // The tally's render lines: the ask (folded from another process's append), the addition.
    assert.match(stdout, /— asked to add 3 to the tally\n/);
    assert.match(stdout, /woken by tally \d+/);
    assert.match(stdout, /— tally \+3, now 3\n/);

    // The workspace-wide slice holds both sessions' additions; each session's its own.
    const state = await deno(["run", "-A", "--quiet", cli, "state", log, "--json"]);
    assert.equal(state.code, 0, state.stderr);
    const folded = JSON.parse(state.stdout);
    assert.deepEqual(folded.catalog.tally, { total: 5, additions: 2 });
    assert.deepEqual(folded.extensions.tally, {
      [session]: { total: 2, asked: [] },
      [daemonSession]: { total: 3, asked: [] },
    });

    const replay = await deno(["run", "-A", "--quiet", cli, "replay", log, "--verify", "-q"]);
    assert.equal(replay.code, 0, `replay --verify failed:\n${replay.stdout}${replay.stderr}`);
  } finally {
    try {
      daemon?.kill("SIGKILL");
    } catch {
      // Ended already.
    }
    await daemon?.status;
    killProcessesIn(workspace);
    await fake.close();
    await git(REPO, ["worktree", "remove", "--force", tree]);
    await Deno.remove(dir, { recursive: true });
  }
});
