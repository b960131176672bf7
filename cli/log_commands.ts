import { readLog } from "../events/read_log.ts";
import type { Envelope } from "../events/event_types.ts";
import { replaySession } from "../core/replay/replay_session.ts";
import { initialState } from "../core/state/state.ts";
import type { Catalog, CatalogEntry } from "../core/state/catalog.ts";
import { foldCatalog } from "../core/snapshots/mod.ts";
import { reinCatalogProjections } from "../core/harness.ts";
import { createBaseTools } from "../core/tools/base_tools.ts";
import { formatCost, totalCost } from "../core/models/cost.ts";
import type { CommandIo } from "./io.ts";
import { useColor } from "./io.ts";
import { Renderer, type Sink } from "./render/render.ts";
import { HeldOutput } from "./held_output.ts";
import { createStyles } from "./render/style.ts";
import { foldError, foldLogged } from "./fold.ts";
import { replayIndex } from "./replay_index.ts";
import { type IndexedSession, sessionByPrefix, startedSessions } from "./session_index.ts";
import { ReplayReads } from "./replay_reads.ts";
import { forgedSnapshots } from "./replay_snapshots.ts";
import { LogCorruptionError } from "../events/errors.ts";

/**
 * `rein sessions`: the sessions of a log with start time, first prompt, turns and status, from
 * its catalog (the newest catalog snapshot that holds, and the events after it).
 */
export async function sessionsCommand(path: string, json: boolean, io: CommandIo): Promise<number> {
  if (!(await exists(path))) {
    io.stdout.write(json ? "[]\n" : `No sessions yet (no log at ${path})\n`);
    return 0;
  }
  const { catalog } = await foldCatalog(path, { onNotice: (m) => io.stderr.write(`${m}\n`) });
  const rows = catalog.order.map((id) => catalog.byId[id])
    .filter((s): s is CatalogEntry => !!s);
  if (json) {
    io.stdout.write(`${JSON.stringify(rows.map(sessionSummary), null, 2)}\n`);
    return 0;
  }
  if (rows.length === 0) {
    io.stdout.write(`No sessions in ${path}\n`);
    return 0;
  }
  io.stdout.write(
    `${pad("SESSION", 36)}  ${pad("STARTED", 19)}  ${pad("TURNS", 5)}  ${pad("COST", 7)}  ${
      pad("STATUS", 11)
    }  FIRST PROMPT\n`,
  );
  for (const view of rows) {
    const s = sessionSummary(view);
    const prompt = (s.firstPrompt ?? "").replace(/\s+/g, " ");
    io.stdout.write(
      `${pad(s.id, 36)}  ${pad(s.startedAt.slice(0, 19).replace("T", " "), 19)}  ${
        pad(String(s.turns), 5)
      }  ${pad(formatCost(s.costUsd), 7)}  ${pad(s.status, 11)}  ${
        prompt.length > 60 ? `${prompt.slice(0, 59)}…` : prompt
      }\n`,
    );
  }
  return 0;
}

/**
 * `rein replay <log> [--session ID] [--verify]`: re-drive each session with model and tools
 * served from the log (no network, no tool runs), render it, and with --verify exit 1 naming
 * the first divergent seq. Where the sessions are comes from the log's catalog (its snapshot and
 * the events after it); then each session is replayed as its part of the log is read, holding
 * only what its agents have still to reproduce. A damaged line or payload is reported before any
 * output of the sessions it could belong to, as when the log was read in full first.
 */
