import { readLogSync } from "../events/read_log.ts";
import type { LogIndex } from "../core/snapshots/catalog_snapshot.ts";
import { indexPoint } from "../core/snapshots/log_point.ts";
import type { Envelope } from "../events/event_types.ts";
import type { IndexedSession } from "./session_index.ts";

/** A place to start reading a log: just after the line of event `seq`, which ends at `offset`. */
interface Place {
  seq: number;
  offset: number;
}

/** A read of the log going on: its reader, the event it has given but no session took, where. */
interface Cursor {
  reader: Iterator<Envelope>;
  ahead: Envelope | undefined;
  /** seq of the last line it has passed. */
  seq: number;
  /** Every line it passed since its start follows the log's checked start without a gap. */
  contiguous: boolean;
}

/**
 * How `replay` reads a log, one session after the other, with reads that block, as its replay
 * asks for them: a session is replayed while it is read, and only what its agents have still to
 * reproduce is held. Sessions that follow one another are read by one pass, each taking up where
 * the one before it ended; a session that began before that (sessions that ran at the same time)
 * is read again from the place nearest before its first event. Every line a read passes is
 * decoded (so checked), whichever session it is of; `decoded` says how far the log has been
 * checked without a gap.
 */
export class ReplayReads {
  readonly #path: string;
  readonly #lastSeq: number;
  readonly #index: LogIndex;
  /** Places reads have reached (the end of each chunk), by seq. */
  readonly #places: Place[] = [{ seq: 0, offset: 0 }];
  #decoded = 0;
  #cursor: Cursor | undefined;

  /**
   * Reads of the log at `path` up to event `lastSeq` (the end of the log as indexed); `index`:
   * places to start from that a catalog snapshot knows, checked against the log before use.
   */
  constructor(path: string, lastSeq: number, index: LogIndex = []) {
    this.#path = path;
    this.#lastSeq = lastSeq;
    this.#index = index;
  }

  /** Every line up to this seq has been decoded. */
  get decoded(): number {
    return this.#decoded;
  }

  /**
   * The events of `session`, with those of other sessions between its first and last (sessions
   * that ran at the same time: replay feeds them), read as they are asked for. Throws (while
   * iterated) what `readLogSync` throws: a damaged line in the part of the log read.
   */
  *events(session: IndexedSession): Generator<Envelope, void, undefined> {
    let cursor = this.#cursor;
    if (cursor === undefined || cursor.seq >= session.firstSeq) {
      this.#close();
      cursor = this.#open(this.placeBefore(session.firstSeq));
    }
    for (;;) {
      let event = cursor.ahead;
      if (event === undefined) {
        try {
          const step = cursor.reader.next();
          if (step.done) return;
          event = step.value;
        } catch (error) {
          this.#cursor = undefined;
          throw error;
        }
        if (cursor.contiguous && event.seq > this.#decoded) this.#decoded = event.seq;
      }
      // The next session's first event, or one after it: left for the sessions after this one.
      if (event.seq > session.lastSeq) {
        cursor.ahead = event;
        return;
      }
      cursor.ahead = undefined;
      cursor.seq = event.seq;
      if (event.seq >= session.firstSeq) yield event;
    }
  }

  /**
   * Before `session` is read: when no read goes on that can take it up and no read has reached
   * near its start, the place of the index nearest before it that holds in the log (so that
   * replaying one session of a long log does not read the log before it).
   */
  async seek(session: IndexedSession): Promise<void> {
    if (this.#cursor !== undefined && this.#cursor.seq < session.firstSeq) return;
    const known = this.placeBefore(session.firstSeq).seq;
    const nearer = this.#index.filter(([seq]) => seq > known && seq < session.firstSeq);
    const point = await indexPoint(this.#path, nearer, session.firstSeq - 1);
    if (point !== undefined) this.note(point);
  }

  /**
   * The place read nearest before line `seq`: a read of a session's events from there need not
   * go through the log before it.
   */
  placeBefore(seq: number): Place {
    let best = this.#places[0] as Place;
    for (const place of this.#places) if (place.seq < seq && place.seq > best.seq) best = place;
    return best;
  }

  /** Note a place another read of the log reached (`readLog`'s `onProgress`). */
  note(place: Place): void {
    const last = this.#places.at(-1) as Place;
    if (place.seq > last.seq) this.#places.push(place);
    else if (!this.#places.some((p) => p.seq === place.seq)) {
      this.#places.push(place);
      this.#places.sort((a, b) => a.seq - b.seq);
    }
  }

  /** Stop the read going on (its file is closed). */
  close(): void {
    this.#close();
  }

  #open(from: Place): Cursor {
    const reader = readLogSync(this.#path, {
      ...(from.seq > 0 ? { start: from } : {}),
      upTo: this.#lastSeq,
      onProgress: (place) => this.note(place),
    });
    const cursor = {
      reader,
      ahead: undefined,
      seq: from.seq,
      contiguous: from.seq <= this.#decoded,
    };
    this.#cursor = cursor;
    return cursor;
  }

  #close(): void {
    this.#cursor?.reader.return?.();
    this.#cursor = undefined;
  }
}
