import assert from "node:assert/strict";
import { NO_WORKTREE_SETUP, worktreeSetupOf } from "./worktree_setup.ts";

Deno.test("worktreeSetupOf reads Claude Code's worktree settings, leaving out paths that leave the checkout", () => {
  assert.deepEqual(
    worktreeSetupOf({
      worktree: {
        baseRef: "fresh",
        symlinkDirectories: ["node_modules", "pkg/cache/", "../up", "/abs", ".git/hooks", 3],
        sparsePaths: ["src", "docs/api"],
        bgIsolation: "none",
      },
    }),
    {
      baseRef: "fresh",
      symlinkDirectories: ["node_modules", "pkg/cache"],
      sparsePaths: ["src", "docs/api"],
    },
  );
  assert.deepEqual(worktreeSetupOf({ worktree: { baseRef: "head" } }), NO_WORKTREE_SETUP);
  assert.deepEqual(worktreeSetupOf({ worktree: "x" }), NO_WORKTREE_SETUP);
  assert.deepEqual(worktreeSetupOf(undefined), NO_WORKTREE_SETUP);
});
