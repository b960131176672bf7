/**
 * `deno task install`: puts a `rein` command on the PATH (`$DENO_INSTALL_ROOT/bin`, else
 * `~/.deno/bin`) that starts the bundle through the launcher, with this Deno binary. A shell
 * script, like the ones `deno install` writes, so that the launcher costs a shell, not a second
 * Deno. Run it after `deno task build`.
 *
 * @module
 */
import { dirname, join } from "../events/posix_path.ts";
import { fileURLToPath } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
// The entry of the bundle `deno task build` writes (split in chunks, loaded as they are needed).
const bundle = join(root, "dist", "main.js");
const home = Deno.env.get("HOME");
const installRoot = Deno.env.get("DENO_INSTALL_ROOT") || (home ? join(home, ".deno") : undefined);
if (installRoot === undefined) {
  console.error("rein: Cannot install: neither DENO_INSTALL_ROOT nor HOME is set");
  Deno.exit(1);
}
try {
  await Deno.stat(bundle);
} catch {
  console.error(`rein: Cannot install: no bundle at "${bundle}" (run deno task build first)`);
  Deno.exit(1);
}
const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
const bin = join(installRoot, "bin");
const target = join(bin, "rein");
await Deno.mkdir(bin, { recursive: true });
await Deno.writeTextFile(
  target,
  [
    "#!/bin/sh",
    "# Installed by rein's `deno task install`: the launcher starts the bundle under narrowed",
    "# Deno permissions (cli/launch.sh).",
    `REIN_DENO=${quote(Deno.execPath())} exec sh ${quote(join(root, "cli", "launch.sh"))} ` +
    `--entry ${quote(bundle)} "$@"`,
    "",
  ].join("\n"),
  { mode: 0o755 },
);
await Deno.chmod(target, 0o755);
console.log(`Installed rein at ${target}`);
