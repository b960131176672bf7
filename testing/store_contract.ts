import assert from "node:assert/strict";
import { fixedClock, prompt } from "./events.ts";
import type { EventListener, EventStore } from "../events/store.ts";
import type { Envelope } from "../events/event_types.ts";

/** What the contract suite needs to open writers on one shared log. */
export interface StoreHarness extends AsyncDisposable {
  /** A writer on the harness's log; every call opens another writer on the same log. */
  open(options: { secrets?: string[]; onEvent?: EventListener }): Promise<EventStore>;
  /** Everything persisted so far, as text. */
  persisted(): Promise<string>;
}

/** Register the EventStore contract tests for one implementation. */
export function testStoreContract(name: string, harness: () => Promise<StoreHarness>): void {
  function contract(behaviour: string, body: (h: StoreHarness) => Promise<void>): void {
    Deno.test(`${name}: ${behaviour}`, async () => {
      await using h = await harness();
      await body(h);
    });
  }

  contract("append returns stamped envelopes with gapless seqs from 1", async (h) => {
    const store = await h.open({});
    const first = await store.append([prompt("a"), prompt("b")]);
    const second = await store.append([prompt("c")], { sync: true });
    assert.deepEqual([...first, ...second].map((e) => e.seq), [1, 2, 3]);
    assert.deepEqual(first[0], {
      v: 1,
      seq: 1,
      ts: fixedClock()().toISOString(),
      type: "user.prompted",
      session: "s1",
      agent: "lead",
      data: { text: "a" },
    });
    assert.equal(store.lastSeq, 3);
    assert.deepEqual(await store.append([]), []);
    assert.equal(store.lastSeq, 3);
  });

  contract("concurrent appends on one store get contiguous, gapless seqs", async (h) => {
    const store = await h.open({});
    const batches = await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.append([prompt(`${i}a`), prompt(`${i}b`)])),
    );
    const seqs = batches.flat().map((e) => e.seq);
    assert.deepEqual(seqs, Array.from({ length: 40 }, (_, i) => i + 1));
    for (const batch of batches) assert.equal(batch[1]!.seq, batch[0]!.seq + 1);
  });

  contract("listeners receive every event once, in seq order, onEvent first", async (h) => {
    const calls: string[] = [];
    const store = await h.open({ onEvent: (e) => calls.push(`onEvent ${e.seq}`) });
    const unsubscribe = store.subscribe((e) => calls.push(`sub ${e.seq}`));
    await store.append([prompt("a"), prompt("b")]);
    unsubscribe();
    await store.append([prompt("c")]);
    assert.deepEqual(calls, ["onEvent 1", "sub 1", "onEvent 2", "sub 2", "onEvent 3"]);
  });

  contract("a new writer's onEvent receives the existing log at open", async (h) => {
    const writer = await h.open({});
    const written = await writer.append([prompt("a"), prompt("b"), prompt("c")]);
    const seen: Envelope[] = [];
    const reader = await h.open({ onEvent: (e) => seen.push(e) });
    assert.deepEqual(seen, written);
    assert.equal(reader.lastSeq, 3);
  });

  contract(
    "catch-up delivers another writer's events, then appends continue the seq",
    async (h) => {
      const seen: number[] = [];
      const mine = await h.open({ onEvent: (e) => seen.push(e.seq) });
      const theirs = await h.open({});
      await theirs.append([prompt("t1", "mate"), prompt("t2", "mate")]);
      const caught = await mine.catchUp();
      assert.deepEqual(caught.map((e) => [e.seq, e.agent]), [[1, "mate"], [2, "mate"]]);
      assert.deepEqual(await mine.catchUp(), []);
      await theirs.append([prompt("t3", "mate")]);
      const appended = await mine.append([prompt("m1")]);
      assert.equal(appended[0]!.seq, 4);
      assert.deepEqual(seen, [1, 2, 3, 4]);
      assert.equal((await theirs.append([prompt("t4", "mate")]))[0]!.seq, 5);
    },
  );

  contract("a closed store refuses to append, catch up or sync", async (h) => {
    const store = await h.open({});
    await store.append([prompt("a")]);
    await store.close();
    await store.close();
    await assert.rejects(store.append([prompt("b")]), /closed/);
    await assert.rejects(store.catchUp(), /closed/);
    await assert.rejects(store.sync(), /closed/);
  });

  contract("a known secret is redacted from what is stored and returned", async (h) => {
    const secret = "sk-ant-api03-SECRET-value";
    const store = await h.open({ secrets: [secret, "short"] });
    const [stored] = await store.append([prompt(`key=${secret}; short stays`)]);
    assert.deepEqual(stored?.data, { text: "key=[REDACTED]; short stays" });
    const text = await h.persisted();
    assert.ok(!text.includes(secret));
    assert.ok(text.includes("[REDACTED]"));
  });

  contract("stored events do not change when the caller mutates its input", async (h) => {
    const store = await h.open({});
    const data = { text: "a" };
    const [stored] = await store.append([{ ...prompt("x"), type: "user.prompted", data }]);
    data.text = "changed";
    assert.deepEqual(stored?.data, { text: "a" });
  });

  contract(
    "a throwing listener does not starve the others; its error is thrown after",
    async (h) => {
      const seen: number[] = [];
      const store = await h.open({});
      store.subscribe((e) => {
        if (e.seq === 1) throw new Error("projection bug");
      });
      store.subscribe((e) => seen.push(e.seq));
      await assert.rejects(store.append([prompt("a"), prompt("b")]), /projection bug/);
      assert.deepEqual(seen, [1, 2]);
      assert.equal((await store.append([prompt("c")]))[0]?.seq, 3);
    },
  );
}
