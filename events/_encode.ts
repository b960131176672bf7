import { parseEnvelope } from "./parse_envelope.ts";
import type { Redactor } from "./redact.ts";
import { CURRENT_VERSION, type Envelope, type NewEvent } from "./event_types.ts";

/** A batch ready to write: its JSONL text (each line ends with `\n`) and the stored envelopes. */
export interface EncodedBatch {
  text: string;
  envelopes: Envelope[];
}

/**
 * Serialize `events` as log lines numbered from `firstSeq`, stamped with `ts` and the current
 * version, keys in envelope order (v, seq, ts, type, session, agent, data), then redacted. The
 * returned envelopes are parsed back from the written lines, so listeners see exactly what a later
 * rebuild will read (redactions included, `undefined` fields dropped).
 * Pure. Throws TypeError for an event that cannot be written and read back; nothing is written.
 */
export function encodeEvents(
  events: readonly NewEvent[],
  firstSeq: number,
  ts: string,
  redact: Redactor,
  knownTypes?: ReadonlySet<string>,
): EncodedBatch {
  const lines: string[] = [];
  const envelopes: Envelope[] = [];
  for (const [index, event] of events.entries()) {
    const seq = firstSeq + index;
    let line: string;
    let envelope: Envelope | string;
    try {
      line = redact(JSON.stringify({
        v: CURRENT_VERSION,
        seq,
        ts,
        type: event.type,
        session: event.session,
        agent: event.agent,
        data: event.data,
      }));
      envelope = parseEnvelope(JSON.parse(line), knownTypes);
    } catch (error) {
      throw new TypeError(`Cannot append "${event.type}" event: ${String(error)}`, {
        cause: error,
      });
    }
    if (typeof envelope === "string") {
      throw new TypeError(`Cannot append "${event.type}" event: ${envelope}`);
    }
    lines.push(line);
    envelopes.push(envelope);
  }
  return { text: lines.length === 0 ? "" : `${lines.join("\n")}\n`, envelopes };
}
