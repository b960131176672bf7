import type { CronJob, CronRead } from "../../events/event_types.ts";
import type { State } from "../state/state.ts";
import type { ToolCallContext } from "../tools/tool.ts";
import { cronProjection, type CronSlice, sessionCronIn } from "./cron_projection.ts";
import { firesIn } from "./due_firings.ts";
import { type CronTable, cronTableProjection } from "./cron_table_projection.ts";
import { catalogSliceOf } from "../state/catalog.ts";

/** rein's cron tools: each gets what it decides on from a `cron.read` taken before its intent. */
export const CRON_TOOLS: ReadonlySet<string> = new Set([
  "schedule_cron",
  "list_crons",
  "cancel_cron",
]);

/** The workspace's cron table in `state`. Throws when the state folds no cron table. */
export function cronTableOf(state: State): CronTable {
  return catalogSliceOf(state.catalog, cronTableProjection);
}

/**
 * The jobs `session` sees in the workspace's table: durable ones and its own, oldest first. Pure.
 */
export function visibleJobs(state: State, session: string): CronJob[] {
  return Object.values(cronTableOf(state).jobs)
    .filter((job) => firesIn(job, session))
    .sort((a, b) =>
      a.scheduledAt < b.scheduledAt ? -1 : a.scheduledAt > b.scheduledAt ? 1 : a.id < b.id ? -1 : 1
    );
}

/**
 * What the call read before it ran (`cron.read` for its id), or undefined when the log has none
 * (the tool was run without the cron mechanism's gate). Pure over the view.
 */
export function readingOf(context: ToolCallContext): CronRead | undefined {
  const slice = context.view().extensions[cronProjection.key] as CronSlice | undefined;
  return slice === undefined
    ? undefined
    : sessionCronIn(slice, context.session).reads[context.callId];
}

/** The error result of a cron tool that finds no reading. */
export const NO_READING = {
  content: "The cron tools cannot run here: no clock reading was recorded for this call",
  isError: true,
} as const;
