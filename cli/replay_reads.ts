import { readLogSync } from "../events/read_log.ts";
import type { Envelope } from "../events/event_types.ts";
import type { IndexedSession } from "./session_index.ts";

/** A place to start reading a log: just after the line of event `seq`, which ends at `offset`. */
interface Place {
  seq: number;
  offset: number;
}

/**
 * How `replay` reads a log, one session after the other: each session's events from the place
 * nearest before its first event up to its last, with reads that block, as its replay asks for
 * them, so a session is replayed while it is read and only what its agents have still to
 * reproduce is held. Every line a read passes is decoded (so checked), whichever session it is
 * of; `decoded` says how far the log has been checked without a gap.
 */
export class ReplayReads {
  readonly #path: string;
  /** Places reads have reached (the end of each chunk), by seq. */
  readonly #places: Place[] = [{ seq: 0, offset: 0 }];
  #decoded = 0;

  constructor(path: string) {
    this.#path = path;
  }

  /** Every line up to this seq has been decoded. */
  get decoded(): number {
    return this.#decoded;
  }

  /**
   * The events of `session`, read as they are asked for. Throws (while iterated) what
   * `readLogSync` throws: a damaged line in the part of the log read.
   */
  *events(session: IndexedSession): Generator<Envelope, void, undefined> {
    const from = this.#placeBefore(session.firstSeq);
    const contiguous = from.seq <= this.#decoded;
    const reader = readLogSync(this.#path, {
      ...(from.seq > 0 ? { start: from } : {}),
      upTo: session.lastSeq,
      onProgress: (place) => this.#add(place),
    });
    for (const event of reader) {
      if (contiguous && event.seq > this.#decoded) this.#decoded = event.seq;
      if (event.session === session.id) yield event;
    }
  }

  /** The place read nearest before line `seq`. */
  #placeBefore(seq: number): Place {
    let best = this.#places[0] as Place;
    for (const place of this.#places) if (place.seq < seq && place.seq > best.seq) best = place;
    return best;
  }

  #add(place: Place): void {
    const last = this.#places.at(-1) as Place;
    if (place.seq > last.seq) this.#places.push(place);
    else if (!this.#places.some((p) => p.seq === place.seq)) {
      this.#places.push(place);
      this.#places.sort((a, b) => a.seq - b.seq);
    }
  }
}
