import assert from "node:assert/strict";
import { join } from "node:path";
import fc from "fast-check";
import { openJsonlStore } from "../../events/jsonl_store.ts";
import type { Envelope } from "../../events/event_types.ts";
import { fixedClock, tempDir } from "../../testing/events.ts";
import { evolve, foldEvents, initialState, type State } from "../state/state.ts";
import type { Projection } from "../state/projection.ts";
import { todosProjection } from "../todos/todos_projection.ts";
import { memoryProjection } from "../memory/memory_projection.ts";
import { randomLog } from "../../testing/random_log.ts";
import {
  buildSnapshot,
  foldSessions,
  latestCatalog,
  loadSessions,
  pruneSnapshots,
  sessionSnapshot,
  snapshotCoverage,
  snapshotDir,
  startSnapshots,
} from "./mod.ts";
import { catalogSnapshotPath, sessionSnapshotPath } from "./snapshot_files.ts";

const PROJECTIONS = [todosProjection, memoryProjection] as Projection[];

/** A log file of random sessions (the same for a seed), and its events. */
async function writeLog(dir: string, seed = 7): Promise<{ path: string; events: Envelope[] }> {
  const [events] = fc.sample(
    randomLog().filter((log) => log.length > 40),
    { seed, numRuns: 1 },
  );
  const path = join(dir, "events.jsonl");
  const store = await openJsonlStore(path, { clock: fixedClock() });
  await store.append(
    events!.map(({ type, session, agent, data }) => ({ type, session, agent, data }) as never),
  );
  await store.close();
  return { path, events: events! };
}

