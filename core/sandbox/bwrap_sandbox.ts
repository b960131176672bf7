import type { BashSandbox } from "../tools/bash.ts";
import { bwrapArgs, type SandboxConfig } from "./bwrap_args.ts";

/**
 * The bash tool's sandbox on bwrap: `config.bwrap`, its options, `--`, then bash; described for
 * the model so a "Read-only file system" error explains itself. After each call it removes what
 * is at `config.tripwires` (the one effect; building it is pure).
 */
export function bwrapSandbox(config: SandboxConfig): BashSandbox {
  const others = config.writable.slice(1);
  const writable = others.length === 0
    ? "the workspace"
    : `the workspace and ${others.map((dir) => `\`${dir}\``).join(", ")}`;
  return {
    description: `Commands run in a sandbox: they can change files only in ${writable} ` +
      "(except rein's log directory and git's configuration and hooks) and in /tmp, which is private to each call and empty at its start, so keep " +
      "files later calls need in the workspace; the rest of the machine is read-only, " +
      "credentials such as ~/.ssh are hidden, secret environment variables are unset" +
      (config.network ? "." : ", and there is no network."),
    argv: (bashArgs, readable) => [
      config.bwrap,
      ...bwrapArgs(config, readable),
      "--",
      "bash",
      ...bashArgs,
    ],
    afterCall: async () => {
      for (const path of config.tripwires) {
        await Deno.remove(path, { recursive: true }).catch(() => {});
      }
    },
  };
}
