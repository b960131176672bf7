import { logLines } from "../_log_lines.ts";
import { decodeLine, type LogFormat } from "../_decode_line.ts";
import { LogCorruptionError } from "../errors.ts";
import { knownEventTypes } from "../parse_envelope.ts";
import { UPCASTERS } from "../upcast.ts";
import type { Envelope } from "../event_types.ts";
import { ensureTables, logTables } from "./_schema.ts";
import { openPool, rows as query, transaction } from "./_pg.ts";
import { jsonbText, type RowOf } from "./_insert_lines.ts";
import { parsePostgresUrl } from "./store_url.ts";

/** The rows read or written at once. */
const BATCH = 2000;

/** How a log is moved: the event types of mechanisms declared outside rein that it may hold. */
export interface TransferOptions {
  eventTypes?: readonly string[];
}

/**
 * The lines of the PostgreSQL log at `store` (`postgres://…?log=NAME`), each with its `\n`,
 * exactly as a JSONL log holds them: writing them out one after the other gives the JSONL file
 * of the same log, byte for byte. Each line is checked as a store reads it (its seq the next one,
 * its envelope valid); a damaged one throws `LogCorruptionError` before it is handed out.
 */
export async function* exportLines(
  store: string,
  options: TransferOptions = {},
): AsyncGenerator<string, void, undefined> {
  const location = parsePostgresUrl(store);
  const tables = logTables(location.log);
  const format: LogFormat = {
    upcasters: UPCASTERS,
    knownTypes: knownEventTypes(options.eventTypes),
  };
  const sql = openPool(location.url, 1);
  try {
    await ensureTables(sql, tables);
    let after = 0;
    for (;;) {
      const rows = await query<RowOf>(
        sql,
        `select seq, line from ${tables.events} where seq > $1 order by seq
          limit ${BATCH}`,
        [after],
      );
      for (const row of rows) {
        decodeLine(row.line, location.display, after + 1, format);
        after++;
        yield `${row.line}\n`;
      }
      if (rows.length < BATCH) return;
    }
  } finally {
    await sql.end();
  }
}

/**
 * Copy the JSONL log at `path` into the PostgreSQL log at `store`, which must be empty: every line
 * checked as a reader checks it (a damaged one, or an unterminated last line, stops the import
 * before anything is written), then inserted with its text unchanged, all in one transaction
 * holding the log's lock. Returns how many events were copied. Throws, naming the store, when it
 * already holds events.
 */
export async function importJsonlLog(
  path: string,
  store: string,
  options: TransferOptions = {},
): Promise<number> {
  const location = parsePostgresUrl(store);
  const tables = logTables(location.log);
  const format: LogFormat = {
    upcasters: UPCASTERS,
    knownTypes: knownEventTypes(options.eventTypes),
  };
  const sql = openPool(location.url, 1);
  using file = await Deno.open(path, { read: true });
  try {
    await ensureTables(sql, tables);
    return await transaction(sql, async (tx) => {
      await tx.query("select pg_advisory_xact_lock($1::int4, $2::int4)", [...tables.lock]);
      const [held] = await query<{ n: string }>(
        tx,
        `select count(*)::text as n from ${tables.events}`,
      );
      if (Number(held?.n ?? 0) > 0) {
        throw new Error(
          `Cannot import into ${location.display}: it already holds ${held?.n} events ` +
            "(import only into an empty log)",
        );
      }
      const writer = crypto.randomUUID();
      let rows: ReturnType<typeof rowOf>[] = [];
      let count = 0;
      const flush = async () => {
        if (rows.length === 0) return;
        await tx.query(
          `insert into ${tables.events} (seq, v, ts, type, session, agent, data, line, writer)
            select seq, v, ts, type, session, agent, data::jsonb, line, $2::uuid
            from json_to_recordset($1::text::json) as r(seq bigint, v integer, ts text, type text,
              session text, agent text, data text, line text)`,
          [JSON.stringify(rows), writer],
        );
        rows = [];
      };
      for await (const raw of logLines(file)) {
        if (raw.text === undefined) {
          throw new LogCorruptionError(path, raw.number, "not valid UTF-8");
        }
        if (!raw.terminated) {
          throw new LogCorruptionError(path, raw.number, "an unterminated last line");
        }
        const envelope = decodeLine(raw.text, path, raw.number, format);
        rows.push(rowOf(envelope, raw.text));
        count++;
        if (rows.length >= BATCH) await flush();
      }
      await flush();
      if (count > 0) await tx.query("select pg_notify($1, $2)", [tables.channel, String(count)]);
      return count;
    });
  } finally {
    await sql.end();
  }
}

/** The columns of `envelope`'s row; `line` its text as read. */
function rowOf(envelope: Envelope, line: string) {
  // v of the line as written (an old line keeps its version; reads upcast it).
  const v = (JSON.parse(line) as { v: number }).v;
  return {
    seq: envelope.seq,
    v,
    ts: envelope.ts,
    type: envelope.type,
    session: envelope.session,
    agent: envelope.agent,
    data: jsonbText(envelope.data),
    line,
  };
}
