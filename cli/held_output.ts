import type { Sink } from "./render/render.ts";
import type { SweepReady } from "./session_sweep.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Output written now and printed later, held as UTF-8 bytes off the JS heap: a session resumed
 * at the end of a log holds back the output of every session after it, and a large JS heap makes
 * the engine let the heap grow larger still.
 */
export class HeldOutput implements Sink {
  readonly #chunks: Uint8Array[] = [];

  write(text: string): void {
    if (text) this.#chunks.push(encoder.encode(text));
  }

  /** What a sweep holds for this output: no weight, and an `emit` that writes it to `out`. */
  ready(out: Sink): SweepReady {
    const chunks = this.#chunks;
    return { weight: 0, emit: () => chunks.forEach((chunk) => out.write(decoder.decode(chunk))) };
  }
}
