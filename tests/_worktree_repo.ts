/**
 * A git repository for the worktree tests (tests/worktree_*_test.ts). Private to tests/.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";

/** Run git in `cwd` (a test's identity), failing the test when it fails; its stdout. */
export async function git(cwd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=t", "-c", "user.email=t@t", ...args],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, `git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  return new TextDecoder().decode(out.stdout);
}

/** A repository at `path` with one commit (README.md, and .rein/ ignored). */
export async function gitRepo(path: string): Promise<void> {
  await git(path, "init", "--quiet", "--initial-branch=main");
  await Deno.writeTextFile(join(path, "README.md"), "hello\n");
  await Deno.writeTextFile(join(path, ".gitignore"), ".rein/\n");
  await git(path, "add", "README.md", ".gitignore");
  await git(path, "commit", "--quiet", "-m", "first");
}
