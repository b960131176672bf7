import { openPool, type Pool, type Queryable, rows as query } from "./_pg.ts";
import { ensureTables, type LogTables, logTables } from "./_schema.ts";
import { parsePostgresUrl } from "./store_url.ts";

/**
 * The snapshots one machine keeps of a PostgreSQL log: rows of the log's snapshot table by
 * (machine, name), each the whole text a snapshot file would hold (core/snapshots writes and
 * checks them: this only stores them), and the log's lines, to check a snapshot's place. A write
 * replaces a row in one statement, so a reader sees the old text or the new one.
 */
export class SnapshotTable {
  readonly #sql: Queryable;
  readonly #tables: LogTables;
  readonly #machine: string;
  readonly #close: () => Promise<void>;

  constructor(sql: Queryable, tables: LogTables, machine: string, close?: () => Promise<void>) {
    this.#sql = sql;
    this.#tables = tables;
    this.#machine = machine;
    this.#close = close ?? (() => Promise.resolve());
  }

  /** The names of this machine's snapshots that start with `prefix`, in name order. */
  async names(prefix = ""): Promise<string[]> {
    const found = await query<{ name: string }>(
      this.#sql,
      `select name from ${this.#tables.snapshots}
        where machine = $1 and starts_with(name, $2) order by name`,
      [this.#machine, prefix],
    );
    return found.map((row) => row.name);
  }

  /** The text of this machine's snapshot `name`; undefined when there is none. */
  async read(name: string): Promise<string | undefined> {
    const [row] = await query<{ text: string }>(
      this.#sql,
      `select text from ${this.#tables.snapshots} where machine = $1 and name = $2`,
      [this.#machine, name],
    );
    return row?.text;
  }

  /** Store `text` as this machine's snapshot `name` (taken at event `seq`), replacing it. */
  async write(name: string, seq: number, text: string): Promise<void> {
    await this.#sql.query(
      `insert into ${this.#tables.snapshots} (machine, name, seq, text) values ($1, $2, $3, $4)
        on conflict (machine, name) do update set seq = excluded.seq, text = excluded.text`,
      [this.#machine, name, seq, text],
    );
  }

  /** Remove this machine's snapshot `name`; whether there was one. */
  async remove(name: string): Promise<boolean> {
    const result = await this.#sql.query(
      `delete from ${this.#tables.snapshots} where machine = $1 and name = $2`,
      [this.#machine, name],
    );
    return (result.rowCount ?? 0) > 0;
  }

  /** The JSONL line of event `seq` as the log holds it; undefined when it holds no such event. */
  async line(seq: number): Promise<string | undefined> {
    const [row] = await query<{ line: string }>(
      this.#sql,
      `select line from ${this.#tables.events} where seq = $1`,
      [seq],
    );
    return row?.line;
  }

  /** Close the connections when the table was opened on its own ({@link openSnapshotTable}). */
  close(): Promise<void> {
    return this.#close();
  }
}

/**
 * The snapshot table of the PostgreSQL log at `store` for `machine`, on a connection of its own
 * (creating the log's tables when missing); close it after use.
 */
export async function openSnapshotTable(store: string, machine: string): Promise<SnapshotTable> {
  const location = parsePostgresUrl(store);
  const tables = logTables(location.log);
  const sql: Pool = openPool(location.url, 1);
  try {
    await ensureTables(sql, tables);
  } catch (error) {
    await sql.end().catch(() => {});
    throw error;
  }
  return new SnapshotTable(sql, tables, machine, () => sql.end());
}

/** Where event `seq`'s line ends in the JSONL form of the log: its lines' bytes, each with `\n`. */
export async function lineBytesUpTo(
  sql: Queryable,
  tables: LogTables,
  seq: number,
): Promise<number> {
  const [row] = await query<{ bytes: string | null }>(
    sql,
    `select sum(octet_length(line) + 1)::text as bytes from ${tables.events} where seq <= $1`,
    [seq],
  );
  return Number(row?.bytes ?? 0);
}
