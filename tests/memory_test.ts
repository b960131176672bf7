import assert from "node:assert/strict";
import { join } from "node:path";
import { type RecordedRequest, startFakeAnthropic } from "../testing/fake_anthropic.ts";
import { echo } from "../testing/scenarios.ts";
import { openJsonlStore } from "../events/jsonl_store.ts";
import { saveNote } from "../core/memory/mod.ts";
import { readLogLines, runCli } from "./_cli.ts";

const KEY = "sk-ant-api03-KNOWN-SECRET-abcdef0123456789";
/** Replay may read the log and the environment; it gets no net, run or write permission. */
// Replays run with the recording's HOME: its machine key signed the snapshots they check.
const REPLAY_ONLY = ["--allow-read", "--allow-env"];

/** A home with the user's CLAUDE.md, and a repository in it whose `app/` is the workspace. */
async function project() {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-memory-" }));
  const home = join(base, "home");
  const repo = join(home, "repo");
  const workspace = join(repo, "app");
  await Deno.mkdir(join(home, ".claude"), { recursive: true });
  await Deno.mkdir(join(repo, ".git"), { recursive: true });
  await Deno.mkdir(join(workspace, "docs"), { recursive: true });
  await Deno.mkdir(join(workspace, ".rein", "memory"), { recursive: true });
  await Deno.writeTextFile(join(home, ".claude", "CLAUDE.md"), "USER: sign off as Rein.\n");
  await Deno.writeTextFile(join(repo, "CLAUDE.md"), "ROOT: this is a monorepo.\n");
  await Deno.writeTextFile(
    join(workspace, "CLAUDE.md"),
    "APP: answer in haiku.\n@docs/style.md\n",
  );
  await Deno.writeTextFile(join(workspace, "docs", "style.md"), "IMPORTED: indent with tabs.\n");
  await Deno.writeTextFile(
    join(workspace, ".rein", "memory", "MEMORY.md"),
    "- [Build](build.md): MEMORY says the build uses make\n",
  );
  return {
    home,
    workspace,
    log: join(workspace, ".rein", "events.jsonl"),
    [Symbol.asyncDispose]: () => Deno.remove(base, { recursive: true }),
  };
}

function cliEnv(fakeUrl: string, home: string): Record<string, string> {
  return { ANTHROPIC_BASE_URL: fakeUrl, ANTHROPIC_API_KEY: KEY, ...homeEnv(home) };
}

/** Another home for the user's files (and rein's machine key); Deno's cache stays where it is. */
function homeEnv(home: string): Record<string, string> {
  return {
    HOME: home,
    DENO_DIR: Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/root", ".cache", "deno"),
  };
}

function systemText(request: RecordedRequest | undefined): string {
  const system = request?.body?.system;
  if (system === undefined) return "";
  return typeof system === "string"
    ? system
    : system.map((b) => "text" in b ? String(b.text) : "").join("\n\n");
}

Deno.test("CLAUDE.md files and imports reach the prompt; an edit replays, and a resume records it", async () => {
  await using p = await project();
  await using fake = await startFakeAnthropic({ script: echo() });
  const env = cliEnv(fake.url, p.home);
  const first = await runCli(["agent", "-p", "hello", "--workspace", p.workspace], { env });
  assert.equal(first.code, 0, first.stderr);
  const system = systemText(fake.requests[0]);
  const order = ["USER:", "ROOT:", "APP:", "IMPORTED:", "MEMORY says"].map((s) =>
    system.indexOf(s)
  );
  assert.ok(order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1]!)), system);
  assert.match(system, /Contents of docs\/style\.md:\n\nIMPORTED: indent with tabs\./);
  assert.match(system, /Memory: you keep notes that last across sessions in \.rein\/memory\//);

  const started = (await readLogLines(p.log)).find((e) => e.type === "session.started");
  const recorded = started?.data.files as { source: string; path: string }[];
  const memory = recorded.filter((f) => f.source.startsWith("memory"));
  assert.deepEqual(memory.map((f) => f.path.slice(p.home.length)), [
    "/.claude/CLAUDE.md",
    "/repo/CLAUDE.md",
    "/repo/app/CLAUDE.md",
    "/repo/app/docs/style.md",
    "/repo/app/.rein/memory/MEMORY.md",
  ]);

  await Deno.writeTextFile(
    join(p.workspace, "CLAUDE.md"),
    "APP: answer in limericks now.\n@docs/missing.md\n",
  );
  const replayed = await runCli(["replay", p.log, "--verify", "-q"], {
    permissions: REPLAY_ONLY,
    env: homeEnv(p.home),
  });
  assert.equal(replayed.code, 0, replayed.stdout + replayed.stderr);

  const resumed = await runCli(
    ["agent", "--continue", "-p", "again", "--workspace", p.workspace],
    { env },
  );
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.match(
    resumed.stderr,
    /Cannot import "@docs\/missing\.md" at line 2 of ".*\/app\/CLAUDE\.md": ".*" does not exist/,
  );
  const again = systemText(fake.requests.at(-1));
  assert.ok(again.includes("APP: answer in limericks now."), again);
  assert.ok(!again.includes("APP: answer in haiku."));
  assert.ok(!again.includes("IMPORTED:"), "the import is gone with the line that made it");
  const resumedEvent = (await readLogLines(p.log)).find((e) => e.type === "session.resumed");
  const files = resumedEvent?.data.files as { text: string }[];
  assert.ok(files.some((f) => f.text.startsWith("APP: answer in limericks now.")));

  const replayedAgain = await runCli(["replay", p.log, "--verify", "-q"], {
    permissions: REPLAY_ONLY,
    env: homeEnv(p.home),
  });
  assert.equal(replayedAgain.code, 0, replayedAgain.stdout + replayedAgain.stderr);
});

