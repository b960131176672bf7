import { initialState, type State } from "../core/state/state.ts";
import { mainAgentOf } from "../core/state/sessions.ts";
import { foldCatalog, forkSources } from "../core/snapshots/mod.ts";
import { renderTaskTree } from "../core/tasks/render_task_tree.ts";
import { taskGraphProjection } from "../core/tasks/tasks_projection.ts";
import { describeJob } from "../core/cron/mod.ts";
import { cronTableProjection } from "../core/cron/cron_table_projection.ts";
import { type Catalog, catalogSliceOf } from "../core/state/catalog.ts";
import { reinCatalogProjections } from "../core/harness.ts";
import { worktreeCatalogProjection, worktreeLines } from "../core/worktrees/mod.ts";
import { plainText } from "../core/state/rendered_line.ts";
import type { CommandIo } from "./io.ts";
import { stripControls } from "./render/style.ts";
import { HeldOutput } from "./held_output.ts";
import { foldLogged } from "./fold.ts";
import { CallReport } from "./call_report.ts";
import { rosterProjection, teamLines } from "../core/team/mod.ts";
import { sessionByPrefix } from "./session_index.ts";
import { sweepSessions } from "./session_sweep.ts";
import { assertLogExists } from "./log_commands.ts";
import { stateJson } from "./state_json.ts";
import {
  readFrom,
  slicesSink,
  STATE_MECHANISMS,
  STATE_PROJECTIONS,
  SWEEP_BUDGET,
  unitsOf,
} from "./state_sweep.ts";

/** What `rein state` is asked for. */
export interface StateOptions {
  at?: number | undefined;
  json: boolean;
  session?: string | undefined;
}

/**
 * `rein state <log> [--at SEQ] [--json] [--session ID]`: the projected state at any point. The
 * catalog (where each session is, what it is) comes from the newest catalog snapshot at or
 * before the seq that holds, plus the events after it (the whole log when none holds); then each
 * session shown is folded in full from its start and printed, one session (or a few at once) at
 * a time: its report lists every call it made, so it needs every one of its events. With
 * `--session`, only that session's lines (and those of the sessions it was forked from) are
 * decoded, read from near its start. Reads the log and its snapshots; never writes.
 */
export async function stateCommand(
  path: string,
  options: StateOptions,
  given: CommandIo,
): Promise<number> {
  // What agents wrote (mail, tasks, commands) reaches the terminal without control sequences.
  const io: CommandIo = {
    ...given,
    stdout: { write: (text: string) => given.stdout.write(stripControls(text)) },
  };
  await assertLogExists(path);
  const fold = await foldCatalog(path, {
    at: options.at,
    onNotice: (m) => io.stderr.write(`${m}\n`),
    catalogProjections: reinCatalogProjections(),
  });
  if (options.json) return await stateJson(path, fold, options.session, io);
  const { catalog, lastSeq } = fold;
  const started = [...new Set(catalog.order)];
  const only = options.session === undefined
    ? undefined
    : sessionByPrefix(started, options.session);
  io.stdout.write(`${path} at seq ${lastSeq}: ${started.length} session(s)\n`);
  // A fork's todo lists start from its source's: the sources of the session shown are folded too.
  const folded = only === undefined ? started : forkSources(catalog, [only]);
  const slices = initialState(REPORTED).extensions;
  await sweepSessions(unitsOf(catalog.byId, folded), {
    read: (from) => readFrom(path, fold, from, only === undefined ? undefined : folded),
    budget: SWEEP_BUDGET,
    open: (unit) => {
      if (only !== undefined && unit.id !== only) return slicesSink(slices, path);
      const state = initialState();
      state.extensions = slices;
      const calls = new CallReport();
      let lastTs = "";
      return {
        add(event) {
          foldLogged(state, event, path, REPORTED);
          calls.add(event);
          lastTs = event.ts;
        },
        close: () =>
          heldText(sessionReport(state, unit.id, calls.lines(), lastTs)).ready(io.stdout),
      };
    },
  });
  // The task graph is the workspace's, not a session's: it comes once, after the sessions.
  const tasks = catalogSliceOf(catalog, taskGraphProjection);
  if (tasks.tasks.length > 0) {
    io.stdout.write(`\ntasks\n${renderTaskTree(tasks).map((l) => `  ${l}`).join("\n")}\n`);
  }
  const cron = cronReport(catalog);
  if (cron.length > 0) io.stdout.write(`\ncron\n${cron.map((l) => `  ${l}`).join("\n")}\n`);
  const team = teamLines(catalogSliceOf(catalog, rosterProjection));
  if (team.length > 0) io.stdout.write(`\nteam\n${team.map((l) => `  ${l}`).join("\n")}\n`);
  const worktrees = worktreeLines(catalogSliceOf(catalog, worktreeCatalogProjection));
  if (worktrees.length > 0) {
    io.stdout.write(`\nworktrees\n${worktrees.map((l) => `  ${l}`).join("\n")}\n`);
  }
  return 0;
}

/** The workspace's cron jobs, one line each: what and when, and the last minute it fired. */
function cronReport(catalog: Catalog): string[] {
  return Object.values(catalogSliceOf(catalog, cronTableProjection).jobs).map((job) =>
    `${job.id}  ${describeJob(job)}${job.lastFired ? `; last run for ${job.lastFired}` : ""}`
  );
}

/** The projections of the sessions `rein state` prints: every mechanism's, as `--json`. */
const REPORTED = STATE_PROJECTIONS;

/** `text` as {@link HeldOutput}; made outside a sink, so it keeps nothing of the sink alive. */
function heldText(text: string): HeldOutput {
  const held = new HeldOutput();
  held.write(text);
  return held;
}

/**
 * What `rein state` prints for session `id` of `state`: its view, then each mechanism's report of
 * it (`Mechanism.report`), then its calls; `lastTs`: the time of its last event, up to which
 * something still running is shown to have run. Pure.
 */
function sessionReport(
  state: State,
  id: string,
  calls: readonly string[],
  lastTs: string,
): string {
  const view = state.sessions.byId[id];
  if (!view) return "";
  const lead = mainAgentOf(view);
  let text = [
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
  ].join("\n") + "\n";
  for (const mechanism of STATE_MECHANISMS) {
    for (const section of mechanism.report?.(state, { session: id, at: lastTs }) ?? []) {
      const lines = section.lines.map((line) => `    ${plainText(line)}`);
      text += `  ${section.title}\n${lines.join("\n")}\n`;
    }
  }
  if (calls.length > 0) text += `  calls\n${calls.join("\n")}\n`;
  return text;
}
