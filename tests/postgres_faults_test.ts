import assert from "node:assert/strict";
import { openPostgresStore, type PostgresStore } from "../events/postgres/postgres_store.ts";
import { exportLines } from "../events/postgres/log_transfer.ts";
import { fixedClock, prompt } from "../testing/events.ts";
import {
  freePort,
  postgresMissing,
  startTestPostgres,
  type TestPostgres,
} from "../testing/postgres_server.ts";

const missing = postgresMissing();
if (missing !== undefined) console.warn(missing);

/** A test that needs a PostgreSQL server of its own (skipped where none can be started). */
function withServer(name: string, body: (server: TestPostgres) => Promise<void>): void {
  Deno.test({
    name,
    ignore: missing !== undefined,
    // The driver's sockets close a moment after `end` resolves.
    sanitizeResources: false,
    sanitizeOps: false,
    fn: async () => {
      await using server = await startTestPostgres();
      await body(server);
    },
  });
}

/** The texts of the prompts in the log at `url`, in seq order, with their seqs checked. */
async function loggedTexts(url: string): Promise<string[]> {
  const texts: string[] = [];
  for await (const line of exportLines(url)) {
    const event = JSON.parse(line) as { seq: number; data: { text: string } };
    assert.equal(event.seq, texts.length + 1, "gapless seqs from 1");
    texts.push(event.data.text);
  }
  return texts;
}

withServer(
  "PostgresStore: the database restarting mid-session — the append waits and retries, nothing lost or doubled",
  async (server) => {
    const url = server.url("restart");
    const notices: string[] = [];
    const store = await openPostgresStore(url, {
      clock: fixedClock(),
      onNotice: (m) => notices.push(m),
    });
    const watcher = await openPostgresStore(url, { clock: fixedClock() });
    try {
      await store.append([prompt("before")]);
      await watcher.catchUp();
      await server.stop("fast");
      const appending = store.append([prompt("during 1"), prompt("during 2")]);
      let settled = false;
      void appending.then(() => settled = true, () => settled = true);
      await new Promise((resolve) => setTimeout(resolve, 700));
      assert.equal(settled, false, "the append waits while the server is down");
      // The watcher's listening connection comes back with the server and wakes it.
      const woken = watcher.waitForAppend(1, new AbortController().signal);
      await server.start();
      const appended = await appending;
      assert.deepEqual(appended.map((e) => e.seq), [2, 3]);
      await store.append([prompt("after")]);
      assert.deepEqual((await woken).map((e) => e.seq).slice(0, 2), [2, 3], "woken after");
      assert.deepEqual(await loggedTexts(url), ["before", "during 1", "during 2", "after"]);
      assert.equal(notices.filter((n) => n.startsWith("Lost the connection")).length, 1);
    } finally {
      await store.close();
      await watcher.close();
    }
  },
);

withServer(
  "PostgresStore: a connection cut during an append's commit — the outcome is found by seq",
  async (server) => {
    for (const when of ["after the commit reached the server", "before it did"] as const) {
      const proxy = cuttingProxy(server.port);
      const log = when.startsWith("after") ? "cut_after" : "cut_before";
      const url = server.url(log).replace(`:${server.port}/`, `:${proxy.port}/`);
      const notices: string[] = [];
      const store = await openPostgresStore(url, {
        clock: fixedClock(),
        onNotice: (m) => notices.push(m),
      });
      try {
        await store.append([prompt("first")]);
        proxy.cutAtCommit(when.startsWith("after") ? "after" : "before");
        const appended = await store.append([prompt("cut"), prompt("cut too")]);
        assert.equal(proxy.cuts, 1, "the connection was cut once");
        assert.deepEqual(appended.map((e) => e.seq), [2, 3]);
        assert.deepEqual(await loggedTexts(server.url(log)), ["first", "cut", "cut too"]);
        const verdict = when.startsWith("after") ? "is in the log" : "is not";
        assert.ok(notices.some((n) => n.includes(`event 2 ${verdict}`)), notices.join("\n"));
        assert.equal((await store.append([prompt("next")]))[0]!.seq, 4);
      } finally {
        await store.close();
        proxy.close();
      }
    }
  },
);

