/**
 * The Deno flags of a teammate's process: the launcher's flags for rein (cli/_launch_plan.ts)
 * narrowed to what a teammate needs. Zero imports beyond the launcher's own helpers.
 *
 * @module
 */
import { AGENT_PROGRAMS } from "./_launch_flags.ts";

/** Programs a teammate starts: bash and its sandbox, setsid for its commands, rg and git. */
export const TEAMMATE_PROGRAMS: readonly string[] = AGENT_PROGRAMS.filter((program) =>
  program !== "setpriv"
);

/** Where a teammate works, to narrow the launcher's flags to. */
export interface TeammatePlace {
  /** The session's workspace, as the launcher was given it. */
  workspace: string;
  /** The teammate's folder (the workspace, or a folder inside it), absolute. */
  cwd: string;
  /** The real path of an existing `path`; undefined when it does not exist. */
  realPath(path: string): string | undefined;
}

/**
 * `flags` (the launcher's for `rein teammate`) narrowed for a teammate: it writes its own folder
 * instead of the whole workspace (and keeps the log's folder, temp and rein's own state), writes
 * no Claude Code trust file (it asks nobody), and runs only {@link TEAMMATE_PROGRAMS}; what it
 * reads, its net (the model's host) and its variables stay the launcher's. An unrestricted
 * `--allow-run` (a loader variable is set, see `agentPermissions`) stays so. Pure but for
 * `place.realPath`.
 */
export function teammateFlags(flags: readonly string[], place: TeammatePlace): string[] {
  const named = (path: string) => {
    const real = place.realPath(path);
    return real === undefined || real === path ? [path] : [path, real];
  };
  const workspace = new Set(named(place.workspace));
  return flags.map((flag) => {
    if (flag.startsWith("--allow-write=")) {
      const paths = flag.slice("--allow-write=".length).split(",").filter((path) =>
        !workspace.has(path) && !/\/\.claude\.json(\.rein\.tmp)?$/.test(path)
      );
      return `--allow-write=${[...new Set([...named(place.cwd), ...paths])].join(",")}`;
    }
    if (flag.startsWith("--allow-run=")) return `--allow-run=${TEAMMATE_PROGRAMS.join(",")}`;
    return flag;
  });
}