Deno.test("a # note is saved to MEMORY.md, reminded with the next prompt and replayed as fed", async () => {
  await using p = await project();
  await using fake = await startFakeAnthropic({ script: echo() });
  const env = cliEnv(fake.url, p.home);
  const first = await runCli(["agent", "-p", "hello", "--workspace", p.workspace], { env });
  assert.equal(first.code, 0, first.stderr);
  const session = (await readLogLines(p.log))[0]?.session ?? "";
  // What the REPL does with "# …": save the note, then record it from outside the loop.
  const noted = await saveNote("# run make check before committing", p);
  const store = await openJsonlStore(p.log, { clock: () => new Date() });
  try {
    await store.append([{ type: "memory.noted", data: noted, session, agent: "lead" }]);
  } finally {
    await store.close();
  }
  assert.ok(
    (await Deno.readTextFile(noted.path)).endsWith("- run make check before committing\n"),
  );
  const resumed = await runCli(
    ["agent", "--continue", "-p", "again", "--workspace", p.workspace],
    { env },
  );
  assert.equal(resumed.code, 0, resumed.stderr);
  const last = JSON.stringify(fake.requests.at(-1)?.body?.messages.at(-1));
  assert.match(last, /The user saved a note to memory.*run make check before committing/);
  const replayed = await runCli(["replay", p.log, "--verify", "-q"], {
    permissions: REPLAY_ONLY,
    env: homeEnv(p.home),
  });
  assert.equal(replayed.code, 0, replayed.stdout + replayed.stderr);
});

Deno.test("the agent writes its memory in .rein/memory/ with its file tools, but never rein's log", async () => {
  const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-memory-write-" }));
  try {
    const { message, toolUse } = await import("../testing/fake_anthropic.ts");
    const calls = [
      toolUse("toolu_m1", "write_file", {
        path: ".rein/memory/preferences.md",
        content: "- Use pnpm\n",
      }),
      toolUse("toolu_m2", "write_file", { path: ".rein/events.jsonl", content: "" }),
    ];
    await using fake = await startFakeAnthropic({
      script: (request) => {
        const done = (request.body?.messages ?? []).filter((m) => m.role === "assistant").length;
        const call = calls[done];
        return call ? message([call]) : message("Remembered.");
      },
    });
    const run = await runCli(
      ["-p", "remember pnpm", "--permission-mode", "acceptEdits", "--workspace", workspace],
      { env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY } },
    );
    assert.equal(run.code, 0, run.stderr);
    const memory = await Deno.readTextFile(join(workspace, ".rein/memory/preferences.md"));
    assert.equal(memory, "- Use pnpm\n");
    const log = await readLogLines(join(workspace, ".rein/events.jsonl"));
    const refused = log.find((e) => e.type === "tool.completed" && e.data.callId === "toolu_m2");
    assert.equal(refused?.data.isError, true);
    assert.match(String(refused?.data.content), /rein's event log/);
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
});