/** As stored and read back (`undefined` stays so). */
function json(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

Deno.test("a built snapshot is the catalog of the log, and a fold from it equals the whole fold", async () => {
  await using dir = await tempDir();
  const { path, events } = await writeLog(dir.path);
  const built = await buildSnapshot(path, { sessions: ["s0"], projections: PROJECTIONS });
  assert.equal(built.seq, events.length);
  assert.equal(built.offset, (await Deno.stat(path)).size);
  const whole = foldEvents(events, PROJECTIONS);
  const start = await latestCatalog(path);
  assert.deepEqual(json(start?.catalog), json(whole.catalog));
  const snapshot = await sessionSnapshot(path, "s0", PROJECTIONS);
  assert.deepEqual(json(snapshot?.view), json(whole.sessions.byId["s0"]));
  const folded = await foldSessions(path, { focus: ["s0"], projections: PROJECTIONS });
  assert.deepEqual(json(folded.catalog), json(whole.catalog));
  assert.deepEqual(json(folded.sessions.byId), json({ s0: whole.sessions.byId["s0"] }));
  assert.deepEqual((await snapshotCoverage(path)).map((s) => [s.seq, s.sessions, s.valid]), [
    [events.length, whole.catalog.order.length, true],
    [events.length, 1, true],
  ]);
});

Deno.test("sessions load from their snapshot plus the events after it", async () => {
  await using dir = await tempDir();
  const { path, events } = await writeLog(dir.path, 11);
  const cut = Math.floor(events.length / 2);
  // Snapshots at the cut: the log then held only its first half.
  const half = join(dir.path, "half.jsonl");
  const all = await Deno.readTextFile(path);
  const firstHalf = all.split("\n").slice(0, cut).map((l) => `${l}\n`).join("");
  await Deno.writeTextFile(path, firstHalf);
  const ids = foldEvents(events).catalog.order;
  await buildSnapshot(path, { sessions: ids, projections: PROJECTIONS });
  await Deno.writeTextFile(path, all);
  await Deno.remove(half).catch(() => {});
  const whole = foldEvents(events, PROJECTIONS);
  const loaded = await loadSessions(path, {
    ids,
    upTo: events.length,
    projections: PROJECTIONS,
    catalog: whole.catalog,
  });
  for (const id of ids) {
    assert.deepEqual(json(loaded.sessions.byId[id]), json(whole.sessions.byId[id]), id);
    // Its messages are frozen values, as a fold from the log makes them.
    for (const agent of Object.values(loaded.sessions.byId[id]?.agents ?? {})) {
      for (const message of agent.messages) {
        assert.ok(Object.isFrozen(message) && Object.isFrozen(message.content), id);
      }
    }
    for (const p of PROJECTIONS) {
      assert.deepEqual(
        json((loaded.extensions[p.key] as Record<string, unknown>)[id]),
        json((whole.extensions[p.key] as Record<string, unknown>)[id]),
      );
    }
  }
  const resumed = await foldSessions(path, { focus: [] });
  assert.deepEqual(json(resumed.catalog), json(whole.catalog));
});

Deno.test("a snapshot that was tampered with, is of other fold code or no longer fits the log is ignored", async () => {
  await using dir = await tempDir();
  const { path, events } = await writeLog(dir.path);
  const { seq } = await buildSnapshot(path);
  const file = catalogSnapshotPath(path, seq);
  const good = await Deno.readTextFile(file);
  const [header, body] = good.split("\n") as [string, string];
  const spoiled = [
    `${header}\n${body.replace('"order":[', '"order":["forged",')}\n`,
    `${header.replace(/"fingerprint":"[^"]*"/, '"fingerprint":"other"')}\n${body}\n`,
    `${header}\n{"byId":\n`,
    "not json\n",
  ];
  for (const text of spoiled) {
    await Deno.writeTextFile(file, text);
    assert.equal(await latestCatalog(path), undefined, text.slice(0, 80));
  }
  await Deno.writeTextFile(file, good);
  assert.ok(await latestCatalog(path));
  // The last line rewritten in place (same length), and the log cut short: both no longer fit.
  const log = await Deno.readTextFile(path);
  await Deno.writeTextFile(
    path,
    log.replace(/"ts":"2026-11-22T10:(\d)/g, '"ts":"2026-11-22T11:$1'),
  );
  assert.equal(await latestCatalog(path), undefined);
  await Deno.writeTextFile(path, log.split("\n").slice(0, events.length - 1).join("\n") + "\n");
  assert.equal(await latestCatalog(path), undefined);
  assert.deepEqual((await snapshotCoverage(path)).map((s) => s.valid), [false]);
});

Deno.test("a live process snapshots the catalog and its sessions in focus when it closes", async () => {
  await using dir = await tempDir();
  const { path, events } = await writeLog(dir.path, 3);
  const state: State = initialState(PROJECTIONS);
  const focus = new Set(["s1"]);
  const store = await openJsonlStore(path, {
    clock: fixedClock(),
    onEvent: (event) => evolve(state, event, PROJECTIONS, focus),
  });
  const notices: string[] = [];
  const snapshots = startSnapshots({
    logPath: path,
    store,
    state,
    focused: focus,
    projections: PROJECTIONS,
    clock: fixedClock(),
    startSeq: 0,
    every: 10,
    onNotice: (m) => notices.push(m),
  });
  await store.append([{
    type: "user.prompted",
    session: "s1",
    agent: "lead",
    data: { text: "x" },
  }]);
  await snapshots.close();
  await store.close();
  assert.deepEqual(notices, []);
  const whole = foldEvents(await Array.fromAsync(readAll(path)), PROJECTIONS);
  assert.equal((await latestCatalog(path))?.point.seq, events.length + 1);
  const s1 = await sessionSnapshot(path, "s1", PROJECTIONS);
  if (whole.sessions.byId["s1"]) {
    assert.deepEqual(json(s1?.view), json(whole.sessions.byId["s1"]));
  } else {
    assert.equal(s1, undefined);
    assert.equal(
      await Deno.stat(sessionSnapshotPath(path, "s1")).catch(() => undefined),
      undefined,
    );
  }
});

async function* readAll(path: string): AsyncGenerator<Envelope> {
  const { readLog } = await import("../../events/read_log.ts");
  yield* readLog(path);
}

Deno.test("a live process snapshots a session in focus while it runs, when its agent waits", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  const state: State = initialState(PROJECTIONS);
  const focus = new Set(["live"]);
  const store = await openJsonlStore(path, {
    clock: fixedClock(),
    onEvent: (event) => evolve(state, event, PROJECTIONS, focus),
  });
  const snapshots = startSnapshots({
    logPath: path,
    store,
    state,
    focused: focus,
    projections: PROJECTIONS,
    clock: fixedClock(),
    startSeq: 0,
    sessionEvery: 2_000,
    onNotice: (m) => assert.fail(m),
  });
  const origin = { session: "live", agent: "lead" } as const;
  const started = {
    model: "m",
    workspace: "/w",
    startedAt: "2026-11-22T10:00:00.000Z",
    maxTokens: 100,
    platform: "linux",
  };
  const requested = { model: "m", digest: "d", attempt: 1 };
  /** seq of the session's snapshot once the background write is done (0: none). */
  const snapshotSeq = async () => {
    await new Promise((resolve) => setTimeout(resolve, 50));
    return (await sessionSnapshot(path, "live", PROJECTIONS))?.point.seq ?? 0;
  };
  await store.append([{ ...origin, type: "session.started", data: started }]);
  await store.append([{ ...origin, type: "user.prompted", data: { text: "x".repeat(3_000) } }]);
  assert.equal(await snapshotSeq(), 0, "not while it is busy");
  await store.append([
    { ...origin, type: "turn.started", data: { roundsBefore: 0, maxTurns: null } },
    { ...origin, type: "model.requested", data: requested },
  ]);
  assert.equal(await snapshotSeq(), 4, "taken while the request is out");
  await store.append([{ ...origin, type: "model.requested", data: { ...requested, attempt: 2 } }]);
  assert.equal(await snapshotSeq(), 4, "not again before the log has grown enough");
  await store.append([
    // More than the last snapshot's size, which holds the first prompt.
    { ...origin, type: "user.prompted", data: { text: "y".repeat(20_000) } },
    { ...origin, type: "turn.ended", data: { reason: "completed", rounds: 0 } },
  ]);
  assert.equal(await snapshotSeq(), 7);
  const view = (await sessionSnapshot(path, "live", PROJECTIONS))?.view;
  assert.deepEqual(json(view), json(state.sessions.byId["live"]));
  await snapshots.close();
  await store.close();
});

Deno.test("stale snapshot files are pruned, the newest valid ones kept, and nothing else", async () => {
  await using dir = await tempDir();
  const { path, events } = await writeLog(dir.path, 5);
  const ids = foldEvents(events).catalog.order;
  const all = await Deno.readTextFile(path);
  const lines = all.split("\n");
  for (const cut of [10, 20]) {
    await Deno.writeTextFile(path, lines.slice(0, cut).map((l) => `${l}\n`).join(""));
    await buildSnapshot(path);
  }
  await Deno.writeTextFile(path, all);
  await buildSnapshot(path, { sessions: ids, projections: PROJECTIONS });
  const sessions = join(snapshotDir(path), "sessions");
  const [valid, other, gone, garbage] = ids.map((id) => sessionSnapshotPath(path, id));
  const edit = async (file: string, change: (header: Record<string, unknown>) => object) => {
    const [header, body] = (await Deno.readTextFile(file)).split("\n");
    await Deno.writeTextFile(file, `${JSON.stringify(change(JSON.parse(header!)))}\n${body}\n`);
  };
  await edit(other!, (header) => ({ ...header, fingerprint: "other" }));
  await edit(gone!, (header) => ({ ...header, offset: all.length + 100 }));
  await Deno.writeTextFile(garbage!, "not a snapshot\n");
  const now = new Date("2026-11-22T12:00:00.000Z");
  const oldTemp = join(sessions, "x.json.1234.tmp");
  const newTemp = join(snapshotDir(path), "catalog-000000000099.json.5678.tmp");
  for (const temp of [oldTemp, newTemp]) await Deno.writeTextFile(temp, "{");
  await Deno.utime(oldTemp, now.getTime() / 1000 - 2 * 3600, now.getTime() / 1000 - 2 * 3600);
  await Deno.utime(newTemp, now.getTime() / 1000 - 60, now.getTime() / 1000 - 60);
  await Deno.writeTextFile(join(snapshotDir(path), "notes.txt"), "mine");

  // While every catalog snapshot holds, session snapshots are checked only when asked.
  assert.deepEqual(await pruneSnapshots(path, now), [oldTemp]);
  // Of other fold code: the catalog at seq 20 (the one at 10 went when the newest was taken).
  await edit(catalogSnapshotPath(path, 20), (header) => ({ ...header, fingerprint: "other" }));
  const removed = await pruneSnapshots(path, now);
  assert.deepEqual(removed.sort(), [catalogSnapshotPath(path, 20), other!, gone!, garbage!].sort());
  assert.deepEqual(
    (await snapshotCoverage(path)).map((s) => [s.seq, s.sessions, s.valid]),
    [[events.length, ids.length, true], [events.length, 1, true]],
  );
  assert.ok(await Deno.stat(valid!));
  assert.ok(await Deno.stat(newTemp), "a write that may be under way is left");
  assert.ok(await Deno.stat(join(snapshotDir(path), "notes.txt")));
  assert.equal(await Deno.readTextFile(path), all, "the log is untouched");
  assert.deepEqual(await pruneSnapshots(join(dir.path, "missing.jsonl"), now), []);
});
