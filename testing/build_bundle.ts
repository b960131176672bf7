/**
 * Builds the bundle `deno task install` installs, with the `build` task's own code
 * (cli/build.ts, so a test or bench cannot drift from it), into `outDir`. {@link bundleDir} gives
 * a directory where it runs as the installed one does: one level below the clone, so that rein's
 * own `skills/` is found beside it.
 *
 * @module
 */
export { buildBundle } from "../cli/build.ts";

const ROOT = new URL("../", import.meta.url);

/**
 * A new directory one level below the clone (as `dist/` is; ignored by git), for
 * `buildBundle`. The caller removes it.
 */
export function bundleDir(): Promise<string> {
  return Deno.makeTempDir({ dir: new URL(".", ROOT).pathname, prefix: ".bundle-" });
}
