import { dirname } from "./posix_path.ts";
import {
  copyOpenFile,
  createUniqueFile,
  fileIdentity,
  placeUnlessTaken,
  startsWithContentOf,
} from "./_log_files.ts";
import type { Rescue } from "./_rescue.ts";

/** What {@link followPath} needs of a store whose path may no longer name its open file. */
export interface FollowedLog {
  readonly path: string;
  /** The store's open, locked file. */
  file(): Deno.FsFile;
  /** `fileIdentity` of {@link FollowedLog.file}. */
  identity(): string;
  /** Make the newly opened `file` (same content up to what was read) the store's file. */
  switchTo(file: Deno.FsFile): Promise<void>;
  /** Time stamp for file names (no `:`). */
  stamp(): string;
  notice(message: string): void;
  /** Stop the store with a rescue copy; returns the error every later call throws. */
  stop(how: Omit<Rescue, "path" | "stamp">): Promise<Error>;
}

/**
 * Under the lock: make sure `log.path` still names the open file (one `stat` when it does). When
 * the path is gone, link a copy of the open file into place and continue on it; when it names a
 * file that begins with all of the open file's content, follow that file; when it names any
 * other file, stop with a rescue copy of the open file and throw. Each repair is reported once
 * through `notice`. See `JsonlStore` for the whole contract.
 */
export async function followPath(log: FollowedLog): Promise<void> {
  // Another round only when a file appears at the path while we restore it (it is then
  // checked like any other), or the path keeps vanishing.
  for (let round = 1; round <= 3; round++) {
    let info: Deno.FileInfo;
    try {
      // Sync on purpose: an async stat costs a thread-pool round trip on every append.
      info = Deno.statSync(log.path);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      if (await restore(log)) return;
      continue;
    }
    if (fileIdentity(info) === log.identity()) return;
    return await followOrStop(log);
  }
  throw new Error(`Cannot restore the event log "${log.path}": it keeps being removed`);
}

/** The path is gone: link a copy of the open file into place and continue on it. */
async function restore(log: FollowedLog): Promise<boolean> {
  await Deno.mkdir(dirname(log.path), { recursive: true });
  const temp = await createUniqueFile(`${log.path}.restoring-${log.stamp()}`);
  try {
    await copyOpenFile(log.file(), temp);
    if (!(await placeUnlessTaken(temp, log.path))) return false;
  } finally {
    await Deno.remove(temp).catch(() => {});
  }
  await log.switchTo(await Deno.open(log.path, { read: true, append: true }));
  log.notice(
    `The event log "${log.path}" was deleted while rein was running; restored it from the ` +
      `open file`,
  );
  return true;
}

/** The path names another file: follow it if it extends ours, else rescue ours and stop. */
async function followOrStop(log: FollowedLog): Promise<void> {
  const file = log.file();
  if (await startsWithContentOf(log.path, file)) {
    await log.switchTo(await Deno.open(log.path, { read: true, append: true }));
    log.notice(
      `The event log "${log.path}" was replaced while rein was running by a file that holds ` +
        `all of its content (restored by another rein process, or copied back); continuing ` +
        `on that file`,
    );
    return;
  }
  throw await log.stop({
    stopped: `The event log "${log.path}" was replaced by another file while rein was ` +
      `running; stopping so nothing is overwritten`,
    holds: "the events of this run",
    otherwise: "the file rein still holds open",
    save: (target) => copyOpenFile(file, target),
  });
}
