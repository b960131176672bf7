/**
 * Two "machines" for the PostgreSQL team tests: two git clones of one repository in `root`, each
 * a machine's working copy.
 */
import assert from "node:assert/strict";
import { join } from "node:path";

async function git(args: string[], cwd: string): Promise<void> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
}

/**
 * A repository `root/origin` with one commit (a README), cloned to `root/machine-a` and
 * `root/machine-b`; resolves to the two clones' paths.
 */
export async function twoClones(root: string): Promise<[string, string]> {
  const origin = join(root, "origin");
  const [a, b] = [join(root, "machine-a"), join(root, "machine-b")];
  await Deno.mkdir(origin);
  await git(["init", "-q", "-b", "main"], origin);
  await Deno.writeTextFile(join(origin, "README.md"), "shared project\n");
  await git(["add", "README.md"], origin);
  await git(["commit", "-q", "-m", "start"], origin);
  await git(["clone", "-q", origin, a], root);
  await git(["clone", "-q", origin, b], root);
  return [a, b];
}
