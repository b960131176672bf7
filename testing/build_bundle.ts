/**
 * Builds the bundle `deno task install` installs, with the `build` task's own `deno bundle`
 * command (read from deno.json, so a test or bench cannot drift from it), into `outDir`.
 * {@link bundleDir} gives a directory where it runs as the installed one does: one level below
 * the clone, so that rein's own `skills/` is found beside it.
 *
 * @module
 */
import { join } from "node:path";

const ROOT = new URL("../", import.meta.url);

/**
 * A new directory one level below the clone (as `dist/` is; ignored by git), for
 * {@link buildBundle}. The caller removes it.
 */
export function bundleDir(): Promise<string> {
  return Deno.makeTempDir({ dir: new URL(".", ROOT).pathname, prefix: ".bundle-" });
}

/**
 * Runs the `build` task's `deno bundle` command with its `--outdir` set to `outDir` (the task's
 * other steps, such as removing the old `dist/`, are left out); resolves to the path of the
 * bundle's entry. Throws with Deno's message when bundling fails.
 */
export async function buildBundle(outDir: string): Promise<string> {
  const tasks: Record<string, string> = JSON.parse(
    await Deno.readTextFile(new URL("deno.json", ROOT)),
  ).tasks;
  const command = (tasks.build ?? "").split("&&").map((step) => step.trim())
    .find((step) => step.startsWith("deno bundle "));
  if (command === undefined) throw new Error('The "build" task runs no "deno bundle" command');
  const words = command.split(/\s+/);
  const at = words.indexOf("--outdir");
  if (at === -1) throw new Error('The "build" task\'s "deno bundle" has no --outdir');
  const args = words.slice(1).map((word, i) => i + 1 === at + 1 ? outDir : word);
  const built = await new Deno.Command(Deno.execPath(), { args, cwd: ROOT, stderr: "piped" })
    .output();
  if (!built.success) {
    throw new Error(`Bundling failed: ${new TextDecoder().decode(built.stderr)}`);
  }
  const entry = words.at(-1) ?? "";
  return join(outDir, `${entry.split("/").at(-1)?.replace(/\.ts$/, "")}.js`);
}
