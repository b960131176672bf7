/**
 * A read-only follower of a JSONL log as a process of its own, for tests/log_follower_test.ts:
 * `deno run --allow-read=DIR tests/_follower.ts LOG FROM_SEQ LAST_SEQ` prints each event it is
 * handed, one JSON line each (`{"seq":…,"type":…,"data":…}`), and stops after event LAST_SEQ.
 * Private to tests/.
 *
 * @module
 */

import { openLogReader } from "../events/jsonl_reader.ts";

const [path, from, last] = Deno.args;
if (path === undefined || from === undefined || last === undefined) {
  throw new Error("Usage: _follower.ts LOG FROM_SEQ LAST_SEQ");
}
const stop = new AbortController();
const encoder = new TextEncoder();
for await (
  const event of openLogReader(path, { pollMs: 10 }).followLog(Number(from), stop.signal)
) {
  const line = JSON.stringify({ seq: event.seq, type: event.type, data: event.data });
  await Deno.stdout.write(encoder.encode(`${line}\n`));
  if (event.seq >= Number(last)) stop.abort();
}
