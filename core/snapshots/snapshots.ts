import type { EventListener } from "../../events/store.ts";
import type { Projection } from "../state/projection.ts";
import type { Focus, State } from "../state/state.ts";
import { type LogIndex, pruneCatalogs, writeCatalogSnapshot } from "./catalog_snapshot.ts";
import { writeSessionSnapshot } from "./session_snapshot.ts";
import { pruneSnapshots } from "./prune_snapshots.ts";
import type { SnapshotPlace } from "./snapshot_place.ts";

/** What a live process takes snapshots of, and how often. */
export interface SnapshotsOptions {
  /** The log, as named in notices; its snapshot files are beside it unless `place` is given. */
  logPath: string;
  /**
   * Where the snapshots go instead of files beside `logPath` (a database's snapshot table);
   * pruned of catalogs only (a session's snapshot replaces its last one).
   */
  place?: SnapshotPlace;
  /**
   * The store: where its last line ends, its events as they are folded, and (optionally) what
   * to tell it once a snapshot holds the state up to a place.
   */
  store: {
    readonly position: { seq: number; offset: number };
    subscribe(listener: EventListener): () => void;
    snapshotTaken?(at: { seq: number; offset: number }): void;
  };
  /** The harness's state, kept current by the store's listener, and the sessions it follows. */
  state: State;
  focused: Focus;
  projections: readonly Projection[];
  clock: () => Date;
  /** seq of the snapshot the state started from; 0 when it was folded from the start. */
  startSeq: number;
  /**
   * Places to start reading from (the snapshot's, and those of the reads since): this adds to
   * it as the store goes on.
   */
  index?: LogIndex;
  /** Events between catalog snapshots (default 20,000). */
  every?: number;
  /**
   * Bytes of log written between snapshots of a session in focus (default 8 MiB), and at least
   * the size of its last snapshot, so that serializing a session costs at most about what the
   * log grows by.
   */
  sessionEvery?: number;
  /** Told, once, when a snapshot cannot be written. */
  onNotice: (message: string) => void;
}

/** Snapshots taken in the background by a live process; {@link Snapshots.close} takes the last. */
export interface Snapshots {
  /** Places to start reading the log from, as far as this process has read or written it. */
  index(): LogIndex;
  /**
   * Wait for a snapshot being written, then snapshot the catalog (when events came since the
   * last one) and every session in focus. Never throws.
   */
  close(): Promise<void>;
}

const EVERY = 20_000;
const SESSION_EVERY = 8 << 20;
/** Bytes between places of the index. */
const INDEX_STEP = 1 << 20;
/** A start that folded this many events past its snapshot (or with none) takes one soon. */
const AT_START = 1_000;

/**
 * Add `at` (the end of a line) to `index` when it lies at least 1 MiB past its last place.
 * Mutates `index`.
 */
export function extendIndex(index: LogIndex, at: { seq: number; offset: number }): void {
  const last = index.at(-1);
  if (at.seq > 0 && at.offset - (last?.[1] ?? 0) >= INDEX_STEP) index.push([at.seq, at.offset]);
}

/**
 * Take snapshots of a live harness's log in the background: of the catalog soon after a start
 * that folded many events, then every `every` events; of each session in focus (a `Set`) once the
 * log has grown by `sessionEvery` bytes since its last one, at the next moment its agents wait
 * (a model request sent, a turn ended), so a long session resumes from near its end even after a
 * crash. Each is serialized in a timer (not in the listener, so not in the turn's path) and
 * written by async I/O to a temporary file renamed into place with its checksum (a crash
 * mid-write leaves the last one, or a temporary file no one reads). At close, the catalog and
 * every session in focus. After each catalog snapshot, the snapshot files that will never be
 * trusted again are removed (`pruneSnapshots`). A failure is reported once through `onNotice` and
 * stops the snapshots, never the process. A snapshot is only taken when the state and the store's
 * last line agree (same seq).
 */
