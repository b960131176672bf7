/**
 * A 64-bit FNV-1a hash of a file's bytes, fed chunk by chunk as they stream (two 32-bit lanes
 * with different offset bases), as hex. Not for security: it tells read before edit whether a
 * file whose modification time changed still holds the bytes the agent read.
 */
export class ContentHash {
  #a = 0x811c9dc5;
  #b = 0x01000193 ^ 0x5bd1e995;

  /** Adds `bytes` to the hash. */
  update(bytes: Uint8Array): void {
    let a = this.#a;
    let b = this.#b;
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i] as number;
      a = Math.imul(a ^ byte, 0x01000193);
      b = Math.imul(b ^ byte, 0x01000193) ^ (b >>> 15);
    }
    this.#a = a;
    this.#b = b;
  }

  /** The hash of every byte added, as 16 hex digits. */
  digest(): string {
    const hex = (n: number) => (n >>> 0).toString(16).padStart(8, "0");
    return hex(this.#a) + hex(this.#b);
  }
}

/** The {@link ContentHash} of `bytes`. */
export function contentHash(bytes: Uint8Array): string {
  const hash = new ContentHash();
  hash.update(bytes);
  return hash.digest();
}
