import { CURRENT_VERSION, type Envelope } from "../../events/event_types.ts";
import { knownEventTypes, parseEnvelope } from "../../events/parse_envelope.ts";
import { upcast } from "../../events/upcast.ts";

/** Where a read of the log stopped: the seq of the last complete line and the byte past it. */
export interface LogPlace {
  seq: number;
  offset: number;
}

/** The most a tail read takes in one piece; a longer tail is read streaming (`readLog`). */
export const TAIL_LIMIT = 1 << 20;

/**
 * The events of `session` on the complete lines of the log at `path` after `from`, upcast and
 * checked as `readLog` does (lines of other sessions are not decoded), and the place after the
 * last complete line. Reads the new bytes in one piece, with no chunk buffers: what a writer that
 * follows the log pays per look. Undefined when more than {@link TAIL_LIMIT} bytes are new (read
 * those streaming). Throws for a line that is not an envelope, as `readLog` does, and when the log
 * is shorter than `from` (cut back or replaced: read it again from the start).
 */
export async function readLogTail(
  path: string,
  from: LogPlace,
  session: string,
  eventTypes: readonly string[] = [],
): Promise<{ events: Envelope[]; end: LogPlace } | undefined> {
  using file = await Deno.open(path, { read: true });
  const size = (await file.stat()).size;
  if (size < from.offset) {
    throw new Error(`Cannot read "${path}" after byte ${from.offset}: it is ${size} bytes now`);
  }
  if (size - from.offset > TAIL_LIMIT) return undefined;
  const bytes = new Uint8Array(Math.max(0, size - from.offset));
  await file.seek(from.offset, Deno.SeekMode.Start);
  let read = 0;
  while (read < bytes.length) {
    const count = await file.read(bytes.subarray(read));
    if (count === null) break;
    read += count;
  }
  const complete = bytes.subarray(0, bytes.subarray(0, read).lastIndexOf(10) + 1);
  const lines = new TextDecoder().decode(complete).split("\n").slice(0, -1);
  const known = knownEventTypes(eventTypes);
  const mention = JSON.stringify(session);
  const events: Envelope[] = [];
  lines.forEach((text, i) => {
    if (!text.includes(mention)) return;
    let raw = JSON.parse(text);
    if (raw?.v !== CURRENT_VERSION) raw = upcast(raw);
    const envelope = parseEnvelope(raw, known);
    if (typeof envelope === "string") {
      throw new Error(`Cannot read line ${from.seq + i + 1} of "${path}": ${envelope}`);
    }
    if (envelope.session === session) events.push(envelope);
  });
  return {
    events,
    end: { seq: from.seq + lines.length, offset: from.offset + complete.length },
  };
}
