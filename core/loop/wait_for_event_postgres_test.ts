/**
 * waitForEvent against a PostgreSQL log that another process (another machine: a teammate's
 * host) appends to, which this process learns of only by reading the table: a catch-up of the
 * lead's process already under way as a wait begins (the lead's other waits look at every
 * NOTIFY) must not hide from the wait the events it delivers.
 */
import assert from "node:assert/strict";
import { microtasks } from "../../testing/microtasks.ts";
import type { NewEvent } from "../../events/event_types.ts";
import { openPostgresStore } from "../../events/postgres/postgres_store.ts";
import { postgresMissing, startTestPostgres } from "../../testing/postgres_server.ts";
import { waitForEvent } from "./wait_for_event.ts";

const missing = postgresMissing();
if (missing !== undefined) console.warn(missing);

const event = (agent: string, type: "turn.started" | "turn.ended"): NewEvent =>
  type === "turn.started"
    ? { type, data: { roundsBefore: 0, maxTurns: null }, session: "s1", agent }
    : { type, data: { reason: "completed", rounds: 1 }, session: "s1", agent };

Deno.test({
  name:
    "waitForEvent on a PostgreSQL log finds the event that a catch-up already under way when the wait began delivers (another machine appended it)",
  ignore: missing !== undefined,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using server = await startTestPostgres();
    const url = server.url("waits");
    const clock = () => new Date("2026-11-29T12:00:00.000Z");
    const host = await openPostgresStore(url, { clock });
    const lead = await openPostgresStore(url, { clock });
    try {
      await host.append([event("bob", "turn.started")]);
      await lead.catchUp();
      const afterSeq = lead.lastSeq;
      // Bob (on the host) ends his turn; the lead's process catches up (one of its other waits
      // woke), and this wait begins while that catch-up's read is on the wire.
      await host.append([event("alice", "turn.started"), event("bob", "turn.ended")]);
      const catching = lead.catchUp();
      await microtasks();
      const waiting = waitForEvent(
        lead,
        afterSeq,
        "turn.ended",
        (e) => e.agent === "bob",
        AbortSignal.timeout(60_000),
      );
      await catching;
      // A later end of bob's turn: what the wait finds when it missed the first one.
      await host.append([event("bob", "turn.ended")]);
      const found = await waiting;
      assert.equal(found.seq, afterSeq + 2, "the wait missed bob's turn.ended");
    } finally {
      await lead.close();
      await host.close();
    }
  },
});
