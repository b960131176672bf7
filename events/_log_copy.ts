const BLOCK_SIZE = 1 << 20;
/** From this size on, an owned array is kept as it is: copying it into fresh memory costs more. */
const KEEP_OWNED_FROM = 4096;

/**
 * The bytes of a log from where a store started reading (its first byte, or a snapshot's place)
 * up to what it has read or written, less what a later snapshot covers, held in memory so
 * that the events survive the file being truncated or rewritten under the store: truncation
 * empties every name of the file, so no copy on disk (a hard link, the open descriptor) keeps
 * them. Costs memory equal to that part of the log, outside the JavaScript heap. Small pieces are
 * packed into blocks of 1 MiB, so a long run of one-event appends is not a long list of arrays.
 */
export class LogCopy {
  /** Pieces in order: views of full or sealed blocks, and large owned arrays. */
  #parts: Uint8Array[] = [];
  #block = new Uint8Array(0);
  /** Bytes of `#block` in use; those from `#sealed` on are not in `#parts` yet. */
  #filled = 0;
  #sealed = 0;
  #size = 0;

  /** Bytes held. */
  get size(): number {
    return this.#size;
  }

  /**
   * Append the content of `bytes`. When `owned`, a large array is kept as it is instead of
   * copied, and the caller must not change it afterwards; otherwise the caller may reuse it.
   */
  add(bytes: Uint8Array, owned = false): void {
    this.#size += bytes.length;
    if (owned && bytes.length >= KEEP_OWNED_FROM) {
      this.#seal();
      this.#parts.push(bytes);
      return;
    }
    let from = 0;
    while (from < bytes.length) {
      if (this.#filled === this.#block.length) {
        this.#seal();
        this.#block = new Uint8Array(BLOCK_SIZE);
        this.#filled = 0;
        this.#sealed = 0;
      }
      const piece = bytes.subarray(from, from + this.#block.length - this.#filled);
      this.#block.set(piece, this.#filled);
      this.#filled += piece.length;
      from += piece.length;
    }
  }

  /**
   * Forget the first `count` bytes held (those a snapshot now covers), freeing the blocks that
   * held only them; later bytes stay in order.
   */
  dropFirst(count: number): void {
    this.#seal();
    let left = Math.min(count, this.#size);
    this.#size -= left;
    while (left > 0) {
      const first = this.#parts[0];
      if (first === undefined) break;
      if (first.length <= left) {
        this.#parts.shift();
        left -= first.length;
      } else {
        this.#parts[0] = first.subarray(left);
        left = 0;
      }
    }
  }

  /** Write every byte held into the existing file `target`, replacing its content; then sync. */
  async writeTo(target: string): Promise<void> {
    this.#seal();
    using out = await Deno.open(target, { write: true, truncate: true });
    for (const part of this.#parts) {
      let written = 0;
      while (written < part.length) written += await out.write(part.subarray(written));
    }
    await out.syncData();
  }

  /** Move the block's bytes not yet in `#parts` there; later small pieces follow them. */
  #seal(): void {
    if (this.#filled === this.#sealed) return;
    this.#parts.push(this.#block.subarray(this.#sealed, this.#filled));
    this.#sealed = this.#filled;
  }
}
