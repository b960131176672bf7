import assert from "node:assert/strict";
import {
  baseProblem,
  worktreeBranch,
  worktreeFolder,
  worktreeNameProblem,
} from "./worktree_name.ts";

Deno.test("worktree names follow Claude Code's rule", () => {
  for (const name of ["feature", "a/b", "QA_bot-2", "v1.2", "x".repeat(64), "a/b/c.d_e-f"]) {
    assert.equal(worktreeNameProblem(name), undefined, name);
  }
});

Deno.test("worktree names that are empty, too long, hold .. or look like options are refused", () => {
  const refused: [unknown, RegExp][] = [
    ["", /needs a name/],
    [undefined, /needs a name/],
    ["x".repeat(65), /over 64 characters/],
    ["..", /contains "\.\."/],
    ["a/../b", /contains "\.\."/],
    ["-x", /may not start with "-"/],
    ["a/-rf", /may not start with "-"/],
    [".hidden", /may not start with "\."/],
    ["a//b", /empty segment/],
    ["/abs", /empty segment/],
    ["a/", /empty segment/],
    ["a b", /only letters/],
    ["a;b", /only letters/],
    ["naïve", /only letters/],
    ["x.lock", /\.lock/],
    ["x.", /end with/],
  ];
  for (const [name, why] of refused) {
    assert.match(worktreeNameProblem(name) ?? "", why, String(name));
  }
});

Deno.test("a worktree's folder and branch are Claude Code's", () => {
  assert.equal(worktreeFolder("a/b"), ".claude/worktrees/a/b");
  assert.equal(worktreeBranch("a/b"), "worktree-a/b");
});

Deno.test("a base that looks like an option or holds spaces is refused", () => {
  assert.equal(baseProblem("main"), undefined);
  assert.equal(baseProblem("HEAD~2"), undefined);
  assert.match(baseProblem("--upload-pack=x") ?? "", /looks like an option/);
  assert.match(baseProblem("-x") ?? "", /looks like an option/);
  assert.match(baseProblem("a b") ?? "", /no spaces/);
  assert.match(baseProblem("") ?? "", /must be a revision/);
});
