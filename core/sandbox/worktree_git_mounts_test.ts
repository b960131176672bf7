import assert from "node:assert/strict";
import { join } from "node:path";
import type { GitEntryKind } from "./git_mounts.ts";
import {
  type WorktreeGitFacts,
  worktreeGitFacts,
  worktreeGitMounts,
} from "./worktree_git_mounts.ts";

const ROOT = "/ws";
const COMMON = "/ws/.git";
const OWN = "/ws/.git/worktrees/a";
const TREE = "/ws/.claude/worktrees/a";

function facts(
  entries: Record<string, GitEntryKind>,
  more: Partial<WorktreeGitFacts> = {},
): WorktreeGitFacts {
  return {
    dotGit: `${TREE}/.git`,
    gitDir: OWN,
    entries: new Map(Object.entries(entries)),
    commonDir: COMMON,
    configText: "[core]\n\tbare = false\n",
    root: ROOT,
    ...more,
  };
}

const WORKTREE_DIR = {
  HEAD: "file",
  index: "file",
  ORIG_HEAD: "file",
  logs: "directory",
  gitdir: "file",
  commondir: "file",
} as const;

Deno.test("a worktree's own git dir is pinned writable; its .git file, gitdir and commondir read-only; a config.worktree it makes is a tripwire", () => {
  const plan = worktreeGitMounts(facts(WORKTREE_DIR));
  assert.deepEqual(plan.mounts, [
    { path: `${TREE}/.git`, access: "readOnly" },
    { path: OWN, access: "pinned" },
    { path: `${OWN}/commondir`, access: "readOnly" },
    { path: `${OWN}/gitdir`, access: "readOnly" },
  ]);
  // hooks/ and info/ come from the common dir: nothing is created in a worktree's git dir.
  assert.deepEqual(plan.create, []);
  assert.deepEqual(plan.tripwires, [`${OWN}/config.worktree`]);
});

Deno.test("with extensions.worktreeConfig on, a worktree's config.worktree is made empty or kept, read-only", () => {
  const on = "[extensions]\n\tworktreeConfig = true\n";
  const missing = worktreeGitMounts(facts(WORKTREE_DIR, { configText: on }));
  assert.deepEqual(missing.create, [{ path: `${OWN}/config.worktree`, kind: "file" }]);
  assert.ok(
    missing.mounts.some((m) => m.path === `${OWN}/config.worktree` && m.access === "readOnly"),
  );
  assert.deepEqual(missing.tripwires, []);
  const there = worktreeGitMounts(
    facts({ ...WORKTREE_DIR, "config.worktree": "file" }, { configText: on }),
  );
  assert.deepEqual(there.create, []);
  assert.ok(
    there.mounts.some((m) => m.path === `${OWN}/config.worktree` && m.access === "readOnly"),
  );
  assert.deepEqual(there.tripwires, []);
});

Deno.test("a hooks path the common config names inside the worktree is made and bound read-only", () => {
  const plan = worktreeGitMounts(
    facts(WORKTREE_DIR, { configText: "[core]\n\thooksPath = .githooks\n" }),
  );
  assert.deepEqual(plan.create, [{ path: `${TREE}/.githooks`, kind: "directory" }]);
  assert.deepEqual(plan.mounts.at(-1), { path: `${TREE}/.githooks`, access: "readOnly" });
});

Deno.test("a symlink among a worktree git dir's guarded entries leaves the whole git dir read-only", () => {
  const plan = worktreeGitMounts(facts({ ...WORKTREE_DIR, gitdir: "symlink" }));
  assert.deepEqual(plan.mounts, [
    { path: `${TREE}/.git`, access: "readOnly" },
    { path: OWN, access: "readOnly" },
  ]);
});

Deno.test("a worktree git dir outside <common>/worktrees/, or a common dir outside the workspace, gets nothing writable", () => {
  const none = { create: [], mounts: [], tripwires: [] };
  assert.deepEqual(
    worktreeGitMounts(facts(WORKTREE_DIR, { gitDir: "/ws/.git/elsewhere/a" })),
    none,
  );
  assert.deepEqual(
    worktreeGitMounts(facts(WORKTREE_DIR, { gitDir: "/ws/.git/worktrees/a/b" })),
    none,
  );
  assert.deepEqual(
    worktreeGitMounts(
      facts(WORKTREE_DIR, { commonDir: "/other/.git", gitDir: "/other/.git/worktrees/a" }),
    ),
    none,
  );
});

Deno.test("worktreeGitFacts reads a real worktree from its folder or one below, and nothing for the main checkout", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-wt-git-" }));
  try {
    const git = (...args: string[]) =>
      new Deno.Command("git", {
        args: ["-c", "user.name=t", "-c", "user.email=t@t", ...args],
        cwd: root,
        stdout: "null",
        stderr: "null",
      }).output();
    await git("init", "-q", "-b", "main");
    await git("commit", "-q", "--allow-empty", "-m", "first");
    await git("worktree", "add", "-q", "-b", "worktree-a", ".claude/worktrees/a");
    const tree = join(root, ".claude/worktrees/a");
    await Deno.mkdir(join(tree, "sub"));
    for (const cwd of [tree, join(tree, "sub")]) {
      const read = worktreeGitFacts(root, cwd);
      assert.ok(read);
      assert.equal(read.dotGit, join(tree, ".git"));
      assert.equal(read.gitDir, join(root, ".git/worktrees/a"));
      assert.equal(read.commonDir, join(root, ".git"));
      assert.equal(read.entries.get("gitdir"), "file");
      assert.match(read.configText, /\[core\]/);
    }
    assert.equal(worktreeGitFacts(root, root), undefined);
    await Deno.mkdir(join(root, "src"));
    assert.equal(worktreeGitFacts(root, join(root, "src")), undefined);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