withServer(
  "PostgresStore: two writers racing get one gapless order, each event once, each in its own order",
  async (server) => {
    const url = server.url("race");
    const writers: PostgresStore[] = [];
    for (const _ of [1, 2]) writers.push(await openPostgresStore(url, { clock: fixedClock() }));
    try {
      await Promise.all(writers.map(async (writer, w) => {
        for (let i = 0; i < 60; i++) {
          await writer.append([prompt(`w${w} ${i}a`), prompt(`w${w} ${i}b`)]);
        }
      }));
      const texts = await loggedTexts(url);
      assert.equal(texts.length, 240);
      for (const w of [0, 1]) {
        const own = texts.filter((t) => t.startsWith(`w${w} `));
        assert.deepEqual(
          own,
          Array.from({ length: 120 }, (_, i) => `w${w} ${i >> 1}${"ab"[i & 1]}`),
        );
      }
      for (let i = 0; i < texts.length; i += 2) {
        assert.equal(texts[i]!.slice(0, -1), texts[i + 1]!.slice(0, -1), "a batch stays whole");
      }
      for (const writer of writers) {
        await writer.catchUp();
        assert.equal(writer.lastSeq, 240);
      }
    } finally {
      for (const writer of writers) await writer.close();
    }
  },
);

/**
 * A TCP proxy to the server on `port` that, when told, cuts a connection at the server's answer
 * to an append: `after` the commit (the server's "COMMIT" never reaches the client: the append
 * is in the log, the client does not know) or `before` it (the answer to the INSERT, whose
 * result column is pg_notify's, is lost, so the client never sends COMMIT and the server rolls
 * back).
 */
function cuttingProxy(port: number) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: freePort() });
  const conns = new Set<Deno.Conn>();
  const state = { armed: undefined as RegExp | undefined, cuts: 0 };
  const pipe = async (from: Deno.Conn, to: Deno.Conn, inspect: boolean, cut: () => void) => {
    const buffer = new Uint8Array(64 * 1024);
    try {
      for (;;) {
        const count = await from.read(buffer);
        if (count === null) break;
        const chunk = buffer.subarray(0, count);
        const armed = state.armed;
        if (inspect && armed?.test(new TextDecoder().decode(chunk))) {
          state.armed = undefined;
          state.cuts++;
          cut();
          return;
        }
        await writeAll(to, chunk);
      }
    } catch {
      // Either side closed.
    }
    cut();
  };
  void (async () => {
    for await (const client of listener) {
      const server = await Deno.connect({ hostname: "127.0.0.1", port });
      conns.add(client).add(server);
      let closed = false;
      const cut = () => {
        if (closed) return;
        closed = true;
        for (const conn of [client, server]) {
          conns.delete(conn);
          try {
            conn.close();
          } catch {
            // Already closed.
          }
        }
      };
      void pipe(client, server, false, cut);
      void pipe(server, client, true, cut);
    }
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    get cuts() {
      return state.cuts;
    },
    cutAtCommit(when: "after" | "before") {
      state.armed = when === "after" ? /COMMIT\0/ : /pg_notify\0/;
    },
    close() {
      listener.close();
      for (const conn of conns) {
        try {
          conn.close();
        } catch {
          // Already closed.
        }
      }
    },
  };
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let written = 0;
  while (written < bytes.length) written += await conn.write(bytes.subarray(written));
}

withServer(
  "PostgresStore: a killed holder's lease lapses after leaseMs, while a live one's is renewed",
  async (server) => {
    const url = server.url("lease");
    const store = new URL("../events/postgres/postgres_store.ts", import.meta.url).href;
    const holder = new Deno.Command(Deno.execPath(), {
      args: [
        "eval",
        `const { openPostgresStore } = await import(${JSON.stringify(store)});
        const s = await openPostgresStore(${
          JSON.stringify(url)
        }, { clock: () => new Date(), leaseMs: 600 });
        const o = await s.lease("s1", "lead");
        console.log(o.held ? "held" : "refused");
        await new Promise(() => {});`,
      ],
      cwd: new URL("..", import.meta.url).pathname,
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const reader = holder.stdout.pipeThrough(new TextDecoderStream()).getReader();
    assert.equal((await reader.read()).value?.trim(), "held");
    const other = await openPostgresStore(url, { clock: fixedClock(), leaseMs: 600 });
    try {
      await new Promise((resolve) => setTimeout(resolve, 1200));
      const live = await other.lease("s1", "lead");
      assert.equal(live.held, false, "renewed while its holder lives");
      if (!live.held) assert.match(live.holder ?? "", /^pid \d+ on /);
      holder.kill("SIGKILL");
      await holder.status;
      await reader.cancel();
      await new Promise((resolve) => setTimeout(resolve, 900));
      assert.ok((await other.lease("s1", "lead")).held, "lapsed once its holder died");
    } finally {
      await other.close();
    }
  },
);
