import { dirname, join } from "node:path";

/**
 * This process's claim on an agent of a session: an exclusive OS lock on
 * `<log dir>/leases/<session>.<agent>.lock`, held for as long as the process drives that agent. The kernel drops the lock when the process
 * dies, even by SIGKILL, so a crashed session can be resumed at once, while a session another
 * live process is running cannot be reopened (two loops appending to one conversation would
 * close each other's calls as interrupted and corrupt it). Lock files are never deleted: deleting
 * one could let two processes lock different files for the same session.
 */
export class SessionLease {
  readonly sessionId: string;
  readonly #file: Deno.FsFile;
  #released = false;

  private constructor(sessionId: string, file: Deno.FsFile) {
    this.sessionId = sessionId;
    this.#file = file;
  }

  /**
   * Claim `sessionId`. Throws, naming the other process, when a live process holds it. The file
   * records the holder's pid for that message only; the lock is the claim.
   */
  static async acquire(logPath: string, sessionId: string, agent: string): Promise<SessionLease> {
    const dir = join(dirname(logPath), "leases");
    await Deno.mkdir(dir, { recursive: true });
    const path = join(dir, `${encodeURIComponent(sessionId)}.${encodeURIComponent(agent)}.lock`);
    const file = await Deno.open(path, { read: true, write: true, create: true });
    if (!(await file.tryLock(true))) {
      file.close();
      const holder = (await Deno.readTextFile(path).catch(() => "")).trim();
      throw new Error(
        `Session ${sessionId} is open in another rein process${
          holder ? ` (pid ${holder})` : ""
        }: ` +
          `wait for it to finish, or branch off with --fork ${sessionId}@SEQ`,
      );
    }
    await file.truncate(0);
    await file.write(new TextEncoder().encode(`${Deno.pid}\n`));
    return new SessionLease(sessionId, file);
  }

  /** Give the session up. Idempotent. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    try {
      this.#file.unlockSync();
    } finally {
      this.#file.close();
    }
  }
}
