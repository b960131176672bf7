/**
 * Worktrees end to end, in a real git repository against the fake model: the lead makes a
 * worktree bound to a task; a subagent started with `isolation: "worktree"` writes in its own
 * worktree and can write nowhere else (file tool and bash); remove_worktree refuses while the
 * worktree is dirty, listing the file, and `discard_changes` removes it; hostile names and bases
 * are refused before git sees them; `rein worktrees --json` shows each worktree's state computed
 * from git; `rein tasks` shows the task's worktree; the session replays with --verify.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Envelope } from "../events/event_types.ts";
import {
  type FakeScriptFn,
  message,
  startFakeAnthropic,
  toolUse,
} from "../testing/fake_anthropic.ts";
import { firstUserText, toolResultCount } from "../testing/scenarios.ts";
import { readLogLines, runCli, tempWorkspace } from "./_cli.ts";

const KEY = "sk-ant-worktrees-test-0123456789";
const ISOLATED = "agent-toolu_iso";

async function git(cwd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=t", "-c", "user.email=t@t", ...args],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, `git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  return text;
}

/** A repository with one commit, whose config would run code if git obeyed it. */
async function hostileRepo(path: string): Promise<void> {
  await git(path, "init", "--quiet", "--initial-branch=main");
  await Deno.writeTextFile(join(path, "README.md"), "hello\n");
  await Deno.writeTextFile(join(path, ".gitignore"), ".rein/\n");
  await git(path, "add", "README.md", ".gitignore");
  await git(path, "commit", "--quiet", "-m", "first");
  const pwned = join(path, "PWNED");
  await Deno.writeTextFile(
    join(path, ".git", "hooks", "post-checkout"),
    `#!/bin/sh\ntouch ${pwned}-hook\n`,
  );
  await Deno.chmod(join(path, ".git", "hooks", "post-checkout"), 0o755);
  await git(path, "config", "core.fsmonitor", `touch ${pwned}-fsmonitor; false`);
}

const CHILD_CALLS = [
  toolUse("c1", "write_file", { path: "made.txt", content: "made in the worktree\n" }),
  toolUse("c2", "write_file", { path: "../../../escaped.txt", content: "out\n" }),
  toolUse("c3", "bash", { command: "echo out > ../../../bash_escaped.txt" }),
  toolUse("c4", "bash", { command: "pwd" }),
  toolUse("c5", "bash", {
    command: "git add made.txt && git -c user.name=a -c user.email=a@a commit -q -m 'Add made' " +
      "&& git log --format=%s -1",
  }),
  toolUse("c6", "write_file", { path: "notes.txt", content: "not committed\n" }),
];

const LEAD_CALLS = [
  toolUse("t1", "create_task", { subject: "A", description: "do A" }),
  toolUse("w1", "create_worktree", { name: "wt-a", task_id: 1 }),
  toolUse("h1", "create_worktree", { name: "../evil" }),
  toolUse("h2", "create_worktree", { name: "-x" }),
  toolUse("h3", "create_worktree", { name: "ok", base: "--upload-pack=touch /tmp/x" }),
  toolUse("toolu_iso", "task", {
    description: "isolated work",
    prompt: "iso: write a file",
    isolation: "worktree",
  }),
  toolUse("r1", "remove_worktree", { name: ISOLATED }),
  toolUse("r2", "remove_worktree", { name: ISOLATED, discard_changes: true }),
  toolUse("k1", "keep_worktree", { name: "wt-a" }),
];

/** The lead makes its calls one a round; the isolated child makes its own. */
const script: FakeScriptFn = (request) => {
  const done = toolResultCount(request.body);
  if (firstUserText(request.body?.messages ?? []).startsWith("iso")) {
    const call = CHILD_CALLS[done];
    return call === undefined ? message("child done") : message([call]);
  }
  const call = LEAD_CALLS[done];
  return call === undefined ? message("lead done") : message([call]);
};

function results(events: readonly Envelope[]): Map<string, { content: string; isError: boolean }> {
  return new Map(
    events.flatMap((e) =>
      e.type === "tool.completed"
        ? [[e.data.callId, { content: e.data.content, isError: e.data.isError === true }]]
        : []
    ),
  );
}