export async function replayCommand(
  path: string,
  options: { session?: string | undefined; verify: boolean; quiet: boolean },
  io: CommandIo,
): Promise<number> {
  await assertLogExists(path);
  const { index, unread, places } = await replayIndex(path, (m) => io.stderr.write(`${m}\n`));
  let sessions = index.sessions;
  if (options.session !== undefined) {
    const id = sessionByPrefix(startedSessions(index).map((s) => s.id), options.session);
    sessions = sessions.filter((s) => s.id === id);
  }
  const styles = createStyles(useColor(io.stdoutIsTerminal));
  // Output waits until the reads have decoded every line the catalog snapshot counted unread.
  const early = unread > 0 ? new HeldOutput() : undefined;
  let stdout: Sink = early ?? io.stdout;
  const out: Sink = { write: (text) => stdout.write(text) };
  const reads = new ReplayReads(path, index.lastSeq, places);
  let diverged = false;
  if (options.verify) {
    for (const line of await forgedSnapshots(path)) {
      diverged = true;
      io.stderr.write(`${line}\n`);
    }
  }
  try {
    for (const session of sessions) {
      if (session.startedSeq !== session.firstSeq) {
        // Not replayed, so not verified either: --verify fails.
        diverged = true;
        io.stderr.write(`Skipping session ${session.id}: its first event is not session.started\n`);
        continue;
      }
      // Held (as bytes) until its events are known to be whole.
      const held = new HeldOutput();
      if (!await replayOne(session, reads, path, options.quiet, held, styles)) diverged = true;
      if (early !== undefined && stdout === early && reads.decoded >= unread) {
        stdout = io.stdout;
        early.ready(io.stdout).emit();
      }
      held.ready(out).emit();
    }
  } finally {
    reads.close();
  }
  if (early !== undefined && stdout === early) early.ready(io.stdout).emit();
  return diverged && options.verify ? 1 : 0;
}

/**
 * What the session's process found in the workspace when it started (the tasks and cron jobs of
 * the sessions before it): the catalog of the log at `path` just before its first event, from
 * the newest catalog snapshot there and the events after it. Nothing for the log's first
 * session; where a line before the session is damaged, what is wrong with it (the replay goes on
 * without: a session that depended on it diverges, none passes that should not).
 */
async function workspaceBefore(
  path: string,
  session: IndexedSession,
): Promise<{ catalog: Catalog; seq: number } | { damaged: string } | Record<never, never>> {
  const seq = session.firstSeq - 1;
  if (seq <= 0) return {};
  try {
    const { catalog } = await foldCatalog(path, {
      at: seq,
      catalogProjections: reinCatalogProjections(),
    });
    return { catalog, seq };
  } catch (error) {
    if (!(error instanceof LogCorruptionError)) throw error;
    return { damaged: error.message.split("\n")[0] ?? "" };
  }
}

/**
 * Replay and render one session of the log at `path`, read with `reads`; whether it matched the
 * log. Throws a `LogCorruptionError` for a damaged line or an event whose payload is damaged.
 */
async function replayOne(
  session: IndexedSession,
  reads: ReplayReads,
  path: string,
  quiet: boolean,
  out: Sink,
  styles: ReturnType<typeof createStyles>,
): Promise<boolean> {
  const { id } = session;
  const start = await workspaceBefore(path, session);
  await reads.seek(session);
  const events = reads.events(session);
  const first = events.next();
  if (first.done || first.value.type !== "session.started") {
    throw new Error(`The log changed while it was read: session ${id} has no session.started`);
  }
  const tools = createBaseTools({ workspace: first.value.data.workspace });
  const renderer = new Renderer(out, styles, (name) => tools.find((t) => t.name === name));
  if (!quiet) renderer.line(styles.dim(`── session ${id} (${session.events} events)`));
  if (!quiet && "damaged" in start) {
    renderer.line(styles.dim(
      `   (the log before the session cannot be read, so it replays on an empty workspace: ` +
        `${start.damaged})`,
    ));
  }
  const result = await replaySession(prepend(first.value, events), {
    ...("catalog" in start ? { start } : {}),
    ...(quiet ? {} : {
      onEvent: (event: Envelope) => renderer.event(event),
      onText: (text: string) => renderer.text(text),
    }),
  }).catch(async (error) => {
    if (!(error instanceof LogCorruptionError)) await assertFolds(session, reads, path);
    throw error;
  });
  // Every event of the session was folded, in the replay or after it stopped.
  if (result.damaged) throw foldError(path, result.damaged.error, result.damaged.event);
  const d = result.divergence;
  if (!quiet) renderer.gap();
  if (!d) {
    renderer.line(
      styles.green(`✓ session ${id}: ${result.matched} events replayed, all match the log`),
    );
    return true;
  }
  const where = d.seq === null ? "after the end of the log" : `at seq ${d.seq}`;
  renderer.line(styles.red(`✗ session ${id} diverges ${where}: ${d.reason}`));
  if (d.recorded !== null) renderer.line(`  recorded: ${JSON.stringify(d.recorded)}`);
  if (d.replayed !== null) renderer.line(`  replayed: ${JSON.stringify(d.replayed)}`);
  return false;
}

