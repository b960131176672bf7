import assert from "node:assert/strict";
import { removalRefusal } from "./removal_refusal.ts";

Deno.test("a worktree with nothing of its own is removed without a word", () => {
  assert.equal(removalRefusal("a", "HEAD", { files: [], commits: [] }), undefined);
});

Deno.test("the refusal lists the uncommitted files and the unmerged commits", () => {
  const text = removalRefusal("a", "main", {
    files: ["notes.txt", "src/x.ts"],
    commits: ["abc1234 Add x"],
  }) ?? "";
  assert.match(text, /^Worktree "a" was not removed: it has 2 files with uncommitted changes:/);
  assert.ok(text.includes("\n  notes.txt\n  src/x.ts\n"), text);
  assert.ok(text.includes("and 1 commit not merged into main:\n  abc1234 Add x\n"), text);
  assert.match(text, /discard_changes: true/);
});

Deno.test("a long list is cut with a count of the rest", () => {
  const files = Array.from({ length: 25 }, (_, i) => `f${i}`);
  const text = removalRefusal("a", "HEAD", { files, commits: [] }) ?? "";
  assert.match(text, /25 files/);
  assert.ok(text.includes("  f19\n  … and 5 more\n"), text);
  assert.doesNotMatch(text, /f20/);
});
