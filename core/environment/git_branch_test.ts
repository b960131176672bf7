import assert from "node:assert/strict";
import { join } from "node:path";
import { describeHead, readGitHead } from "./git_branch.ts";

Deno.test("the git HEAD says the branch, or the commit when detached", () => {
  assert.equal(describeHead("ref: refs/heads/main\n"), "on branch main");
  assert.equal(describeHead("ref: refs/heads/feature/x\n"), "on branch feature/x");
  assert.equal(describeHead("1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b\n"), "detached at 1a2b3c4");
  assert.equal(describeHead("garbage"), undefined);
});

Deno.test("the HEAD of the repository above the workspace is read, and a worktree's through .git", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-git-" }));
  try {
    await Deno.mkdir(join(root, "repo/.git"), { recursive: true });
    await Deno.writeTextFile(join(root, "repo/.git/HEAD"), "ref: refs/heads/main\n");
    await Deno.mkdir(join(root, "repo/pkg/src"), { recursive: true });
    const [head] = await readGitHead(join(root, "repo/pkg/src"));
    assert.equal(head?.path, join(root, "repo/.git/HEAD"));
    assert.equal(head?.text, "ref: refs/heads/main\n");

    await Deno.mkdir(join(root, "repo/.git/worktrees/wt"), { recursive: true });
    await Deno.writeTextFile(join(root, "repo/.git/worktrees/wt/HEAD"), "ref: refs/heads/wt\n");
    await Deno.mkdir(join(root, "wt"));
    await Deno.writeTextFile(
      join(root, "wt/.git"),
      `gitdir: ${join(root, "repo/.git/worktrees/wt")}\n`,
    );
    const [worktree] = await readGitHead(join(root, "wt"));
    assert.equal(worktree?.text, "ref: refs/heads/wt\n");

    await Deno.mkdir(join(root, "plain"));
    assert.deepEqual(
      await readGitHead(join(root, "plain")).then((f) => f.filter((x) => x.path.startsWith(root))),
      [],
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
