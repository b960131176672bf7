import { SearchStopped } from "./_ripgrep.ts";

/**
 * The worker's code, inline so that a bundled rein needs no file beside it. It compiles the
 * pattern once and answers each batch of lines with the indexes of those that match.
 */
const WORKER_SOURCE = `
let regex;
self.onmessage = (event) => {
  const message = event.data;
  if (message.lines === undefined) {
    regex = new RegExp(message.source, message.flags);
    return;
  }
  const found = [];
  for (let i = 0; i < message.lines.length; i++) if (regex.test(message.lines[i])) found.push(i);
  self.postMessage(found);
};
`;

/**
 * Matches lines with JavaScript's backtracking regex engine in a Worker, so that a catastrophic
 * pattern such as `(a|a)+$` on a long line can be stopped: one running `RegExp.exec` cannot be
 * interrupted on the main thread, but a worker can be terminated. Use with `using`.
 */
export class RegexWorker implements Disposable {
  readonly #regex: RegExp;
  #worker: Worker | undefined;

  constructor(regex: RegExp) {
    this.#regex = regex;
  }

  /**
   * The 0-based indexes of `lines` that match, ascending. When `signal` aborts the worker is
   * terminated and this throws {@link SearchStopped}; the object cannot be used after that.
   */
  match(lines: readonly string[], signal: AbortSignal): Promise<number[]> {
    if (signal.aborted) return Promise.reject(new SearchStopped());
    const worker = this.#start();
    return new Promise((resolve, reject) => {
      const stop = () => {
        this[Symbol.dispose]();
        reject(new SearchStopped());
      };
      signal.addEventListener("abort", stop, { once: true });
      worker.onmessage = (event: MessageEvent<number[]>) => {
        signal.removeEventListener("abort", stop);
        resolve(event.data);
      };
      worker.onerror = (event) => {
        event.preventDefault();
        signal.removeEventListener("abort", stop);
        reject(new Error(event.message));
      };
      worker.postMessage({ lines });
    });
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "text/javascript" }));
    try {
      this.#worker = new Worker(url, { type: "module" });
    } finally {
      URL.revokeObjectURL(url);
    }
    this.#worker.postMessage({ source: this.#regex.source, flags: this.#regex.flags });
    return this.#worker;
  }

  [Symbol.dispose](): void {
    this.#worker?.terminate();
    this.#worker = undefined;
  }
}
