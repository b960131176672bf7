/**
 * The bundle `deno task install` would install, built for a bench the way the `build` task builds
 * it, into a temporary directory that is removed when the bench process unloads.
 */
import { dirname, join } from "node:path";

const ROOT = new URL("../", import.meta.url);

/** Build the bundle the way `deno task build` does; resolves to its path. */
export async function buildBundle(prefix: string): Promise<string> {
  const tasks: Record<string, string> = JSON.parse(
    await Deno.readTextFile(new URL("deno.json", ROOT)),
  ).tasks;
  const words = (tasks.build ?? "").split(/\s+/);
  const out = join(await Deno.makeTempDir({ prefix }), "rein.js");
  globalThis.addEventListener("unload", () => {
    try {
      Deno.removeSync(dirname(out), { recursive: true });
    } catch {
      // Already gone.
    }
  });
  const args = words.slice(1).map((word, i, all) => all[i - 1] === "-o" ? out : word);
  const built = await new Deno.Command(Deno.execPath(), { args, cwd: ROOT }).output();
  if (!built.success) throw new Error(`Bundling failed: ${new TextDecoder().decode(built.stderr)}`);
  return out;
}
