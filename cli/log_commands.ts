import { readLog } from "../events/read_log.ts";
import type { Envelope } from "../events/event_types.ts";
import { eventsBySession, replaySession } from "../core/replay/replay_session.ts";
import { initialState, type State } from "../core/state/state.ts";
import { mainAgentOf, type SessionView } from "../core/state/sessions.ts";
import { createBaseTools } from "../core/tools/base_tools.ts";
import { formatCost, totalCost } from "../core/models/cost.ts";
import type { CommandIo } from "./io.ts";
import { useColor } from "./io.ts";
import { Renderer } from "./render/render.ts";
import { findSession } from "./session_choice.ts";
import { createStyles } from "./render/style.ts";
import { foldLogged } from "./fold.ts";
import { callReport } from "./call_report.ts";
import { renderTodos, todosOf, todosProjection } from "../core/todos/mod.ts";

/** Mechanism projections `rein state` shows. */
const STATE_PROJECTIONS = [todosProjection];

/** Fold a log, optionally only up to `at`. Reads the file; never writes it. */
export async function foldLog(
  path: string,
  io: CommandIo,
  at?: number,
  onEvent?: (event: Envelope) => void,
): Promise<State> {
  await assertLogExists(path);
  const state = initialState(STATE_PROJECTIONS);
  const onNotice = (m: string) => io.stderr.write(`${m}\n`);
  for await (
    const event of readLog(path, at === undefined ? { onNotice } : { onNotice, upTo: at })
  ) {
    foldLogged(state, event, path, STATE_PROJECTIONS);
    onEvent?.(event);
  }
  return state;
}

/** `rein sessions`: the sessions of a log with start time, first prompt, turns and status. */
export async function sessionsCommand(path: string, json: boolean, io: CommandIo): Promise<number> {
  if (!(await exists(path))) {
    io.stdout.write(json ? "[]\n" : `No sessions yet (no log at ${path})\n`);
    return 0;
  }
  const state = await foldLog(path, io);
  const rows = state.sessions.order.map((id) => state.sessions.byId[id])
    .filter((s): s is SessionView => !!s);
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

/** `rein state <log> [--at SEQ] [--json]`: the projected state at any point. */
export async function stateCommand(
  path: string,
  options: { at?: number | undefined; json: boolean; session?: string | undefined },
  io: CommandIo,
): Promise<number> {
  const events: Envelope[] = [];
  const state = await foldLog(
    path,
    io,
    options.at,
    options.json ? undefined : (event) => events.push(event),
  );
  const only = options.session === undefined ? undefined : findSession(state, options.session);
  if (options.json) {
    const shown = only === undefined ? state : {
      ...state,
      sessions: {
        byId: { [only]: state.sessions.byId[only] },
        order: [only],
      },
    };
    io.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
    return 0;
  }
  io.stdout.write(`${path} at seq ${state.lastSeq}: ${state.sessions.order.length} session(s)\n`);
  for (const id of only === undefined ? state.sessions.order : [only]) {
    const view = state.sessions.byId[id];
    if (!view) continue;
    const lead = mainAgentOf(view);
    io.stdout.write(
      [
        "",
        `session ${view.id}${
          view.forkedFrom ? ` (fork of ${view.forkedFrom.session}@${view.forkedFrom.seq})` : ""
        }`,
        `  status     ${view.status}${view.lastError ? ` (${view.lastError})` : ""}`,
        `  model      ${view.model}`,
        `  workspace  ${view.workspace}`,
        `  started    ${view.startedAt}`,
        `  rounds     ${lead.rounds}`,
        `  messages   ${lead.messages.length}`,
        `  tokens     ${view.usage.input_tokens} in, ${view.usage.output_tokens} out, ${view.usage.cache_read_input_tokens} cache read`,
        `  pending    ${lead.pendingCalls.map((c) => `${c.name} ${c.id}`).join(", ") || "none"}`,
        `  unfinished ${lead.openIntents.map((c) => `${c.name} ${c.id}`).join(", ") || "none"}`,
        `  last seq   ${view.lastSeq}`,
      ].join("\n") + "\n",
    );
    for (const agent of Object.keys(view.agents)) {
      const todos = todosOf(state, id, agent);
      if (todos.length === 0) continue;
      const who = agent === view.mainAgent ? "" : ` (${agent})`;
      io.stdout.write(`  todos${who}\n${renderTodos(todos).map((l) => `    ${l}`).join("\n")}\n`);
    }
    const calls = callReport(events.filter((event) => event.session === id));
    if (calls.length > 0) io.stdout.write(`  calls\n${calls.join("\n")}\n`);
  }
  return 0;
}

/**
 * `rein replay <log> [--session ID] [--verify]`: re-drive each session with model and tools
 * served from the log (no network, no tool runs), render it, and with --verify exit 1 naming
 * the first divergent seq.
 */
export async function replayCommand(
  path: string,
  options: { session?: string | undefined; verify: boolean; quiet: boolean },
  io: CommandIo,
): Promise<number> {
  const events: Envelope[] = [];
  await assertLogExists(path);
  for await (const event of readLog(path, { onNotice: (m) => io.stderr.write(`${m}\n`) })) {
    events.push(event);
  }
  // Folding first reports a damaged payload with its line before anything is re-driven.
  const state = initialState();
  for (const event of events) foldLogged(state, event, path);
  let sessions = eventsBySession(events);
  if (options.session !== undefined) {
    const id = findSession(state, options.session);
    sessions = new Map([[id, sessions.get(id) ?? []]]);
  }
  const styles = createStyles(useColor(io.stdoutIsTerminal));
  let diverged = false;
  for (const [id, recorded] of sessions) {
    const first = recorded[0];
    if (first?.type !== "session.started") {
      io.stderr.write(`Skipping session ${id}: its first event is not session.started\n`);
      continue;
    }
    const tools = createBaseTools({ workspace: first.data.workspace });
    const renderer = new Renderer(io.stdout, styles, (name) => tools.find((t) => t.name === name));
    if (!options.quiet) renderer.line(styles.dim(`── session ${id} (${recorded.length} events)`));
    const result = await replaySession(recorded, {
      ...(options.quiet ? {} : {
        onEvent: (event: Envelope) => renderer.event(event),
        onText: (text: string) => renderer.text(text),
      }),
    });
    const d = result.divergence;
    if (!options.quiet) renderer.gap();
    if (!d) {
      renderer.line(
        styles.green(`✓ session ${id}: ${result.matched} events replayed, all match the log`),
      );
      continue;
    }
    diverged = true;
    const where = d.seq === null ? "after the end of the log" : `at seq ${d.seq}`;
    renderer.line(styles.red(`✗ session ${id} diverges ${where}: ${d.reason}`));
    if (d.recorded !== null) renderer.line(`  recorded: ${JSON.stringify(d.recorded)}`);
    if (d.replayed !== null) renderer.line(`  replayed: ${JSON.stringify(d.replayed)}`);
  }
  return diverged && options.verify ? 1 : 0;
}

function sessionSummary(view: SessionView) {
  return {
    id: view.id,
    startedAt: view.startedAt,
    firstPrompt: view.firstPrompt,
    turns: mainAgentOf(view).rounds,
    status: view.status,
    model: view.model,
    costUsd: totalCost(view.usageByModel),
  };
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + " ".repeat(width - text.length);
}

/** Throws, naming the path and what to do, when there is no log there. */
async function assertLogExists(path: string): Promise<void> {
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
