import { readLog } from "../events/read_log.ts";
import type { Envelope } from "../events/event_types.ts";
import { replaySession } from "../core/replay/replay_session.ts";
import { initialState } from "../core/state/state.ts";
import type { CatalogEntry } from "../core/state/catalog.ts";
import { foldCatalog } from "../core/snapshots/mod.ts";
import { createBaseTools } from "../core/tools/base_tools.ts";
import { preloadSchemas } from "../core/tools/schema.ts";
import { formatCost, totalCost } from "../core/models/cost.ts";
import type { CommandIo } from "./io.ts";
import { useColor } from "./io.ts";
import { Renderer, type Sink } from "./render/render.ts";
import { HeldOutput } from "./held_output.ts";
import { createStyles } from "./render/style.ts";
import { foldLogged } from "./fold.ts";
import { replayIndex } from "./replay_index.ts";
import { type IndexedSession, sessionByPrefix, startedSessions } from "./session_index.ts";
import { sweepSessions, type SweepSink, type SweepUnit } from "./session_sweep.ts";
import { SWEEP_BUDGET } from "./state_sweep.ts";

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

/** A session `replay` cannot replay: it reports so when its turn comes. */
function skippedSession(id: string, io: CommandIo): SweepSink {
  return {
    add() {},
    close: () => ({
      weight: 0,
      emit: () =>
        io.stderr.write(`Skipping session ${id}: its first event is not session.started\n`),
    }),
  };
}

/** A session as the sweep takes it, from `start`. Pure. */
function unitOf(session: IndexedSession, start: number): SweepUnit {
  return { id: session.id, start, end: session.lastSeq, weight: session.events };
}

/**
 * `rein replay <log> [--session ID] [--verify]`: re-drive each session with model and tools
 * served from the log (no network, no tool runs), render it, and with --verify exit 1 naming
 * the first divergent seq. Where the sessions are comes from the log's catalog (its snapshot and
 * the events after it); then the log is read to gather each session's events and replay it,
 * holding a bounded number of events at once. A damaged line or payload is reported before any
 * output of the sessions it could belong to, as when the log was read in full first.
 */
export async function replayCommand(
  path: string,
  options: { session?: string | undefined; verify: boolean; quiet: boolean },
  io: CommandIo,
): Promise<number> {
  await assertLogExists(path);
  // Tool inputs are checked again in the replay: zod loads while the log is read.
  preloadSchemas();
  const { index, unread } = await replayIndex(path, (m) => io.stderr.write(`${m}\n`));
  let sessions = index.sessions;
  if (options.session !== undefined) {
    const id = sessionByPrefix(startedSessions(index).map((s) => s.id), options.session);
    sessions = sessions.filter((s) => s.id === id);
  }
  const styles = createStyles(useColor(io.stdoutIsTerminal));
  // Output waits until the read has decoded every line the catalog snapshot counted unread.
  const early = unread > 0 ? new HeldOutput() : undefined;
  let stdout: Sink = early ?? io.stdout;
  const out: Sink = { write: (text) => stdout.write(text) };
  const release = () => {
    if (early === undefined || stdout !== early) return;
    stdout = io.stdout;
    early.ready(io.stdout).emit();
  };
  let diverged = false;
  const skipped = new Set(sessions.filter((s) => s.startedSeq !== s.firstSeq).map((s) => s.id));
  const units = sessions.map((s) => unitOf(s, s.firstSeq));
  await sweepSessions(units, {
    read: () => readLog(path, { upTo: index.lastSeq }),
    budget: SWEEP_BUDGET,
    onRead: (event) => {
      if (event.seq >= unread) release();
    },
    open: (unit) => {
      if (skipped.has(unit.id)) {
        // Not replayed, so not verified either: --verify fails.
        diverged = true;
        return skippedSession(unit.id, io);
      }
      const recorded: Envelope[] = [];
      return {
        add: (event) => recorded.push(event),
        async close() {
          // Held (as bytes) until it is the session's turn and its events are known to be whole.
          const held = new HeldOutput();
          const first = recorded[0] as Extract<Envelope, { type: "session.started" }>;
          const matched = await replayOne(
            unit.id,
            first,
            recorded,
            path,
            options.quiet,
            held,
            styles,
          );
          if (!matched) diverged = true;
          return held.ready(out);
        },
      };
    },
  });
  release();
  return diverged && options.verify ? 1 : 0;
}

/**
 * Replay and render one session of the log at `path`; whether it matched the log. Throws a
 * `LogCorruptionError` for an event whose payload is damaged.
 */
async function replayOne(
  id: string,
  first: Extract<Envelope, { type: "session.started" }>,
  recorded: readonly Envelope[],
  path: string,
  quiet: boolean,
  out: Sink,
  styles: ReturnType<typeof createStyles>,
): Promise<boolean> {
  const tools = createBaseTools({ workspace: first.data.workspace });
  const renderer = new Renderer(out, styles, (name) => tools.find((t) => t.name === name));
  if (!quiet) renderer.line(styles.dim(`── session ${id} (${recorded.length} events)`));
  const result = await replaySession(recorded, {
    ...(quiet ? {} : {
      onEvent: (event: Envelope) => renderer.event(event),
      onText: (text: string) => renderer.text(text),
    }),
  }).catch((error) => {
    assertFolds(recorded, path);
    throw error;
  });
  // The replay folded every event it reproduced as the check below would, and a payload that
  // does not fold stops it: only a replay that stopped short can have left one unreported.
  if (result.divergence || result.matched !== recorded.length) assertFolds(recorded, path);
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

/** Throws a `LogCorruptionError` naming the first of `events` whose payload does not fold. */
function assertFolds(events: readonly Envelope[], path: string): void {
  const state = initialState();
  for (const event of events) foldLogged(state, event, path);
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
