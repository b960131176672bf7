/**
 * Cron (s14): `schedule_cron`, `list_crons` and `cancel_cron` (Claude Code's CronCreate,
 * CronList and CronDelete), the workspace's jobs as a fold of the log (`catalog.cron`), pure
 * planning of what is due at a time, and the live scheduler that fires due jobs under the log's
 * lock.
 *
 * @module
 */
export { cancelJob, createCancelCronTool } from "./cancel_cron.ts";
export { cronMechanism, type CronMechanismOptions } from "./cron_mechanism.ts";
export {
  CRON_SOURCE,
  cronProjection,
  type CronSlice,
  firingKey,
  type PendingFiring,
  type SessionCron,
  sessionCronIn,
} from "./cron_projection.ts";
export { CRON_TOOLS, visibleJobs } from "./cron_read.ts";
export { CronScheduler, type CronSchedulerOptions } from "./cron_scheduler.ts";
export { CronTicker } from "./cron_ticker.ts";
export { cronWake } from "./cron_wake.ts";
export { type CronTable, emptyCronTable, evolveCronTable } from "./cron_table_projection.ts";
export { describeJob } from "./describe_job.ts";
export {
  type DueFiring,
  dueFirings,
  firedData,
  firesIn,
  MISSED_COUNTED,
  nextTime,
} from "./due_firings.ts";
export { createListCronsTool, listJobs } from "./list_crons.ts";
export { type ParsedSchedule, parseSchedule, type Schedule } from "./schedule.ts";
export { createScheduleCronTool, MAX_CRON_JOBS, scheduleJob } from "./schedule_cron.ts";
export { scheduledText } from "./scheduled_text.ts";
