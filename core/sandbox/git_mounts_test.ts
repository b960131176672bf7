import assert from "node:assert/strict";
import { type GitDirFacts, gitDirMounts, type GitEntryKind } from "./git_mounts.ts";

function facts(
  entries: Record<string, GitEntryKind>,
  more: Partial<GitDirFacts> = {},
): GitDirFacts {
  return {
    gitDir: "/ws/.git",
    entries: new Map(Object.entries(entries)),
    configText: "[core]\n\tbare = false\n",
    workTree: "/ws",
    home: "/home/u",
    writable: ["/ws"],
    ...more,
  };
}

const REPOSITORY: Record<string, GitEntryKind> = {
  HEAD: "file",
  config: "file",
  description: "file",
  hooks: "directory",
  index: "file",
  info: "directory",
  logs: "directory",
  objects: "directory",
  "packed-refs": "file",
  refs: "directory",
};

Deno.test("a git dir is pinned writable with its configuration, hooks and info read-only", () => {
  assert.deepEqual(gitDirMounts(facts(REPOSITORY)), {
    create: [],
    mounts: [
      { path: "/ws/.git", access: "pinned" },
      { path: "/ws/.git/config", access: "readOnly" },
      { path: "/ws/.git/hooks", access: "readOnly" },
      { path: "/ws/.git/info", access: "readOnly" },
    ],
    tripwires: ["/ws/.git/commondir"],
  });
});

Deno.test("submodules', worktrees' and legacy remotes' entries are read-only when present", () => {
  const plan = gitDirMounts(facts({
    ...REPOSITORY,
    "config.worktree": "file",
    commondir: "file",
    gitdir: "file",
    modules: "directory",
    worktrees: "directory",
    branches: "directory",
    remotes: "directory",
  }));
  assert.deepEqual(
    plan.mounts.filter((mount) => mount.access === "readOnly").map((mount) => mount.path),
    [
      "config",
      "config.worktree",
      "commondir",
      "gitdir",
      "hooks",
      "info",
      "modules",
      "worktrees",
      "branches",
      "remotes",
    ].map((name) => `/ws/.git/${name}`),
  );
  assert.deepEqual(plan.tripwires, [], "an existing commondir is mounted over");
});

Deno.test("missing hooks and info are made empty first, so no command makes them", () => {
  const { hooks: _, info: __, ...bare } = REPOSITORY;
  const plan = gitDirMounts(facts(bare));
  assert.deepEqual(plan.create, [
    { path: "/ws/.git/hooks", kind: "directory" },
    { path: "/ws/.git/info", kind: "directory" },
  ]);
  assert.ok(plan.mounts.some((m) => m.path === "/ws/.git/hooks" && m.access === "readOnly"));
});

Deno.test("an empty config.worktree is made where the config may read one", () => {
  const configText = "[extensions]\n\tworktreeConfig = true\n";
  const plan = gitDirMounts(facts(REPOSITORY, { configText }));
  assert.deepEqual(plan.create, [{ path: "/ws/.git/config.worktree", kind: "file" }]);
  assert.ok(plan.mounts.some((m) => m.path === "/ws/.git/config.worktree"));
  assert.deepEqual(gitDirMounts(facts(REPOSITORY)).create, [], "not otherwise");
});

Deno.test("a core.hooksPath in a writable dir is made and mounted read-only", () => {
  const configText = '[core]\n\thooksPath = ".husky/_"\n[alias "x"]\n\thooksPath = other\n';
  const plan = gitDirMounts(facts(REPOSITORY, { configText }));
  assert.deepEqual(plan.create, [{ path: "/ws/.husky/_", kind: "directory" }]);
  assert.deepEqual(plan.mounts.at(-1), { path: "/ws/.husky/_", access: "readOnly" });
  const home = gitDirMounts(facts(REPOSITORY, { configText: "[core]\nhookspath = ~/hooks\n" }));
  assert.deepEqual(home.create, [], "outside the writable dirs it is read-only already");
});

Deno.test("a symlinked guarded entry makes the whole git dir read-only, with its target", () => {
  const plan = gitDirMounts(facts({ ...REPOSITORY, hooks: "symlink" }, {
    symlinkTargets: new Map([["hooks", "/ws/tools/hooks"]]),
  }));
  assert.deepEqual(plan, {
    create: [],
    mounts: [
      { path: "/ws/.git", access: "readOnly" },
      { path: "/ws/tools/hooks", access: "readOnly" },
    ],
    tripwires: [],
  });
});

Deno.test("a linked worktree's git dir is planned as any other", () => {
  const plan = gitDirMounts(facts({
    HEAD: "file",
    commondir: "file",
    gitdir: "file",
    index: "file",
  }, { gitDir: "/repo/.git/worktrees/wt", workTree: "/repo/wt", writable: ["/repo"] }));
  assert.deepEqual(plan.mounts, [
    { path: "/repo/.git/worktrees/wt", access: "pinned" },
    { path: "/repo/.git/worktrees/wt/commondir", access: "readOnly" },
    { path: "/repo/.git/worktrees/wt/gitdir", access: "readOnly" },
  ]);
  assert.deepEqual(plan.create, [], "git takes hooks and info from the common dir");
  assert.deepEqual(plan.tripwires, []);
});
