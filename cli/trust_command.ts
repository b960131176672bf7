import type { CommandIo } from "./io.ts";
import { type RuntimeEnv, userPath } from "./paths.ts";
import { claudeJsonPath, readTrust, trustedFolders, writeTrust } from "../core/settings/trust.ts";

/** Options of `rein trust`. */
export interface TrustFlags {
  /** List the trusted folders instead. */
  list?: boolean | undefined;
  /** Take the folder's trust back. */
  revoke?: boolean | undefined;
}

/**
 * `rein trust [dir]`: trusts a folder (default: where you are) as Claude Code's trust dialog
 * does, in `~/.claude.json` (`projects[<dir>].hasTrustDialogAccepted`), so its settings' allow
 * rules, hooks, `env` and MCP servers apply; `--revoke` takes it back, `--list` shows the trusted
 * folders. Returns the exit code.
 */
export async function trustCommand(
  dir: string | undefined,
  flags: TrustFlags,
  env: RuntimeEnv,
  io: CommandIo,
): Promise<number> {
  const path = claudeJsonPath(env.get("HOME"), env.get("CLAUDE_CONFIG_DIR"));
  if (path === undefined) throw new Error("Cannot find ~/.claude.json: HOME is not set");
  if (flags.list) {
    for (const folder of await trustedFolders(path)) io.stdout.write(`${folder}\n`);
    return 0;
  }
  const chosen = userPath(dir ?? ".", env, Deno.cwd());
  let folder: string;
  try {
    folder = await Deno.realPath(chosen);
  } catch {
    throw new Error(`Folder "${chosen}" does not exist`);
  }
  if (!(await Deno.stat(folder)).isDirectory) throw new Error(`"${folder}" is not a folder`);
  if (flags.revoke) {
    await writeTrust(path, folder, false);
    const still = await readTrust(path, folder);
    io.stdout.write(
      still.trusted
        ? `No longer trusted by itself, but still trusted through "${still.by}": ${folder}\n`
        : `No longer trusted: ${folder}\n`,
    );
    return 0;
  }
  await writeTrust(path, folder, true);
  io.stdout.write(
    `Trusted ${folder} (in ${path}): its settings' allow rules, hooks, env and MCP servers ` +
      "now apply, and its hooks run as you, outside the sandbox\n",
  );
  return 0;
}
