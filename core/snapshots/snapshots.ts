import type { EventListener } from "../../events/store.ts";
import type { Projection } from "../state/projection.ts";
import type { Focus, State } from "../state/state.ts";
import { type LogIndex, writeCatalogSnapshot } from "./catalog_snapshot.ts";
import { writeSessionSnapshot } from "./session_snapshot.ts";

/** What a live process takes snapshots of, and how often. */
export interface SnapshotsOptions {
  logPath: string;
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
 * Take catalog snapshots of a live harness's log in the background: soon after a start that
 * folded many events, then every `every` events, each written off the turn's path (a timer,
 * then async I/O, the catalog serialized in one go) to a temporary file renamed into place; and
 * at close, the catalog and the full state of each session in focus. A failure is reported once
 * through `onNotice` and never stops the process. A snapshot is only taken when the state and
 * the store's last line agree (same seq).
 */
export function startSnapshots(options: SnapshotsOptions): Snapshots {
  const every = options.every ?? EVERY;
  const { state, store } = options;
  let taken = options.startSeq;
  const index: LogIndex = options.index ?? [];
  const indexAt = (at: { seq: number; offset: number }) => extendIndex(index, at);
  indexAt(store.position);
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
      options.logPath,
      { catalog: state.catalog, ...at, index },
      options.clock(),
    );
    if (written) store.snapshotTaken?.(at);
    else taken = before;
  };
  const schedule = () => {
    if (timer !== undefined || closed || failed) return;
    timer = setTimeout(() => {
      timer = undefined;
      writing = writing.then(takeCatalog).catch(fail);
    }, 0);
  };
  const stop = store.subscribe(() => {
    indexAt(store.position);
    if (state.lastSeq - taken >= every) schedule();
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
        const at = store.position;
        if (options.focused === "all" || at.seq !== state.lastSeq) return;
        for (const id of options.focused) {
          await writeSessionSnapshot(
            options.logPath,
            state,
            id,
            options.projections,
            at,
            options.clock(),
          );
        }
      } catch (error) {
        fail(error);
      }
    },
  };
}
