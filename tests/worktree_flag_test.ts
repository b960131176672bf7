/**
 * `rein -w [name]` / `--worktree [name]` (Claude Code's `claude -w`), end to end in a real git
 * repository against the fake model: the session starts in worktree `.claude/worktrees/<name>` on
 * branch `worktree-<name>` (made now, recorded in `session.started`'s `place` and a
 * `worktree.created`), its agent's bash and file tools work there and the system prompt says so;
 * a name is chosen when none is given; an existing worktree is started in again without being
 * made twice; outside a git repository it is refused. Replayed with --verify.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Envelope } from "../events/event_types.ts";
import { message, startFakeAnthropic, toolUse } from "../testing/fake_anthropic.ts";
import { toolResultCount } from "../testing/scenarios.ts";
import { readLogLines, runCli, tempWorkspace } from "./_cli.ts";
import { git, gitRepo } from "./_worktree_repo.ts";

const KEY = "sk-ant-worktree-flag-0123456789";

const CALLS = [
  toolUse("p1", "bash", { command: "pwd; echo by bash > by_bash.txt" }),
  toolUse("w1", "write_file", { path: "by_tool.txt", content: "by the tool\n" }),
];

Deno.test("rein -w NAME starts the session in a new worktree, where its tools work; -w again reuses it; -w alone chooses a name; replayed", async () => {
  await using ws = await tempWorkspace();
  await gitRepo(ws.path);
  await using fake = await startFakeAnthropic({
    script: (request) => {
      const call = CALLS[toolResultCount(request.body)];
      return message(call === undefined ? "done" : [call]);
    },
  });
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const base = ["--permission-mode", "bypassPermissions", "--workspace", ws.path];
  const run = await runCli(["-p", "work", "-w", "feature", ...base], { env });
  assert.equal(run.code, 0, run.stderr);
  const tree = join(ws.path, ".claude/worktrees/feature");
  const events = await readLogLines(
    join(ws.path, ".rein", "events.jsonl"),
  ) as unknown as Envelope[];
  const started = events.find((e) => e.type === "session.started");
  assert.deepEqual(started?.data.place, { cwd: ".claude/worktrees/feature", worktree: "feature" });
  assert.equal(events[1]?.type, "worktree.created");
  assert.deepEqual(
    [events[1]?.data.name, events[1]?.data.branch],
    ["feature", "worktree-feature"],
  );
  assert.match(await git(ws.path, "branch", "--list"), /worktree-feature/);
  const done = new Map(
    events.flatMap((e) => e.type === "tool.completed" ? [[e.data.callId, e.data.content]] : []),
  );
  assert.equal(done.get("p1")?.trim(), tree);
  assert.equal(await Deno.readTextFile(join(tree, "by_bash.txt")), "by bash\n");
  assert.equal(await Deno.readTextFile(join(tree, "by_tool.txt")), "by the tool\n");
  for (const file of ["by_bash.txt", "by_tool.txt"]) {
    await assert.rejects(Deno.stat(join(ws.path, file)), file);
  }
  const system = JSON.stringify(fake.requests[0]?.body?.system);
  assert.ok(system.includes(`Workspace: ${tree} `), system);

  // Again with the same name: the worktree the log knows, not made twice.
  const again = await runCli(["-p", "work", "--worktree", "feature", ...base], { env });
  assert.equal(again.code, 0, again.stderr);
  // No name: one is chosen.
  const chosen = await runCli(["-p", "work", ...base, "-w"], { env });
  assert.equal(chosen.code, 0, chosen.stderr);
  const all = await readLogLines(join(ws.path, ".rein", "events.jsonl")) as unknown as Envelope[];
  const places = all.filter((e) => e.type === "session.started").map((e) => e.data.place);
  assert.equal(places.length, 3);
  assert.deepEqual(places[1], places[0]);
  const name = places[2]?.worktree ?? "";
  assert.match(name, /^[a-z]+-[a-z]+-[a-z]+$/);
  assert.deepEqual(places[2], { cwd: `.claude/worktrees/${name}`, worktree: name });
  assert.deepEqual(
    all.filter((e) => e.type === "worktree.created").map((e) => e.data.name),
    ["feature", name],
  );
  await Deno.stat(join(ws.path, ".claude/worktrees", name));

  const replay = await runCli(["replay", "--verify", "--workspace", ws.path]);
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
  assert.doesNotMatch(replay.stdout, /diverges/);
});

Deno.test("rein -w outside a git repository is refused before a session starts", async () => {
  await using ws = await tempWorkspace();
  const run = await runCli(["-p", "work", "-w", "x", "--workspace", ws.path], {
    env: { ANTHROPIC_BASE_URL: "http://127.0.0.1:9", ANTHROPIC_API_KEY: KEY },
  });
  assert.notEqual(run.code, 0);
  assert.match(run.stderr, /rein -w needs a git repository with a commit/);
  const log = await readLogLines(join(ws.path, ".rein", "events.jsonl")).catch(() => []);
  assert.deepEqual(log.filter((e) => e.type === "session.started"), []);
});

Deno.test("Claude Code's worktree settings shape the worktree -w makes: sparsePaths, symlinkDirectories, .worktreeinclude", async () => {
  await using ws = await tempWorkspace();
  await gitRepo(ws.path);
  await Deno.mkdir(join(ws.path, "src"));
  await Deno.mkdir(join(ws.path, "docs"));
  await Deno.writeTextFile(join(ws.path, "src", "a.txt"), "a\n");
  await Deno.writeTextFile(join(ws.path, "docs", "b.txt"), "b\n");
  await Deno.writeTextFile(join(ws.path, ".gitignore"), ".rein/\nnode_modules/\n.env\n");
  await Deno.writeTextFile(join(ws.path, ".worktreeinclude"), ".env\n");
  await git(ws.path, "add", "src", "docs", ".gitignore", ".worktreeinclude");
  await git(ws.path, "commit", "--quiet", "-m", "more");
  await Deno.mkdir(join(ws.path, "node_modules", "dep"), { recursive: true });
  await Deno.writeTextFile(join(ws.path, "node_modules", "dep", "index.js"), "dep\n");
  await Deno.writeTextFile(join(ws.path, ".env"), "TOKEN=x\n");
  await Deno.mkdir(join(ws.path, ".claude"));
  await Deno.writeTextFile(
    join(ws.path, ".claude", "settings.json"),
    JSON.stringify({
      worktree: { symlinkDirectories: ["node_modules"], sparsePaths: ["src"] },
    }),
  );
  await using fake = await startFakeAnthropic({ script: () => message("done") });
  const run = await runCli(["-p", "work", "-w", "shaped", "--workspace", ws.path], {
    env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY },
  });
  assert.equal(run.code, 0, run.stderr);
  assert.doesNotMatch(run.stderr, /worktree/, run.stderr);
  const tree = join(ws.path, ".claude/worktrees/shaped");
  assert.equal(await Deno.readTextFile(join(tree, "src", "a.txt")), "a\n");
  assert.equal(await Deno.readTextFile(join(tree, "README.md")), "hello\n");
  await assert.rejects(Deno.stat(join(tree, "docs", "b.txt")), "docs/ is outside the sparse paths");
  assert.equal(
    await Deno.readLink(join(tree, "node_modules")),
    join(ws.path, "node_modules"),
  );
  assert.equal(await Deno.readTextFile(join(tree, "node_modules", "dep", "index.js")), "dep\n");
  assert.equal(await Deno.readTextFile(join(tree, ".env")), "TOKEN=x\n");
});
