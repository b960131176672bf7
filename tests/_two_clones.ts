/**
 * Two "machines" for the PostgreSQL team tests: two git clones of one repository in `root`, each
 * a machine's working copy; and `rein view` reading their shared log.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { CLI } from "./_cli.ts";

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

/** A `rein view --store …` process that has printed its address; disposing it stops it. */
export interface StoreView extends AsyncDisposable {
  /** What it printed up to its "(Ctrl-C to stop)" line. */
  printed: string;
  /** The address it printed, with its token: `http://127.0.0.1:PORT/?t=…`. */
  address: string;
}

/**
 * Start `rein view --store STORE` (from source, with PATH and HOME only, `root` as HOME when the
 * test has none) and wait for its "(Ctrl-C to stop)" line; throws with what it printed when it
 * ends before that line (on any failure it is stopped first).
 */
export async function startStoreView(store: string, root: string): Promise<StoreView> {
  const view = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", CLI, "view", "--store", store],
    env: { PATH: Deno.env.get("PATH") ?? "", HOME: Deno.env.get("HOME") ?? root },
    clearEnv: true,
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const stop = async () => {
    try {
      view.kill("SIGTERM");
    } catch (error) {
      // Deno throws a TypeError when the process has already ended.
      if (!(error instanceof TypeError)) throw error;
    }
    await view.status;
  };
  try {
    const reader = view.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let printed = "";
    while (!/\(Ctrl-C to stop\)/.test(printed)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`rein view ended: ${printed}`);
      printed += value;
    }
    reader.releaseLock();
    const address = /(http:\/\/127\.0\.0\.1:\d+\/\?t=[0-9a-f]+)/.exec(printed)![1]!;
    return { printed, address, [Symbol.asyncDispose]: stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
