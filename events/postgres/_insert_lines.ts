import type { Tx } from "./_pg.ts";
import type { LogTables } from "./_schema.ts";
import type { Envelope } from "../event_types.ts";

/** A row of the events table as the store reads it: its seq (as text) and its line. */
export interface RowOf {
  seq: string;
  line: string;
  /** The line's length in UTF-8 bytes (as text), where the query asks for it. */
  bytes?: string;
}

/**
 * Insert `envelopes` (whose JSONL lines, each ending with `\n`, are `text`) in one statement,
 * each row with its line exactly and its fields for queries, stamped with `writer`, and NOTIFY
 * the log's channel with the last seq (delivered at commit). `data` goes
 * to jsonb with NUL characters and lone surrogates replaced (jsonb refuses them); the line keeps
 * them.
 */
export async function insertLines(
  tx: Tx,
  tables: LogTables,
  text: string,
  envelopes: readonly Envelope[],
  writer: string,
): Promise<void> {
  const lines = text.split("\n");
  const rows = envelopes.map((envelope, i) => ({
    seq: envelope.seq,
    v: envelope.v,
    ts: envelope.ts,
    type: envelope.type,
    session: envelope.session,
    agent: envelope.agent,
    data: jsonbText(envelope.data),
    line: lines[i],
  }));
  await tx.query(
    `with inserted as (
      insert into ${tables.events} (seq, v, ts, type, session, agent, data, line, writer)
        select seq, v, ts, type, session, agent, data::jsonb, line, $2::uuid
        from json_to_recordset($1::text::json) as r(
          seq bigint, v integer, ts text, type text, session text, agent text, data text,
          line text
        )
        returning seq
    )
    select pg_notify($3, max(seq)::text) from inserted`,
    [JSON.stringify(rows), writer, tables.channel],
  );
}

/** `data` as JSON text that jsonb accepts. Pure. */
export function jsonbText(data: unknown): string {
  return JSON.stringify(
    data,
    (_, value) =>
      typeof value === "string" ? value.toWellFormed().replaceAll("\0", "\uFFFD") : value,
  );
}
