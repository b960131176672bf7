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

Deno.test("a HEAD that leads out of its git dir, a named pipe, a credential or no HEAD at all is not read", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-git-" }));
  try {
    const notices: string[] = [];
    const onNotice = (message: string) => notices.push(message);
    await Deno.writeTextFile(join(root, "id_rsa"), "ref: refs/heads/x\nPRIVATE KEY\n");
    await Deno.mkdir(join(root, "linked/.git"), { recursive: true });
    await Deno.symlink(join(root, "id_rsa"), join(root, "linked/.git/HEAD"));
    assert.deepEqual(await readGitHead(join(root, "linked"), { onNotice }), []);
    assert.match(notices[0] ?? "", /linked\/\.git\/HEAD/);

    await Deno.mkdir(join(root, "inside/.git"), { recursive: true });
    await Deno.writeTextFile(join(root, "inside/.git/key"), "ref: refs/heads/x\nPRIVATE KEY\n");
    await Deno.symlink("key", join(root, "inside/.git/HEAD"));
    assert.deepEqual(await readGitHead(join(root, "inside"), { onNotice }), []);

    await Deno.mkdir(join(root, "creds/.git"), { recursive: true });
    await Deno.writeTextFile(join(root, "creds/.git/HEAD"), "ref: refs/heads/main\n");
    const credentials = [join(root, "creds/.git")];
    assert.deepEqual(await readGitHead(join(root, "creds"), { credentials, onNotice }), []);

    await Deno.mkdir(join(root, "fifo/.git"), { recursive: true });
    await new Deno.Command("mkfifo", { args: [join(root, "fifo/.git/HEAD")] }).output();
    assert.deepEqual(await readGitHead(join(root, "fifo"), { onNotice }), []);
    assert.equal(notices.length, 4, notices.join("\n"));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
