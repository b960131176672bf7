import type { Sink } from "../render/render.ts";

/**
 * A sink that, while a turn runs in a terminal, shows a "working" line with the elapsed seconds
 * whenever the output rests at the start of a line; it is erased before anything else is written.
 */
export class WorkingLine implements Sink {
  readonly #out: Sink;
  readonly #enabled: boolean;
  readonly #label: (seconds: number) => string;
  #timer: ReturnType<typeof setInterval> | undefined;
  #started = 0;
  #shown: string | null = null;
  #atLineStart = true;

  constructor(out: Sink, enabled: boolean, label: (seconds: number) => string) {
    this.#out = out;
    this.#enabled = enabled;
    this.#label = label;
  }

  write(text: string): void {
    if (!text) return;
    this.#erase();
    this.#out.write(text);
    this.#atLineStart = text.endsWith("\n");
  }

  start(): void {
    if (!this.#enabled) return;
    this.#started = Date.now();
    this.#timer = setInterval(() => this.#draw(), 250);
    this.#draw();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#erase();
  }

  #draw() {
    if (this.#timer === undefined || !this.#atLineStart) return;
    const label = this.#label(Math.floor((Date.now() - this.#started) / 1000));
    if (label === this.#shown) return;
    this.#out.write(`\r\x1b[2K${label}`);
    this.#shown = label;
  }

  #erase() {
    if (this.#shown !== null) this.#out.write("\r\x1b[2K");
    this.#shown = null;
  }
}
