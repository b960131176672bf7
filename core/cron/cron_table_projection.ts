import type { CronJob, Envelope } from "../../events/event_types.ts";
import type { CatalogProjection } from "../state/projection.ts";

/**
 * The workspace's cron jobs: every job scheduled in any session of the log and not cancelled,
 * fired for the last time or ended with its session. It lives in the catalog (which every process
 * folds from every event, and which catalog snapshots keep), so a durable job scheduled in one
 * session is known to every later process, and a process deciding whether a job is due decides
 * on every other process's firings.
 */
export interface CronTable {
  /** Jobs by id. */
  jobs: Record<string, CronJob>;
}

/** No jobs. */
export function emptyCronTable(): CronTable {
  return { jobs: {} };
}

/**
 * Fold one event into the table. A job is added by `cron.scheduled` (the first of an id wins),
 * removed by `cron.cancelled`, by its firing when it is not recurring, and, when it is not
 * durable, by the end of its session (`session.ended`). A `cron.fired` moves the job's
 * `lastFired` forward; one for a minute the job has fired at already (or before) changes nothing:
 * the first firing of a job's minute in log order wins, so a duplicate could never fire twice.
 * Events of other types cost one comparison. Mutates and returns `table`; pure otherwise, never
 * throws on a well-formed log.
 */
export function evolveCronTable(table: CronTable, event: Envelope): CronTable {
  switch (event.type) {
    case "cron.scheduled":
      if (table.jobs[event.data.id] === undefined) {
        table.jobs[event.data.id] = {
          ...event.data,
          session: event.session,
          agent: event.agent,
          lastFired: null,
        };
      }
      return table;
    case "cron.cancelled":
      delete table.jobs[event.data.id];
      return table;
    case "cron.fired": {
      const job = table.jobs[event.data.id];
      if (job === undefined || (job.lastFired !== null && event.data.minute <= job.lastFired)) {
        return table;
      }
      if (job.recurring) job.lastFired = event.data.minute;
      else delete table.jobs[event.data.id];
      return table;
    }
    case "session.ended":
      for (const [id, job] of Object.entries(table.jobs)) {
        if (!job.durable && job.session === event.session) delete table.jobs[id];
      }
      return table;
    default:
      return table;
  }
}

/**
 * The cron table as the cron mechanism's workspace-wide slice (`state.catalog.cron`):
 * folded from every event of the log and kept in catalog snapshots.
 */
export const cronTableProjection: CatalogProjection<CronTable> = {
  key: "cron",
  canHandle: ["cron.scheduled", "cron.cancelled", "cron.fired", "session.ended"],
  initial: emptyCronTable,
  evolve: evolveCronTable,
};
