import type { Envelope } from "../../events/event_types.ts";
import { ReleasedList } from "./_released_list.ts";

/**
 * A session's recorded events as replay reads them: by index in the session's order, read from
 * the source only as far as replay has asked, and let go once it is past them. So a replay holds
 * what its agents have still to reproduce, not the whole session, and a session read from the
 * log is replayed as it is read.
 */
export class Recorded {
  readonly #source: Iterator<Envelope>;
  /** The events read, by index; those replay is past are let go of. */
  readonly #events = new ReleasedList<Envelope>();
  #ended = false;
  #failure: { error: unknown } | undefined;
  #listeners: ((event: Envelope, index: number) => void)[] = [];

  readonly #onFailure: (error: unknown) => void;

  /**
   * `source`: the session's events in order. What it throws ends the reading: it is kept as
   * `failure` and handed to `onFailure`.
   */
  constructor(source: Iterable<Envelope>, onFailure: (error: unknown) => void = () => {}) {
    this.#source = source[Symbol.iterator]();
    this.#onFailure = onFailure;
  }

  /**
   * Have `listener` called with each event read and its index, in order: at once with those
   * read and still held, then as they are read.
   */
  onRead(listener: (event: Envelope, index: number) => void): void {
    this.#events.forEach(listener);
    this.#listeners.push(listener);
  }

  /** How many events have been read: the index of the next. */
  get read(): number {
    return this.#events.end;
  }

  /** What reading the source threw, if it did: the session was not read to its end. */
  get failure(): { error: unknown } | undefined {
    return this.#failure;
  }

  /**
   * The event at `index`, reading on as far as needed; undefined past the session's end. Throws
   * RangeError for an index let go of ({@link release}).
   */
  at(index: number): Envelope | undefined {
    const kept = this.#events.released;
    if (index < kept) {
      throw new RangeError(`Recorded event ${index} was let go of (events from ${kept} on)`);
    }
    while (index >= this.read) if (!this.more()) return undefined;
    return this.#events.at(index);
  }

  /** Read the next event; false when there is none (or reading failed). */
  more(): boolean {
    if (this.#ended) return false;
    let step: IteratorResult<Envelope>;
    try {
      step = this.#source.next();
    } catch (error) {
      this.#failure = { error };
      this.#ended = true;
      this.#onFailure(error);
      return false;
    }
    if (step.done) {
      this.#ended = true;
      return false;
    }
    const index = this.read;
    this.#events.push(step.value);
    for (const listener of this.#listeners) listener(step.value, index);
    return true;
  }

  /**
   * Replay will not ask for the events before `index` again: they are let go of at once (a
   * large payload is then garbage before it ages), and the list shortened now and then.
   */
  release(index: number): void {
    this.#events.release(index);
  }

  /** Stop reading: the source is closed (a file it reads). */
  close(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#source.return?.();
  }
}