Deno.test("worktrees: bound to a task, an isolated subagent confined to its own, removal refused while dirty, replayed", async () => {
  await using ws = await tempWorkspace();
  await hostileRepo(ws.path);
  {
    await using fake = await startFakeAnthropic({ script });
    const run = await runCli([
      "-p",
      "work in worktrees",
      "--permission-mode",
      "bypassPermissions",
      "--workspace",
      ws.path,
    ], { env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY } });
    assert.equal(run.code, 0, run.stderr);
  }
  const events = await readLogLines(
    join(ws.path, ".rein", "events.jsonl"),
  ) as unknown as Envelope[];
  const got = results(events);
  // The worktree bound to task 1, made by git on its branch.
  assert.equal(got.get("w1")?.isError, false, got.get("w1")?.content ?? "");
  assert.match(got.get("w1")?.content ?? "", /bound to task 1/);
  assert.equal(
    await Deno.readTextFile(join(ws.path, ".claude/worktrees/wt-a/README.md")),
    "hello\n",
  );
  assert.match(await git(ws.path, "branch", "--list"), /worktree-wt-a/);
  // Hostile names and bases never reach git; the hostile config ran nothing.
  assert.match(got.get("h1")?.content ?? "", /contains "\.\."/);
  assert.match(got.get("h2")?.content ?? "", /may not start with "-"/);
  assert.match(got.get("h3")?.content ?? "", /looks like an option/);
  for (const id of ["h1", "h2", "h3"]) assert.equal(got.get(id)?.isError, true, id);
  for (const suffix of ["-hook", "-fsmonitor"]) {
    await assert.rejects(Deno.stat(join(ws.path, `PWNED${suffix}`)), `PWNED${suffix}`);
  }
  // The isolated child wrote in its worktree and nowhere else.
  const child = events.filter((e) => e.agent === "general-purpose@toolu_iso");
  const spawned = child.find((e) => e.type === "agent.spawned");
  assert.equal((spawned?.data as { cwd?: string }).cwd, `.claude/worktrees/${ISOLATED}`);
  assert.equal(got.get("c1")?.isError, false, got.get("c1")?.content ?? "");
  assert.equal(got.get("c2")?.isError, true, got.get("c2")?.content ?? "");
  assert.equal(got.get("c4")?.content.trim(), join(ws.path, ".claude/worktrees", ISOLATED));
  await assert.rejects(Deno.stat(join(ws.path, "escaped.txt")));
  await assert.rejects(Deno.stat(join(ws.path, "bash_escaped.txt")));
  // It committed in its worktree (the sandbox lets git write the worktree's own git dir).
  assert.equal(got.get("c5")?.content.trim(), "Add made", got.get("c5")?.content ?? "");
  assert.match(got.get("toolu_iso")?.content ?? "", /was kept: it has 1 file with uncommitted/);
  // Removal refused while dirty and ahead, listing the file and the commit; discarding removes
  // it and its branch.
  assert.equal(got.get("r1")?.isError, true);
  const refusal = got.get("r1")?.content ?? "";
  assert.match(
    refusal,
    /was not removed: it has 1 file with uncommitted changes:\n {2}notes\.txt\n/,
  );
  assert.match(refusal, /and 1 commit not merged into HEAD:\n {2}[0-9a-f]{7,} Add made\n/);
  assert.equal(got.get("r2")?.isError, false, got.get("r2")?.content ?? "");
  await assert.rejects(Deno.stat(join(ws.path, ".claude/worktrees", ISOLATED)));
  assert.doesNotMatch(await git(ws.path, "branch", "--list"), new RegExp(ISOLATED));
  const discarded = events.find((e) => e.type === "worktree.removed")?.data;
  assert.deepEqual(
    [discarded?.discardedFiles, discarded?.discardedCommits?.length],
    [["notes.txt"], 1],
  );
  assert.equal(got.get("k1")?.isError, false, got.get("k1")?.content ?? "");
  const types = events.map((e) => e.type).filter((t) => t.startsWith("worktree."));
  assert.deepEqual(types, [
    "worktree.created",
    "worktree.created",
    "worktree.removed",
    "worktree.kept",
  ]);

  // State computed live: a commit on the worktree's branch and a dirty file.
  const wt = join(ws.path, ".claude/worktrees/wt-a");
  await Deno.writeTextFile(join(wt, "a.txt"), "a\n");
  await git(wt, "add", "a.txt");
  await git(wt, "commit", "--quiet", "-m", "add a");
  await Deno.writeTextFile(join(wt, "scratch.txt"), "wip\n");
  // The course's layout, made by hand: listed as git knows it, not in the log.
  await git(ws.path, "worktree", "add", "--quiet", "-b", "wt/course", ".worktrees/course");
  const listed = await runCli(["worktrees", "--json", "--workspace", ws.path]);
  assert.equal(listed.code, 0, listed.stderr);
  const list = JSON.parse(listed.stdout) as Record<string, unknown>[];
  assert.equal(list.length, 2, listed.stdout);
  assert.deepEqual(
    [list[1]?.name, list[1]?.state, list[1]?.branch, list[1]?.files],
    ["course", "unrecorded", "wt/course", "clean"],
  );
  assert.deepEqual(
    {
      name: list[0]?.name,
      task: list[0]?.task,
      state: list[0]?.state,
      files: list[0]?.files,
      dirty: list[0]?.dirty,
      ahead: list[0]?.ahead,
      branch: list[0]?.branch,
    },
    {
      name: "wt-a",
      task: 1,
      state: "kept",
      files: "dirty",
      dirty: ["scratch.txt"],
      ahead: 1,
      branch: "worktree-wt-a",
    },
  );
  const all = JSON.parse(
    (await runCli(["worktrees", "--json", "--all", "--workspace", ws.path])).stdout,
  );
  assert.deepEqual(all.map((w: { name: string; state: string }) => [w.name, w.state]), [
    ["wt-a", "kept"],
    [ISOLATED, "removed"],
    ["course", "unrecorded"],
  ]);
  const state = await runCli(["state", "--workspace", ws.path]);
  assert.equal(state.code, 0, state.stderr);
  assert.match(
    state.stdout,
    /\nworktrees\n {2}wt-a: kept, worktree-wt-a at \.claude\/worktrees\/wt-a, task #1\n/,
  );
  const tasks = await runCli(["tasks", "--workspace", ws.path]);
  assert.match(tasks.stdout, /#1 → wt-a \(worktree-wt-a, \.claude\/worktrees\/wt-a\)/);

  const replay = await runCli(["replay", "--verify", "--workspace", ws.path]);
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

Deno.test("WorktreeCreate hooks get the name and exit 2 refuses; WorktreeRemove hooks get the path", async () => {
  await using ws = await tempWorkspace();
  await hostileRepo(ws.path);
  await Deno.mkdir(join(ws.path, ".claude"), { recursive: true });
  const save = (name: string) => `cat > "$CLAUDE_PROJECT_DIR/${name}"`;
  await Deno.writeTextFile(
    join(ws.path, ".claude", "settings.json"),
    JSON.stringify({
      hooks: {
        WorktreeCreate: [{
          hooks: [{
            type: "command",
            command: `input=$(cat); case "$input" in *'"name":"blocked"'*) ` +
              `echo "No worktree called blocked" >&2; exit 2;; esac; ` +
              `printf '%s' "$input" > "$CLAUDE_PROJECT_DIR/create.json"`,
          }],
        }],
        WorktreeRemove: [{ hooks: [{ type: "command", command: save("remove.json") }] }],
      },
    }),
  );
  const steps = [
    toolUse("b", "create_worktree", { name: "blocked" }),
    toolUse("c", "create_worktree", { name: "fine" }),
    toolUse("r", "remove_worktree", { name: "fine" }),
  ];
  {
    await using fake = await startFakeAnthropic({
      script: (request) => {
        const call = steps[toolResultCount(request.body)];
        return call === undefined ? message("done") : message([call]);
      },
    });
    const run = await runCli([
      "--trust",
      "-p",
      "hooks",
      "--permission-mode",
      "bypassPermissions",
      "--workspace",
      ws.path,
    ], { env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY } });
    assert.equal(run.code, 0, run.stderr);
  }
  const events = await readLogLines(
    join(ws.path, ".rein", "events.jsonl"),
  ) as unknown as Envelope[];
  const got = results(events);
  assert.equal(
    got.get("b")?.content,
    "Worktree not created: a WorktreeCreate hook blocked it: No worktree called blocked",
  );
  await assert.rejects(Deno.stat(join(ws.path, ".claude/worktrees/blocked")));
  assert.equal(got.get("c")?.isError, false, got.get("c")?.content ?? "");
  const created = JSON.parse(await Deno.readTextFile(join(ws.path, "create.json")));
  assert.deepEqual([created.hook_event_name, created.name], ["WorktreeCreate", "fine"]);
  const removed = JSON.parse(await Deno.readTextFile(join(ws.path, "remove.json")));
  assert.deepEqual(
    [removed.hook_event_name, removed.worktree_path],
    ["WorktreeRemove", join(ws.path, ".claude/worktrees/fine")],
  );
  const replay = await runCli(["replay", "--verify", "--workspace", ws.path]);
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

Deno.test("permission rules name the worktree tools by Claude Code's names, the name as specifier", async () => {
  await using ws = await tempWorkspace();
  await hostileRepo(ws.path);
  const steps = [
    toolUse("d", "create_worktree", { name: "bad-one" }),
    toolUse("c", "create_worktree", { name: "good" }),
    toolUse("k", "keep_worktree", { name: "good" }),
    toolUse("r", "remove_worktree", { name: "good" }),
  ];
  const run = async (args: string[]) => {
    await using fake = await startFakeAnthropic({
      script: (request) => {
        const call = steps[toolResultCount(request.body)];
        return call === undefined ? message("done") : message([call]);
      },
    });
    const result = await runCli(["-p", "rules", ...args, "--workspace", ws.path], {
      env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY },
    });
    assert.equal(result.code, 0, result.stderr);
  };
  await run(["--disallowedTools", "EnterWorktree(bad*)", "--allowedTools", "ExitWorktree"]);
  const events = await readLogLines(
    join(ws.path, ".rein", "events.jsonl"),
  ) as unknown as Envelope[];
  const got = results(events);
  assert.equal(got.get("d")?.isError, true);
  assert.match(got.get("d")?.content ?? "", /EnterWorktree\(bad\*\)/);
  assert.equal(got.get("c")?.isError, false, got.get("c")?.content ?? "");
  assert.equal(got.get("k")?.isError, false, got.get("k")?.content ?? "");
  assert.equal(got.get("r")?.isError, false, got.get("r")?.content ?? "");
  await assert.rejects(Deno.stat(join(ws.path, ".claude/worktrees/good")));
});