export function startSnapshots(options: SnapshotsOptions): Snapshots {
  const every = options.every ?? EVERY;
  const sessionEvery = options.sessionEvery ?? SESSION_EVERY;
  const { state, store, focused } = options;
  let taken = options.startSeq;
  const index: LogIndex = options.index ?? [];
  const indexAt = (at: { seq: number; offset: number }) => extendIndex(index, at);
  indexAt(store.position);
  /** Per session in focus: where the log ended at its last snapshot, and the snapshot's size. */
  const sessionsTaken = new Map<string, { offset: number; size: number }>();
  /** Sessions due for a snapshot at the next timer. */
  const due = new Set<string>();
  let writing: Promise<void> = Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failed = false;
  let closed = false;
  const fail = (error: unknown) => {
    if (failed) return;
    failed = true;
    const detail = error instanceof Error ? error.message : String(error);
    options.onNotice(
      `Cannot write a snapshot of "${options.logPath}" (continuing without): ${detail}`,
    );
  };
  const takeCatalog = async () => {
    const at = store.position;
    if (at.seq !== state.lastSeq || at.seq <= taken) return;
    // Counted as taken from now on, so events folded while it is written do not ask again.
    const before = taken;
    taken = at.seq;
    const written = await writeCatalogSnapshot(
      options.place ?? options.logPath,
      { catalog: state.catalog, ...at, index },
      options.clock(),
    );
    if (!written) {
      taken = before;
      return;
    }
    store.snapshotTaken?.(at);
    if (options.place) await pruneCatalogs(options.place);
    else await pruneSnapshots(options.logPath, options.clock());
  };
  const takeSession = async (id: string) => {
    const at = store.position;
    if (at.seq !== state.lastSeq) return;
    const before = sessionsTaken.get(id);
    sessionsTaken.set(id, { offset: at.offset, size: before?.size ?? 0 });
    const size = await writeSessionSnapshot(
      options.place ?? options.logPath,
      state,
      id,
      options.projections,
      at,
      options.clock(),
    );
    if (size > 0) sessionsTaken.set(id, { offset: at.offset, size });
    else if (before) sessionsTaken.set(id, before);
    else sessionsTaken.delete(id);
  };
  const takeDue = async () => {
    if (state.lastSeq - taken >= every) await takeCatalog();
    const ids = [...due];
    due.clear();
    for (const id of ids) await takeSession(id);
  };
  const schedule = () => {
    if (timer !== undefined || closed || failed) return;
    timer = setTimeout(() => {
      timer = undefined;
      writing = writing.then(takeDue).catch(fail);
    }, 0);
  };
  const stop = store.subscribe((event) => {
    const at = store.position;
    indexAt(at);
    if (state.lastSeq - taken >= every) schedule();
    if (focused === "all" || !focused.has(event.session)) return;
    let last = sessionsTaken.get(event.session);
    if (last === undefined) {
      // Followed from here on: from its snapshot, or folded from the log, as of about now.
      last = { offset: at.offset, size: 0 };
      sessionsTaken.set(event.session, last);
    }
    const waiting = event.type === "model.requested" || event.type === "turn.ended";
    if (waiting && at.offset - last.offset >= Math.max(sessionEvery, last.size)) {
      due.add(event.session);
      schedule();
    }
  });
  // Taken at once (the catalog is serialized now, written in the background): a short run's
  // later state is past the log's end as it was, which is where the next start will begin.
  if (store.position.seq - taken >= Math.min(every, AT_START)) {
    writing = takeCatalog().catch(fail);
  }
  return {
    index: () => index,
    async close() {
      if (closed) return;
      closed = true;
      stop();
      if (timer !== undefined) clearTimeout(timer);
      await writing;
      if (failed) return;
      try {
        await takeCatalog();
        if (focused !== "all" && store.position.seq === state.lastSeq) {
          for (const id of focused) await takeSession(id);
        }
      } catch (error) {
        fail(error);
      }
    },
  };
}