/** `first`, then what `rest` has left (a plain iterator: replay pulls every event through it). */
function prepend<T>(first: T, rest: Iterator<T>): IterableIterator<T> {
  let started = false;
  return {
    [Symbol.iterator]() {
      return this;
    },
    next(): IteratorResult<T> {
      if (started) return rest.next();
      started = true;
      return { value: first, done: false };
    },
    return(): IteratorResult<T> {
      started = true;
      rest.return?.();
      return { value: undefined, done: true };
    },
  };
}

/**
 * Throws a `LogCorruptionError` naming the first event of `session` in the log at `path` whose
 * payload does not fold.
 */
async function assertFolds(
  session: IndexedSession,
  reads: ReplayReads,
  path: string,
): Promise<void> {
  const state = initialState();
  const start = reads.placeBefore(session.firstSeq);
  const read = readLog(path, {
    sessions: [session.id],
    upTo: session.lastSeq,
    ...(start.seq > 0 ? { start } : {}),
    onProgress: (place) => reads.note(place),
  });
  for await (const event of read) foldLogged(state, event, path);
}

function sessionSummary(entry: CatalogEntry) {
  return {
    id: entry.id,
    startedAt: entry.startedAt,
    firstPrompt: entry.firstPrompt,
    turns: entry.rounds,
    status: entry.status,
    model: entry.model,
    costUsd: totalCost(entry.usageByModel),
  };
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + " ".repeat(width - text.length);
}

/** Throws, naming the path and what to do, when there is no log there. */
export async function assertLogExists(path: string): Promise<void> {
  if (!(await exists(path))) {
    throw new Error(
      `No log at "${path}": run rein in this workspace first, or pass a log's path or --workspace`,
    );
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/**
 * `rein log export [--store URL]`: the log as JSONL on stdout, byte for byte as a JSONL log
 * holds it: the PostgreSQL log at `store` (each line checked as it is read), else the JSONL file
 * at `path` as it is.
 */
export async function logExportCommand(
  path: string,
  store: string | undefined,
  io: CommandIo,
): Promise<number> {
  if (store === undefined) {
    await assertLogExists(path);
    using file = await Deno.open(path, { read: true });
    const decoder = new TextDecoder();
    for await (const chunk of file.readable) {
      io.stdout.write(decoder.decode(chunk, { stream: true }));
    }
    return 0;
  }
  const { exportLines } = await import("../events/postgres/log_transfer.ts");
  let chunk = "";
  for await (const line of exportLines(store)) {
    chunk += line;
    if (chunk.length >= 1 << 20) {
      io.stdout.write(chunk);
      chunk = "";
    }
  }
  if (chunk.length > 0) io.stdout.write(chunk);
  return 0;
}

/**
 * `rein log import [FILE] --store URL`: copy the JSONL log at `path` into the PostgreSQL log at
 * `store`, which must be empty; every line checked first, then inserted unchanged in one
 * transaction. Says how many events were copied.
 */
export async function logImportCommand(
  path: string,
  store: string | undefined,
  io: CommandIo,
): Promise<number> {
  if (store === undefined) {
    throw new Error("Cannot import without a store: pass --store postgres://… or set REIN_STORE");
  }
  await assertLogExists(path);
  const { importJsonlLog } = await import("../events/postgres/log_transfer.ts");
  const { parsePostgresUrl } = await import("../events/postgres/store_url.ts");
  const count = await importJsonlLog(path, store);
  io.stderr.write(
    `Imported ${count} events from ${path} into ${parsePostgresUrl(store).display}\n`,
  );
  return 0;
}
