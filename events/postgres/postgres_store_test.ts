/**
 * PostgresStore behaviour beyond the shared contract suite: how its waits learn of appends by
 * other processes (other machines), which it knows of only by reading the table.
 */
import assert from "node:assert/strict";
import { microtasks } from "../../testing/microtasks.ts";
import { prompt } from "../../testing/events.ts";
import { postgresMissing, startTestPostgres } from "../../testing/postgres_server.ts";
import { openPool } from "./_pg.ts";
import { logTables } from "./_schema.ts";
import { openPostgresStore } from "./postgres_store.ts";

const missing = postgresMissing();
if (missing !== undefined) console.warn(missing);

Deno.test({
  name:
    "PostgresStore: a pending waitForAppend returns once another call's catch-up has read past it, though that append's NOTIFY, coming after, is no news",
  ignore: missing !== undefined,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using server = await startTestPostgres();
    const clock = () => new Date("2026-11-29T12:00:00.000Z");
    const other = await openPostgresStore(server.url("waked"), { clock });
    const mine = await openPostgresStore(server.url("waked"), { clock });
    // The same events in a second log: copied into the first, they are an append whose NOTIFY
    // has not come yet (it is sent at commit, over another connection than the rows are read).
    const scratch = await openPostgresStore(server.url("scratch"), { clock });
    const sql = openPool(`postgres://postgres@127.0.0.1:${server.port}/postgres`, 1);
    const controller = new AbortController();
    try {
      await other.append([prompt("a", "mate")]);
      await scratch.append([prompt("a", "mate"), prompt("b", "mate")]);
      await mine.catchUp();
      let returned = false;
      const waiting = mine.waitForAppend(1, controller.signal).then((caught) => {
        returned = true;
        return caught;
      });
      waiting.catch(() => {}); // Aborted at the end when it never returned.
      // Its first look found nothing new (looks and catch-ups run one at a time).
      await mine.catchUp();
      await microtasks();
      assert.equal(returned, false);
      const [to, from] = [logTables("waked").events, logTables("scratch").events];
      await sql.query(`insert into ${to} select * from ${from} where seq = 2`);
      // Another caller of this store (another wait's first look) reads event 2 first.
      assert.deepEqual((await mine.catchUp()).map((e) => e.seq), [2]);
      await microtasks();
      assert.equal(returned, true, "the wait did not see the log pass its seq");
      assert.deepEqual(await waiting, []);
    } finally {
      controller.abort(new Error("Test over"));
      await sql.end();
      await scratch.close();
      await mine.close();
      await other.close();
    }
  },
});
