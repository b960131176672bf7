import { leaseFile } from "../events/lease_file.ts";
import type { Lease, Leases } from "../events/store.ts";

/**
 * This process's claim on an agent of a session: the store's lease on it (see `Leases`; the JSONL
 * store's is an exclusive OS lock on `<log dir>/leases/<session>.<agent>.lock`), held for as long
 * as the process drives that agent. The lease goes when the process dies, even by SIGKILL, so a
 * crashed session can be resumed at once, while a session another live process is running cannot
 * be reopened (two loops appending to one conversation would close each other's calls as
 * interrupted and corrupt it).
 */
export class SessionLease {
  readonly sessionId: string;
  readonly #lease: Lease;

  private constructor(sessionId: string, lease: Lease) {
    this.sessionId = sessionId;
    this.#lease = lease;
  }

  /**
   * Claim `agent` of `sessionId` from `store` (or, given a path, from the JSONL log there).
   * Throws, naming the other process when it is known, when a live process holds it.
   */
  static async acquire(
    store: string | Leases,
    sessionId: string,
    agent: string,
  ): Promise<SessionLease> {
    const outcome = typeof store === "string"
      ? await leaseFile(store, sessionId, agent)
      : await store.lease(sessionId, agent);
    if (!outcome.held) {
      throw new Error(
        `Session ${sessionId} is open in another rein process${
          outcome.holder ? ` (${outcome.holder})` : ""
        }: wait for it to finish, or branch off with --fork ${sessionId}@SEQ`,
      );
    }
    return new SessionLease(sessionId, outcome.lease);
  }

  /** Give the session up. Idempotent. */
  release(): void {
    this.#lease.release();
  }
}
