import { dirname, join } from "./posix_path.ts";
import type { Lease, LeaseOutcome } from "./store.ts";

/**
 * The file whose OS lock is the lease of `agent` in `session` of the JSONL log at `logPath`:
 * `<log dir>/leases/<session>.<agent>.lock`, both URI-encoded. Pure.
 */
export function leaseFilePath(logPath: string, session: string, agent: string): string {
  return join(
    leasesDir(logPath),
    `${encodeURIComponent(session)}.${encodeURIComponent(agent)}.lock`,
  );
}

/** The folder of the lease files of the JSONL log at `logPath`. Pure. */
export function leasesDir(logPath: string): string {
  return join(dirname(logPath), "leases");
}

/**
 * Take the lease of `agent` in `session` of the JSONL log at `logPath`: an exclusive OS lock on
 * its {@link leaseFilePath}, held until released or the process dies (the kernel drops the lock
 * even on SIGKILL). The file records the holder's pid, for the refusal's message only; the lock
 * is the lease. Lock files are never deleted: deleting one could let two processes lock different
 * files for one lease. Resolves with the holder (`pid N`, when it wrote one) when another open
 * file holds it, in this process or another. Throws on I/O errors.
 */
export async function leaseFile(
  logPath: string,
  session: string,
  agent: string,
): Promise<LeaseOutcome> {
  await Deno.mkdir(leasesDir(logPath), { recursive: true });
  const path = leaseFilePath(logPath, session, agent);
  const file = await Deno.open(path, { read: true, write: true, create: true });
  try {
    if (!(await file.tryLock(true))) {
      file.close();
      const pid = (await Deno.readTextFile(path).catch(() => "")).trim();
      return pid ? { held: false, holder: `pid ${pid}` } : { held: false };
    }
    await file.truncate(0);
    await file.write(new TextEncoder().encode(`${Deno.pid}\n`));
  } catch (error) {
    file.close();
    throw error;
  }
  return { held: true, lease: new FileLease(session, agent, file) };
}

/** A lease held by the lock on an open lease file. */
class FileLease implements Lease {
  #released = false;

  constructor(readonly session: string, readonly agent: string, readonly file: Deno.FsFile) {}

  release(): void {
    if (this.#released) return;
    this.#released = true;
    try {
      this.file.unlockSync();
    } finally {
      this.file.close();
    }
  }
}
