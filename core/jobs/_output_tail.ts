/** Bytes of a job's output kept for its tail. */
const KEEP_BYTES = 16 * 1024;

/**
 * The end of a stream of output, kept in bounded memory: the last lines of what was pushed, as
 * text, for a job's `job.finished` and its notification.
 */
export class OutputTail {
  #chunks: Uint8Array[] = [];
  #kept = 0;

  /** Adds a chunk; only the last {@link KEEP_BYTES} bytes are kept. */
  push(chunk: Uint8Array): void {
    this.#chunks.push(chunk);
    this.#kept += chunk.length;
    while (this.#chunks.length > 1 && this.#kept - (this.#chunks[0]?.length ?? 0) >= KEEP_BYTES) {
      this.#kept -= this.#chunks.shift()?.length ?? 0;
    }
  }

  /**
   * The last `lines` lines (at most `chars` characters, cut at a line start when it can be),
   * without trailing blank lines. Pure over what was pushed.
   */
  text(lines = 20, chars = 2000): string {
    const bytes = new Uint8Array(this.#kept);
    let at = 0;
    for (const chunk of this.#chunks) {
      bytes.set(chunk, at);
      at += chunk.length;
    }
    const text = new TextDecoder().decode(bytes.subarray(Math.max(0, bytes.length - KEEP_BYTES)))
      .replace(/\s+$/, "");
    let tail = text.split("\n").slice(-lines).join("\n");
    if (tail.length > chars) {
      tail = tail.slice(-chars);
      const start = tail.indexOf("\n");
      if (start !== -1 && start < chars / 2) tail = tail.slice(start + 1);
    }
    return tail;
  }
}
