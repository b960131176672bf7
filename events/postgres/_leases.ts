import { type Pool, rows as query } from "./_pg.ts";
import type { LogTables } from "./_schema.ts";
import type { Lease, LeaseOutcome } from "../store.ts";

/** Deletes of released leases still under way in this process. */
const RELEASING = new Set<Promise<void>>();

/**
 * Leases as rows of the log's leases table: (session, agent) → holder, expires. Taking one
 * inserts the row, or takes over a row whose holder let it expire; while held, every lease of
 * this holder is renewed each third of `leaseMs` (by the server's clock, so machines' clocks do
 * not matter). A holder that dies stops renewing, and its leases lapse `leaseMs` later.
 */
export class PostgresLeases {
  readonly #sql: Pool;
  readonly #table: string;
  readonly #leaseMs: number;
  /** This store's name as a holder: host and pid (for the refusal's message) and a random id. */
  readonly #holder = `pid ${Deno.pid} on ${hostname()} (${crypto.randomUUID().slice(0, 8)})`;
  readonly #held = new Set<string>();
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(sql: Pool, tables: LogTables, leaseMs: number) {
    this.#sql = sql;
    this.#table = tables.leases;
    this.#leaseMs = leaseMs;
  }

  /**
   * Take the lease of `agent` in `session`, or say who holds it. Waits first for the releases
   * this process has under way, so a lease released here is free to the next taker here.
   */
  async take(session: string, agent: string): Promise<LeaseOutcome> {
    await Promise.all(RELEASING);
    const rows = await query<{ holder: string; mine: boolean }>(
      this.#sql,
      `insert into ${this.#table} as l (session, agent, holder, expires)
        values ($1, $2, $3, now() + $4 * interval '1 millisecond')
        on conflict (session, agent) do update
          set holder = excluded.holder, expires = excluded.expires
          where l.expires < now()
        returning holder, true as mine`,
      [session, agent, this.#holder, this.#leaseMs],
    );
    if (rows.length === 0) {
      const [row] = await query<{ holder: string }>(
        this.#sql,
        `select holder from ${this.#table} where session = $1 and agent = $2`,
        [session, agent],
      );
      return row ? { held: false, holder: row.holder } : { held: false };
    }
    const key = JSON.stringify([session, agent]);
    this.#held.add(key);
    this.#renewing();
    let released = false;
    const lease: Lease = {
      session,
      agent,
      release: () => {
        if (released) return;
        released = true;
        this.#held.delete(key);
        if (this.#held.size === 0) this.#stopRenewing();
        const deleting = query(
          this.#sql,
          `delete from ${this.#table} where session = $1 and agent = $2 and holder = $3`,
          [session, agent, this.#holder],
        ).then(() => {}, () => {});
        RELEASING.add(deleting);
        void deleting.finally(() => RELEASING.delete(deleting));
      },
    };
    return { held: true, lease };
  }

  /** Who holds the lease of `agent` in `session` and has not let it expire; undefined: nobody. */
  async holder(session: string, agent: string): Promise<string | undefined> {
    const [row] = await query<{ holder: string }>(
      this.#sql,
      `select holder from ${this.#table} where session = $1 and agent = $2 and expires > now()`,
      [session, agent],
    );
    return row?.holder;
  }

  /** Give up every lease of this holder (the store closes). */
  async releaseAll(): Promise<void> {
    this.#held.clear();
    this.#stopRenewing();
    await Promise.all(RELEASING);
    await query(this.#sql, `delete from ${this.#table} where holder = $1`, [this.#holder]);
  }

  #renewing(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => {
      query(
        this.#sql,
        `update ${this.#table} set expires = now() + $2 * interval '1 millisecond'
          where holder = $1`,
        [this.#holder, this.#leaseMs],
      ).catch(() => {});
    }, Math.max(10, Math.floor(this.#leaseMs / 3)));
    Deno.unrefTimer(this.#timer as unknown as number);
  }

  #stopRenewing(): void {
    if (this.#timer === undefined) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}

function hostname(): string {
  try {
    return Deno.hostname();
  } catch {
    return "this host";
  }
}
