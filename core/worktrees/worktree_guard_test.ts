import assert from "node:assert/strict";
import { guardedFolder } from "../tools/workspace_path.ts";

Deno.test("a file of a worktree under .claude/worktrees/ is not guarded; its .claude and .git are", () => {
  assert.equal(guardedFolder("/w", "/w/.claude/worktrees/a/src/x.ts"), undefined);
  assert.equal(guardedFolder("/w", "/w/.claude/worktrees/a/b/x.ts"), undefined);
  assert.equal(guardedFolder("/w", "/w/.claude/worktrees/a/.claude/settings.json"), ".claude");
  assert.equal(guardedFolder("/w", "/w/.claude/worktrees/a/.git"), ".git");
  assert.equal(guardedFolder("/w", "/w/.claude/worktrees/a"), ".claude");
  assert.equal(guardedFolder("/w", "/w/.claude/settings.json"), ".claude");
  assert.equal(guardedFolder("/w", "/w/.CLAUDE/worktrees/a/x"), ".claude");
});
