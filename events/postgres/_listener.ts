import { newClient } from "./_pg.ts";

/**
 * LISTEN on `channel` over a connection of its own, kept open: when it is lost it is made again
 * (waiting longer each time, up to a second) and `onListen` is called each time LISTEN holds
 * again (the first time included), since notifications sent meanwhile were missed.
 */
export class Listener {
  readonly #url: string;
  readonly #channel: string;
  readonly #onNotify: (payload: string) => void;
  readonly #onListen: () => void;
  #closed = false;
  #client: ReturnType<typeof newClient> | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    url: string,
    channel: string,
    onNotify: (payload: string) => void,
    onListen: () => void,
  ) {
    this.#url = url;
    this.#channel = channel;
    this.#onNotify = onNotify;
    this.#onListen = onListen;
  }

  /** Listen for the first time; rejects when that fails. */
  async start(): Promise<void> {
    await this.#connect();
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => {});
  }

  async #connect(): Promise<void> {
    const client = newClient(this.#url);
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      if (this.#client === client) this.#client = undefined;
      client.end().catch(() => {});
      this.#retry(0);
    };
    client.on("error", onLost);
    client.on("end", onLost);
    client.on("notification", (message) => this.#onNotify(message.payload ?? ""));
    try {
      await client.connect();
      await client.query(`listen "${this.#channel}"`);
    } catch (error) {
      lost = true;
      await client.end().catch(() => {});
      throw error;
    }
    if (this.#closed) {
      lost = true;
      await client.end().catch(() => {});
      return;
    }
    this.#client = client;
    this.#onListen();
  }

  #retry(attempt: number): void {
    if (this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#connect().catch(() => this.#retry(attempt + 1));
    }, Math.min(1000, 50 * 2 ** attempt));
  }
}
