// @ts-types="@types/pg"
import pg from "pg";
import { isConnectionLost } from "./_connection_lost.ts";

/** A pool of connections to the server (node-postgres). */
export type Pool = pg.Pool;
/** What runs a query: the pool, or the connection of a transaction. */
export type Queryable = Pick<pg.Pool, "query">;
/** The connection of one transaction. */
export type Tx = pg.PoolClient;

/**
 * A pool of up to `max` connections to `url`. An idle connection that the server drops (it
 * restarts) is let go without a word: the next query opens another.
 */
export function openPool(url: string, max: number): Pool {
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 10_000 });
  pool.on("error", () => {});
  return pool;
}

/** A connection of its own to `url` (for LISTEN), not yet connected. */
export function newClient(url: string): pg.Client {
  return new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
}

/** The rows `text` (with `$n` parameters `values`) gives. */
export async function rows<T>(
  db: Queryable,
  text: string,
  values: readonly unknown[] = [],
): Promise<T[]> {
  const result = await db.query(text, [...values]);
  return result.rows as T[];
}

/**
 * Run `body` in a transaction on a connection of its own: `begin` (with `lock`, the two keys of
 * an advisory lock held until the end, taken in the same round trip), `body`, `commit`; on an
 * error `rollback` and rethrow. A connection that was lost is not given back to the pool.
 */
export async function transaction<T>(
  pool: Pool,
  body: (tx: Tx) => Promise<T>,
  lock?: readonly [number, number],
): Promise<T> {
  const tx = await pool.connect();
  let lost: Error | undefined;
  // A checked-out connection reports its loss as an event too; the query that fails says it.
  const ignore = () => {};
  tx.on("error", ignore);
  try {
    // Integers only, so the statement can be written out: one round trip, no parameters.
    await tx.query(
      lock === undefined
        ? "begin"
        : `begin; select pg_advisory_xact_lock(${lock[0] | 0}::int4, ${lock[1] | 0}::int4)`,
    );
    const result = await body(tx);
    await tx.query("commit");
    return result;
  } catch (error) {
    if (isConnectionLost(error)) lost = error as Error;
    else await tx.query("rollback").catch(() => {});
    throw error;
  } finally {
    // A lost connection keeps the listener: it is destroyed, and may still report.
    if (lost === undefined) tx.off("error", ignore);
    tx.release(lost);
  }
}
