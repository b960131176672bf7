import assert from "node:assert/strict";
import { fixedClock, prompt } from "./events.ts";
import { microtasks } from "./microtasks.ts";
import type {
  AppendDecision,
  EventListener,
  EventStore,
  Leases,
  LogReader,
} from "../events/store.ts";
import { type StartPoint, StartPointError } from "../events/start_point.ts";
import { CURRENT_VERSION, type Envelope, type NewEvent } from "../events/event_types.ts";

/** A store as the contract suite checks it: a writer, a reader and a lease holder. */
export type ContractStore = EventStore & LogReader & Leases;

/** What the contract suite needs to open writers on one shared log. */
export interface StoreHarness extends AsyncDisposable {
  /**
   * A writer on the harness's log; every call opens another writer on the same log (as another
   * process would), reading it from `start` when given.
   */
  open(
    options: { secrets?: string[]; onEvent?: EventListener; start?: StartPoint },
  ): Promise<ContractStore>;
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
      v: CURRENT_VERSION,
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

  contract(
    "a listener subscribed while a catch-up is under way gets its events past the lastSeq it saw",
    async (h) => {
      const mine = await h.open({});
      const theirs = await h.open({});
      await theirs.append([prompt("t1", "mate"), prompt("t2", "mate")]);
      const catching = mine.catchUp();
      // Microtasks only (no I/O): the catch-up has begun, and its read is not back yet where
      // the store reads asynchronously.
      await microtasks();
      const from = mine.lastSeq;
      const seen: number[] = [];
      mine.subscribe((e) => seen.push(e.seq));
      await catching;
      assert.deepEqual(seen, [1, 2].filter((seq) => seq > from));
    },
  );

  contract(
    "a listener subscribed by another as an append's or a catch-up's first event is delivered gets the events past the lastSeq it saw, none before",
    async (h) => {
      const mine = await h.open({});
      const theirs = await h.open({});
      const late: { from: number; seen: number[] }[] = [];
      // At the first event of each delivery (seqs 1 and 4), another listener subscribes.
      mine.subscribe((e) => {
        if (e.seq !== 1 && e.seq !== 4) return;
        const entry = { from: mine.lastSeq, seen: [] as number[] };
        late.push(entry);
        mine.subscribe((later) => entry.seen.push(later.seq));
      });
      await mine.append([prompt("m1"), prompt("m2"), prompt("m3")]);
      await theirs.append([prompt("t4", "mate"), prompt("t5", "mate"), prompt("t6", "mate")]);
      await mine.catchUp();
      await mine.append([prompt("m7")]);
      const all = [1, 2, 3, 4, 5, 6, 7];
      assert.equal(late.length, 2);
      for (const { from, seen } of late) {
        assert.deepEqual(seen, all.filter((seq) => seq > from), `subscribed at lastSeq ${from}`);
      }
    },
  );

