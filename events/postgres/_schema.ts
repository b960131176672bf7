import { type Pool, transaction } from "./_pg.ts";

/** The names of one log's tables, its NOTIFY channel and its advisory-lock key. */
export interface LogTables {
  events: string;
  leases: string;
  snapshots: string;
  channel: string;
  /** The two int4 keys of `pg_advisory_xact_lock`: rein's, and the log's. */
  lock: readonly [number, number];
}

/** The tables of the log named `log` (already checked to be a plain lower-case name). Pure. */
export function logTables(log: string): LogTables {
  return {
    events: `rein_${log}_events`,
    leases: `rein_${log}_leases`,
    snapshots: `rein_${log}_snapshots`,
    channel: `rein_${log}_appended`,
    lock: [REIN_LOCK_CLASS, stringHash(log)],
  };
}

/** The first key of every rein advisory lock ("rein" as an int4). */
const REIN_LOCK_CLASS = 0x7265696e;

/**
 * Create the log's tables when missing, under the log's advisory lock so that two processes
 * starting at once do not race on `create table`:
 * - events: one row per envelope. `line` is the envelope's JSONL line exactly as rein writes it
 *   (the byte form a JSONL log holds, so export is byte-identical and reads parse one string);
 *   the other columns repeat its fields for queries (`data` as jsonb). `writer` names the
 *   transaction that appended the row, so an append whose commit was cut off can tell whether it
 *   committed.
 * - leases: who drives which agent of which session, until `expires` (renewed while held).
 * - snapshots: the log's snapshots (core/snapshots), each the text a snapshot file beside a JSONL
 *   log would hold, by the machine that took and signed it (another's is never trusted, so each
 *   machine keeps its own) and its file's name (`catalog-<seq>.json`, `sessions/<id>.json`).
 */
export async function ensureTables(pool: Pool, tables: LogTables): Promise<void> {
  const { events, leases, snapshots, lock } = tables;
  await transaction(pool, async (tx) => {
    await tx.query("select pg_advisory_xact_lock($1::int4, $2::int4)", [lock[0], lock[1]]);
    await tx.query(
      `create table if not exists ${events} (
        seq bigint primary key,
        v integer not null,
        ts text not null,
        type text not null,
        session text not null,
        agent text not null,
        data jsonb not null,
        line text not null,
        writer uuid not null
      )`,
    );
    await tx.query(`create index if not exists ${events}_session on ${events} (session, seq)`);
    await tx.query(
      `create table if not exists ${leases} (
        session text not null,
        agent text not null,
        holder text not null,
        expires timestamptz not null,
        primary key (session, agent)
      )`,
    );
    await tx.query(
      `create table if not exists ${snapshots} (
        machine text not null,
        name text not null,
        seq bigint not null,
        text text not null,
        primary key (machine, name)
      )`,
    );
  });
}

/** A stable int4 of `text` (FNV-1a), for an advisory-lock key. Pure. */
function stringHash(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}
