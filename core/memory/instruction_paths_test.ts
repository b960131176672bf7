import assert from "node:assert/strict";
import { join } from "node:path";
import { instructionPaths, projectDirectories } from "./instruction_paths.ts";

async function tempTree(): Promise<string> {
  return await Deno.realPath(await Deno.makeTempDir({ prefix: "rein_memory_" }));
}

Deno.test("the walk goes up from the workspace to the repository root and stops there", async () => {
  const root = await tempTree();
  try {
    const repo = join(root, "home", "repo");
    const workspace = join(repo, "packages", "app");
    await Deno.mkdir(workspace, { recursive: true });
    await Deno.mkdir(join(repo, ".git"));
    assert.deepEqual(await projectDirectories(workspace, join(root, "home")), [
      repo,
      join(repo, "packages"),
      workspace,
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("the walk stops at the home directory when no repository is above", async () => {
  const root = await tempTree();
  try {
    const home = join(root, "home");
    const workspace = join(home, "scratch", "app");
    await Deno.mkdir(workspace, { recursive: true });
    assert.deepEqual(await projectDirectories(workspace, home), [
      home,
      join(home, "scratch"),
      workspace,
    ]);
    // A .git file (a worktree's) marks a repository root too.
    await Deno.writeTextFile(join(workspace, ".git"), "gitdir: elsewhere\n");
    assert.deepEqual(await projectDirectories(workspace, home), [workspace]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("outside any repository and home, only the workspace is read", async () => {
  const root = await tempTree();
  try {
    const workspace = join(root, "a", "b");
    await Deno.mkdir(workspace, { recursive: true });
    assert.deepEqual(await projectDirectories(workspace, join(root, "elsewhere")), [workspace]);
    assert.deepEqual(await projectDirectories(workspace, undefined), [workspace]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("instruction files: the user's first, then root to workspace, personal ones last", () => {
  assert.deepEqual(instructionPaths(["/r", "/r/w"], "/h"), [
    "/h/.claude/CLAUDE.md",
    "/r/CLAUDE.md",
    "/r/.claude/CLAUDE.md",
    "/r/AGENTS.md",
    "/r/w/CLAUDE.md",
    "/r/w/.claude/CLAUDE.md",
    "/r/w/AGENTS.md",
    "/r/CLAUDE.local.md",
    "/r/w/CLAUDE.local.md",
  ]);
  assert.deepEqual(instructionPaths(["/w"], undefined).length, 4);
});