  contract("a closed store refuses to append, catch up, sync or wait", async (h) => {
    const store = await h.open({});
    await store.append([prompt("a")]);
    await store.close();
    await store.close();
    await assert.rejects(store.append([prompt("b")]), /closed/);
    await assert.rejects(store.appendDecided(() => [prompt("b")]), /closed/);
    await assert.rejects(store.catchUp(), /closed/);
    await assert.rejects(store.sync(), /closed/);
    await assert.rejects(store.waitForAppend(0, new AbortController().signal), /closed/);
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

  contract(
    "appendDecided: a writer deciding after another's claim sees it and appends nothing",
    async (h) => {
      const alice = claimant("alice");
      const bob = claimant("bob");
      const a = await h.open({ onEvent: alice.evolve });
      const b = await h.open({ onEvent: bob.evolve });
      const won = await a.appendDecided(alice.decide, { sync: true });
      assert.deepEqual(won.map((e) => [e.seq, e.agent, e.data]), [[1, "alice", CLAIM]]);
      assert.equal(bob.owner, undefined, "bob has not caught up yet");
      assert.deepEqual(await b.appendDecided(bob.decide), []);
      assert.equal(bob.owner, "alice");
      assert.deepEqual(bob.decidedAt, [1], "decided once, on the caught-up state");
      assert.deepEqual(alice.decidedAt, [0]);
      assert.equal(b.lastSeq, 1);
      assert.equal((await h.persisted()).split("claim task-1").length - 1, 1);
    },
  );

  contract("appendDecided: of four writers claiming at once, exactly one claims", async (h) => {
    const claimants = ["w1", "w2", "w3", "w4"].map(claimant);
    const stores: EventStore[] = [];
    for (const c of claimants) stores.push(await h.open({ onEvent: c.evolve }));
    const results = await Promise.all(stores.map((s, i) => s.appendDecided(claimants[i]!.decide)));
    const claims = results.flat();
    assert.equal(claims.length, 1);
    for (const c of claimants) {
      assert.equal(c.owner, claims[0]!.agent);
      assert.equal(c.decidedAt.length, 1);
    }
  });

  contract("appendDecided: a decide that throws or awaits appends nothing", async (h) => {
    const store = await h.open({});
    await store.append([prompt("a")]);
    const refusal = new Error("no decision");
    await assert.rejects(
      store.appendDecided(() => {
        throw refusal;
      }),
      (error) => error === refusal,
    );
    const awaiting = (() => Promise.resolve([prompt("x")])) as unknown as AppendDecision;
    await assert.rejects(store.appendDecided(awaiting), TypeError);
    assert.equal(store.lastSeq, 1);
    assert.equal((await store.append([prompt("b")]))[0]!.seq, 2);
    assert.ok(!(await h.persisted()).includes('"x"'));
  });

  contract("waitForAppend resolves with another writer's later append", async (h) => {
    const seen: number[] = [];
    const waiter = await h.open({ onEvent: (e) => seen.push(e.seq) });
    const writer = await h.open({});
    let settled = false;
    const waiting = waiter.waitForAppend(0, new AbortController().signal).finally(() => {
      settled = true;
    });
    const writing = sleep(30).then(() => writer.append([prompt("late", "mate")]));
    await sleep(10);
    assert.equal(settled, false, "an idle log keeps it waiting");
    const caught = await waiting;
    await writing;
    assert.deepEqual(caught.map((e) => [e.seq, e.agent]), [[1, "mate"]]);
    assert.deepEqual(seen, [1]);
    assert.equal(waiter.lastSeq, 1);
  });

  contract("waitForAppend resolves at once when the log is already past afterSeq", async (h) => {
    const waiter = await h.open({});
    const writer = await h.open({});
    await writer.append([prompt("a", "mate"), prompt("b", "mate")]);
    const signal = new AbortController().signal;
    const caught = await soon(waiter.waitForAppend(0, signal, 60_000));
    assert.deepEqual(caught.map((e) => e.seq), [1, 2], "what it had not caught up yet");
    assert.deepEqual(await soon(waiter.waitForAppend(1, signal, 60_000)), []);
    assert.deepEqual(await soon(writer.waitForAppend(0, signal, 60_000)), []);
  });

  contract("waitForAppend wakes on this store's own append too", async (h) => {
    const store = await h.open({});
    const waiting = store.waitForAppend(0, new AbortController().signal, 5);
    await store.append([prompt("a")]);
    assert.deepEqual(await soon(waiting), [], "the append delivered the event itself");
  });

  contract("waitForAppend rejects with the abort reason, before or while waiting", async (h) => {
    const store = await h.open({});
    const reason = new Error("stop waiting");
    const early = new AbortController();
    early.abort(reason);
    await assert.rejects(store.waitForAppend(0, early.signal), (error) => error === reason);
    const late = new AbortController();
    const waiting = assert.rejects(store.waitForAppend(0, late.signal, 5), (e) => e === reason);
    await sleep(20);
    late.abort(reason);
    await soon(waiting);
    assert.equal((await store.append([prompt("a")]))[0]!.seq, 1);
  });

  contract("read hands out a seq range, a session's events, and others' appends", async (h) => {
    const store = await h.open({});
    const other = await h.open({});
    await store.append([prompt("a"), ofS2("b"), prompt("c")]);
    await other.append([prompt("d", "mate"), ofS2("e")]);
    const seqs = async (range?: Parameters<LogReader["read"]>[0]) =>
      (await Array.fromAsync(store.read(range))).map((e) => e.seq);
    assert.deepEqual(await seqs(), [1, 2, 3, 4, 5], "without catching up first");
    assert.equal(store.lastSeq, 3, "reading delivers nothing to the listeners");
    assert.deepEqual(await seqs({ fromSeq: 2, toSeq: 4 }), [2, 3, 4]);
    assert.deepEqual(await seqs({ session: "s2" }), [2, 5]);
    assert.deepEqual(await seqs({ session: "s2", toSeq: 4 }), [2]);
    assert.deepEqual(await seqs({ fromSeq: 4, toSeq: 3 }), []);
    assert.deepEqual(await seqs({ fromSeq: 9 }), []);
    const [first] = await Array.fromAsync(store.read({ toSeq: 1 }));
    assert.deepEqual(first, (await Array.fromAsync(other.read()))[0]);
    assert.deepEqual(first?.data, { text: "a" });
  });

  contract(
    "followLog yields the log from fromSeq, then every later append once, until aborted",
    async (h) => {
      const store = await h.open({});
      const writer = await h.open({});
      await writer.append([prompt("a"), prompt("b"), prompt("c")]);
      const stop = new AbortController();
      const seen: number[] = [];
      let wanted = 2;
      let arrived = () => {};
      const following = (async () => {
        for await (const event of store.followLog(2, stop.signal)) {
          seen.push(event.seq);
          if (seen.length >= wanted) arrived();
        }
      })();
      const reach = async (count: number) => {
        wanted = count;
        if (seen.length >= count) return;
        await soon(new Promise<void>((resolve) => arrived = resolve), 5000);
      };
      await reach(2);
      assert.deepEqual(seen, [2, 3]);
      await writer.append([prompt("d", "mate")]);
      await reach(3);
      await store.append([prompt("e"), prompt("f")]);
      await reach(5);
      stop.abort();
      await soon(following, 5000);
      assert.deepEqual(seen, [2, 3, 4, 5, 6]);
      await writer.append([prompt("g")]);
      await sleep(20);
      assert.deepEqual(seen, [2, 3, 4, 5, 6], "nothing after the abort");
    },
  );

  contract("followLog ends without throwing when aborted while it waits", async (h) => {
    const store = await h.open({});
    await store.append([prompt("a")]);
    const stop = new AbortController();
    const seen: number[] = [];
    const following = (async () => {
      for await (const event of store.followLog(1, stop.signal)) seen.push(event.seq);
    })();
    await sleep(20);
    stop.abort(new Error("enough"));
    await soon(following);
    assert.deepEqual(seen, [1]);
  });

  contract("a store opened at a start point by seq alone delivers what follows it", async (h) => {
    const writer = await h.open({});
    await writer.append([prompt("a"), prompt("b"), prompt("c"), prompt("d")]);
    const seen: number[] = [];
    const store = await h.open({ start: { seq: 2 }, onEvent: (e) => seen.push(e.seq) });
    assert.deepEqual(seen, [3, 4]);
    assert.equal(store.lastSeq, 4);
    assert.equal((await store.append([prompt("e")]))[0]!.seq, 5);
    assert.deepEqual(seen, [3, 4, 5]);
    await assert.rejects(h.open({ start: { seq: 9 } }), StartPointError);
  });

  contract(
    "a lease has one holder per session and agent; released or closed, it is free",
    async (h) => {
      const one = await h.open({});
      const two = await h.open({});
      const held = await one.lease("s1", "lead");
      assert.ok(held.held);
      assert.equal(held.lease.session, "s1");
      assert.equal(held.lease.agent, "lead");
      const refused = await two.lease("s1", "lead");
      assert.equal(refused.held, false);
      assert.equal((await one.lease("s1", "lead")).held, false, "not twice by one store either");
      const mate = await two.lease("s1", "mate");
      assert.ok(mate.held, "another agent of the session is another lease");
      assert.ok((await two.lease("s2", "lead")).held, "so is another session");
      held.lease.release();
      held.lease.release();
      const again = await two.lease("s1", "lead");
      assert.ok(again.held);
      await two.close();
      assert.ok((await one.lease("s1", "lead")).held, "a closed store's leases are free");
      assert.ok((await one.lease("s1", "mate")).held);
      await assert.rejects(two.lease("s3", "lead"), /closed/);
    },
  );

  contract("closing a store rejects its pending waitForAppend", async (h) => {
    const store = await h.open({});
    const waiting = assert.rejects(
      store.waitForAppend(0, new AbortController().signal, 5),
      /closed/,
    );
    await sleep(10);
    await store.close();
    await soon(waiting);
  });
}

const CLAIM = { text: "claim task-1" };

/** A prompt of session s2. */
function ofS2(text: string): NewEvent {
  return { ...prompt(text), session: "s2" };
}

/** A writer that wants task-1: its listener-folded view of the owner and its decision. */
interface Claimant {
  owner: string | undefined;
  /** The `lastSeq` of every call of `decide`. */
  decidedAt: number[];
  evolve: EventListener;
  decide: AppendDecision;
}

function claimant(agent: string): Claimant {
  const self: Claimant = {
    owner: undefined,
    decidedAt: [],
    evolve(event) {
      if (event.type === "user.prompted" && event.data.text === CLAIM.text) {
        self.owner ??= event.agent;
      }
    },
    decide(lastSeq): NewEvent[] {
      self.decidedAt.push(lastSeq);
      return self.owner === undefined ? [prompt(CLAIM.text, agent)] : [];
    },
  };
  return self;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** `promise`, or a rejection if it has not settled within `ms` (a second by default). */
async function soon<T>(promise: Promise<T>, ms = 1000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("Expected to settle at once, still pending")), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
