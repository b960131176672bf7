import assert from "node:assert/strict";
import { join } from "node:path";
import type { Git } from "./_git.ts";
import { porcelainFiles, WorktreeGit } from "./worktree_git.ts";

async function sh(cwd: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=t", "-c", "user.email=t@t", ...args],
    cwd,
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
}

/**
 * A repository whose configuration runs code on checkout and status: a post-checkout hook, a
 * file-system monitor hook, a smudge and a clean filter, each leaving a file in `marks`.
 */
async function hostileRepo(): Promise<{ repo: string; marks: string } & AsyncDisposable> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-wt-git-" }));
  const repo = join(root, "repo");
  const marks = join(root, "marks");
  await Deno.mkdir(repo);
  await Deno.mkdir(marks);
  await sh(repo, "init", "--quiet", "--initial-branch=main");
  await Deno.writeTextFile(join(repo, ".gitattributes"), "*.txt filter=evil\n");
  await Deno.writeTextFile(join(repo, "a.txt"), "a\n");
  await sh(repo, "add", ".");
  await sh(repo, "commit", "--quiet", "-m", "first");
  const script = (name: string) => `#!/bin/sh\ntouch ${join(marks, name)}\ncat\n`;
  for (const name of ["post-checkout", "fsmonitor", "smudge", "clean"]) {
    const path = join(root, `${name}.sh`);
    await Deno.writeTextFile(path, script(name));
    await Deno.chmod(path, 0o755);
  }
  await Deno.copyFile(join(root, "post-checkout.sh"), join(repo, ".git/hooks/post-checkout"));
  await sh(repo, "config", "core.fsmonitor", join(root, "fsmonitor.sh"));
  await sh(repo, "config", "filter.evil.smudge", join(root, "smudge.sh"));
  await sh(repo, "config", "filter.evil.clean", join(root, "clean.sh"));
  return {
    repo,
    marks,
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

async function marksOf(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((entry) => entry.name).sort();
}

/** git as a plain `git` command would run it: with the repository's configuration obeyed. */
const plainGit: Git = async (args, cwd) => {
  const out = await new Deno.Command("git", {
    args: [...args],
    cwd,
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  const text = new TextDecoder();
  return { code: out.code, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
};

Deno.test("making, reading and removing a worktree runs none of a hostile repository's code", async () => {
  await using repo = await hostileRepo();
  const git = new WorktreeGit(repo.repo);
  const base = await git.resolve("HEAD");
  assert.ok(base.ok);
  assert.deepEqual(await git.add(".claude/worktrees/a", "worktree-a", base.value), {
    ok: true,
    value: undefined,
  });
  assert.equal(await Deno.readTextFile(join(repo.repo, ".claude/worktrees/a/a.txt")), "a\n");
  await Deno.writeTextFile(join(repo.repo, ".claude/worktrees/a/b.txt"), "b\n");
  const changes = await git.changes(".claude/worktrees/a", "worktree-a", "HEAD", base.value);
  assert.deepEqual(changes, { ok: true, value: { files: ["b.txt"], commits: [] } });
  assert.deepEqual(await git.remove(".claude/worktrees/a", "worktree-a"), {
    ok: true,
    value: undefined,
  });
  assert.deepEqual(await marksOf(repo.marks), []);
});

Deno.test("the same repository run by a plain git runs its hook, monitor and filter", async () => {
  await using repo = await hostileRepo();
  const git = new WorktreeGit(repo.repo, plainGit);
  const base = await git.resolve("HEAD");
  assert.ok(base.ok);
  await plainGit(
    ["worktree", "add", "-b", "worktree-a", "--", ".claude/worktrees/a", base.value],
    repo.repo,
  );
  await git.changes(".claude/worktrees/a", "worktree-a", "HEAD", base.value);
  // (The clean filter runs too when status finds a file racily clean: not every time.)
  const marks = await marksOf(repo.marks);
  for (const mark of ["fsmonitor", "post-checkout", "smudge"]) {
    assert.ok(marks.includes(mark), mark);
  }
});

Deno.test("a revision that looks like an option is not taken for one", async () => {
  await using repo = await hostileRepo();
  const git = new WorktreeGit(repo.repo);
  const got = await git.resolve("--upload-pack=touch x");
  assert.equal(got.ok, false);
  await assert.rejects(Deno.stat(join(repo.repo, "x")));
});

Deno.test("no worktree is made where .claude/worktrees leads out of the workspace", async () => {
  await using repo = await hostileRepo();
  const outside = join(repo.marks, "..", "elsewhere");
  await Deno.mkdir(outside);
  await Deno.mkdir(join(repo.repo, ".claude"));
  await Deno.symlink(outside, join(repo.repo, ".claude", "worktrees"));
  const git = new WorktreeGit(repo.repo);
  const base = await git.resolve("HEAD");
  assert.ok(base.ok);
  assert.deepEqual(await git.add(".claude/worktrees/a", "worktree-a", base.value), {
    ok: false,
    why: ".claude/worktrees leads out of the workspace",
  });
  assert.deepEqual([...Deno.readDirSync(outside)], []);
  await Deno.mkdir(join(repo.repo, "taken"));
  assert.deepEqual(await git.add("taken", "worktree-t", base.value), {
    ok: false,
    why: "Something is at taken already",
  });
});

Deno.test("git status -z is read file by file, a rename by its new name", () => {
  assert.deepEqual(porcelainFiles(""), []);
  assert.deepEqual(
    porcelainFiles(" M a.txt\0?? dir/b c.txt\0R  new.txt\0old.txt\0D  gone.txt\0"),
    ["a.txt", "dir/b c.txt", "new.txt", "gone.txt"],
  );
});
