/**
 * A list read by position (0, 1, 2, … in the order its items were pushed) whose items before a
 * position can be let go of: each is dropped at once (a large payload is then garbage before it
 * ages), and the list is shortened now and then, so that it holds what is still to be read rather
 * than all it was given. Replay keeps a session's events (core/replay/recorded.ts) and each
 * agent's tape (core/replay/agent_tape.ts) in one.
 */
export class ReleasedList<T> {
  /** The items from position `#base` on; those before `#released` are let go of (undefined). */
  #items: (T | undefined)[] = [];
  #base = 0;
  #released = 0;

  /** The position the next item pushed will have. */
  get end(): number {
    return this.#base + this.#items.length;
  }

  /** The first position still held: the items before it were let go of. */
  get released(): number {
    return this.#released;
  }

  push(item: T): void {
    this.#items.push(item);
  }

  /** The item at `position`; undefined when it was let go of or not pushed yet. */
  at(position: number): T | undefined {
    return position < this.#released ? undefined : this.#items[position - this.#base];
  }

  /** Let go of the items before `position` (of those pushed). */
  release(position: number): void {
    const upTo = Math.min(position, this.end);
    for (let i = this.#released; i < upTo; i++) this.#items[i - this.#base] = undefined;
    this.#released = Math.max(this.#released, upTo);
    const passed = this.#released - this.#base;
    if (passed >= RELEASE_BATCH && passed * 2 >= this.#items.length) {
      this.#items.splice(0, passed);
      this.#base += passed;
    }
  }

  /** Each item still held, with its position, in order. */
  forEach(visit: (item: T, position: number) => void): void {
    for (let position = this.#released; position < this.end; position++) {
      visit(this.#items[position - this.#base] as T, position);
    }
  }
}

/** Let-go items at the front of the list before it is shortened. */
const RELEASE_BATCH = 256;
