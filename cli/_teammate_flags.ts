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

/**
 * The exit code of a teammate's process whose place moved (its `agent.moved`, into a worktree or
 * out): its flags are for the folder it left, so the lead's process starts it again with flags
 * for the new one (not an unexpected exit: no restart budget spent), and it resumes from the log.
 */
export const RELAUNCH_EXIT_CODE = 75;

/** Where a teammate works, to narrow the launcher's flags to. */
export interface TeammatePlace {
  /** The session's workspace, as the launcher was given it. */
  workspace: string;
  /** The teammate's folder (the workspace, or a folder inside it), absolute. */
  cwd: string;
  /** The real path of an existing `path`; undefined when it does not exist. */
  realPath(path: string): string | undefined;
  /** The names of the entries of the folder `path` ([] when it does not exist). */
  entries(path: string): string[];
}

/** The folders of the workspace that hold worktrees (core/worktrees' and the course's). */
const WORKTREE_FOLDERS = [".claude/worktrees", ".worktrees"];

/**
 * `flags` (the launcher's for `rein teammate`) narrowed for a teammate: it writes its own folder
 * instead of the whole workspace (and keeps the log's folder, temp and rein's own state), writes
 * no Claude Code trust file (it asks nobody), and runs only {@link TEAMMATE_PROGRAMS}; what it
 * reads, its net (the model's host, and the database's when the lead's log is in PostgreSQL:
 * cli/teammate_processes.ts plans it with REIN_STORE set) and its variables stay the launcher's.
 * A teammate in a worktree (under `.claude/worktrees/` or `.worktrees/`) can neither read nor
 * write the others there when it starts: each is denied by name (`--deny-read`, `--deny-write`).
 * Not the folders that hold them with its own allowed back: Deno 2.9 does not always let the more
 * specific allowance win (with some other allowed paths it refuses the teammate its own
 * worktree). A worktree made after the process started is kept from it by its file tools'
 * confinement and its sandbox, which are worked out for each call. An unrestricted `--allow-run` (a loader
 * variable is set, see `agentPermissions`) stays so. The flags are the launcher's one for one,
 * the two denials added last. Pure but for `place.realPath`.
 */
export function teammateFlags(flags: readonly string[], place: TeammatePlace): string[] {
  const named = (path: string) => {
    const real = place.realPath(path);
    return real === undefined || real === path ? [path] : [path, real];
  };
  const workspace = new Set(named(place.workspace));
  const folders = WORKTREE_FOLDERS.map((folder) => `${place.workspace}/${folder}`);
  const own =
    folders.flatMap((folder) =>
      place.cwd.startsWith(`${folder}/`)
        ? [`${folder}/${place.cwd.slice(folder.length + 1).split("/")[0]}`]
        : []
    )[0];
  const denied = own === undefined
    ? []
    : folders.flatMap((folder) =>
      place.entries(folder).map((name) => `${folder}/${name}`).filter((path) => path !== own)
        .flatMap(named)
    );
  const narrowed = flags.map((flag) => {
    if (flag.startsWith("--allow-write=")) {
      const paths = flag.slice("--allow-write=".length).split(",").filter((path) =>
        !workspace.has(path) && !/\/\.claude\.json(\.rein\.tmp)?$/.test(path)
      );
      return `--allow-write=${[...new Set([...named(place.cwd), ...paths])].join(",")}`;
    }
    if (flag.startsWith("--allow-run=")) return `--allow-run=${TEAMMATE_PROGRAMS.join(",")}`;
    return flag;
  });
  if (denied.length === 0) return narrowed;
  // After the launcher's flags, one for one (cli/teammate_processes.ts puts them in its place).
  return [...narrowed, `--deny-read=${denied.join(",")}`, `--deny-write=${denied.join(",")}`];
}
