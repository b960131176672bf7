/**
 * The bundle `deno task install` would install, built for a bench the way the `build` task builds
 * it, into a temporary directory beside `dist/` (so it finds rein's skills as installed) that is removed when the bench process unloads.
 */
import { buildBundle as buildInto, bundleDir } from "../testing/build_bundle.ts";

/** Build the bundle the way `deno task build` does; resolves to the path of its entry. */
export async function buildBundle(): Promise<string> {
  const dir = await bundleDir();
  globalThis.addEventListener("unload", () => {
    try {
      Deno.removeSync(dir, { recursive: true });
    } catch {
      // Already gone.
    }
  });
  return await buildInto(dir);
}
