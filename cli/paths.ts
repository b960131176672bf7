import { resolve } from "../events/posix_path.ts";

/** Environment the runtime reads, passed in so nothing reads env at module scope. */
export interface RuntimeEnv {
  get(name: string): string | undefined;
  toObject(): Record<string, string>;
}

/** The default log of a workspace. */
export function defaultLogPath(workspace: string): string {
  return resolve(workspace, ".rein", "events.jsonl");
}

/**
 * The directory the user ran the command from. Under `deno task` the process runs in the
 * config's directory; rein's tasks pass where the user was (`INIT_CWD`) as REIN_CALLER_DIR.
 * INIT_CWD itself is not read: npm sets it too, and an installed `rein` run from an npm script
 * must not take the npm project's directory for its own.
 */
export function callerDir(env: RuntimeEnv, cwd: string): string {
  return env.get("REIN_CALLER_DIR") || cwd;
}

/** A path from the command line, resolved against the user's directory. */
export function userPath(path: string, env: RuntimeEnv, cwd: string): string {
  return resolve(callerDir(env, cwd), path);
}

/**
 * The workspace a command works in: --workspace (relative to where the user was), else the
 * directory the user ran the command from. Must be an existing directory.
 */
export function resolveWorkspace(flag: string | undefined, env: RuntimeEnv, cwd: string): string {
  const chosen = userPath(flag ?? ".", env, cwd);
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(chosen);
  } catch {
    throw new Error(`Workspace "${chosen}" does not exist`);
  }
  if (!info.isDirectory) throw new Error(`Workspace "${chosen}" is not a directory`);
  return Deno.realPathSync(chosen);
}

/**
 * Keep the workspace's `.rein/` out of git without touching the user's own .gitignore: a
 * `.gitignore` of `*` inside it. Only for the default log location.
 */
export async function ignoreLogDirectory(logPath: string, workspace: string): Promise<void> {
  if (logPath !== defaultLogPath(workspace)) return;
  const ignore = resolve(workspace, ".rein", ".gitignore");
  try {
    Deno.lstatSync(ignore);
    return; // the usual case, on the start-up path: one syscall
  } catch {
    // not there yet: create it
  }
  await Deno.mkdir(resolve(workspace, ".rein"), { recursive: true });
  try {
    await Deno.writeTextFile(ignore, "# rein's event log and state; not for version control\n*\n", {
      createNew: true,
    });
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  }
}
