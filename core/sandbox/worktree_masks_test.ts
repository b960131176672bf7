import assert from "node:assert/strict";
import { otherWorktrees, type ReadFolder } from "./worktree_masks.ts";

/** A tree of folders (objects) and files (strings). */
type Tree = { [name: string]: Tree | string };

function reader(root: string, tree: Tree): ReadFolder {
  return (path) => {
    let at: Tree | string | undefined = tree;
    for (const part of path.slice(root.length).split("/").filter(Boolean)) {
      at = typeof at === "object" ? at[part] : undefined;
    }
    if (typeof at !== "object") return [];
    return Object.entries(at).map(([name, value]) => ({
      name,
      isDirectory: typeof value === "object",
    }));
  };
}

const TREE: Tree = {
  src: {},
  ".claude": {
    worktrees: {
      a: { ".git": "gitdir", "x.txt": "x" },
      b: { ".git": "gitdir" },
      team: { c: { ".git": "gitdir" }, d: { ".git": "gitdir" } },
      "notes.txt": "n",
    },
  },
  ".worktrees": { old: { ".git": "gitdir" } },
};

Deno.test("in worktree a, every other worktree of both folders is hidden, and nothing of a", () => {
  assert.deepEqual(
    otherWorktrees("/r", "/r/.claude/worktrees/a/src", reader("/r", TREE), () => []),
    [
      { path: "/r/.claude/worktrees/b", kind: "directory" },
      { path: "/r/.claude/worktrees/team", kind: "directory" },
      { path: "/r/.claude/worktrees/notes.txt", kind: "file" },
    ],
  );
});

Deno.test("in a nested worktree, its siblings on the way down are hidden", () => {
  assert.deepEqual(
    otherWorktrees("/r", "/r/.claude/worktrees/team/c", reader("/r", TREE), () => []),
    [
      { path: "/r/.claude/worktrees/a", kind: "directory" },
      { path: "/r/.claude/worktrees/b", kind: "directory" },
      { path: "/r/.claude/worktrees/notes.txt", kind: "file" },
      { path: "/r/.claude/worktrees/team/d", kind: "directory" },
    ],
  );
  assert.deepEqual(otherWorktrees("/r", "/r/.worktrees/old", reader("/r", TREE), () => []), []);
});

Deno.test("where the folders cannot be listed, the worktrees git knows are hidden", () => {
  const unlisted = (path: string) =>
    path === "/r/.claude/worktrees" ? [] : reader("/r", TREE)(path);
  const known = () => [
    "/r/.claude/worktrees/a",
    "/r/.claude/worktrees/b",
    "/r/.claude/worktrees/team/c",
    "/r/elsewhere/x",
  ];
  assert.deepEqual(otherWorktrees("/r", "/r/.claude/worktrees/a", unlisted, known), [
    { path: "/r/.claude/worktrees/b", kind: "directory" },
    { path: "/r/.claude/worktrees/team/c", kind: "directory" },
  ]);
});

Deno.test("outside the worktree folders nothing is hidden", () => {
  assert.deepEqual(otherWorktrees("/r", "/r/src", reader("/r", TREE), () => []), []);
  assert.deepEqual(otherWorktrees("/r", "/r", reader("/r", TREE), () => []), []);
  assert.deepEqual(otherWorktrees("/r", "/r/.claude/worktrees", reader("/r", TREE), () => []), []);
});
