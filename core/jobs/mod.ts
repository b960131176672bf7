/**
 * Background jobs (s13): bash's `run_in_background`, the job_output and job_stop tools, the
 * process that watches each job and appends its end, the `<task-notification>` the agent gets
 * with its next request, jobs lost with a dead process, and the jobs of a session as a projection.
 *
 * @module
 */
export {
  BACKGROUND_BASH_INPUT_SCHEMA,
  type BackgroundBashInput,
  createBackgroundBashTool,
} from "./background_bash.ts";
export { JobManager, type JobManagerDeps, type JobRequest, JOBS_DIRECTORY } from "./job_manager.ts";
export {
  formatDuration,
  jobLabel,
  jobNotification,
  type JobStatus,
  jobStatus,
  jobSummary,
  outputCut,
} from "./job_notification.ts";
export {
  createJobOutputTool,
  JOB_OUTPUT_INPUT_SCHEMA,
  type JobOutputInput,
} from "./job_output_tool.ts";
export { createJobStopTool, JOB_STOP_INPUT_SCHEMA, type JobStopInput } from "./job_stop_tool.ts";
export {
  DEFAULT_JOB_OUTPUT_MAX_BYTES,
  DEFAULT_JOB_TIMEOUT_MS,
  JOB_OUTPUT_MAX_BYTES_ENV,
  JOB_TIMEOUT_ENV,
  jobSettings,
} from "./job_settings.ts";
export { jobArrivals, jobsMechanism, type JobsOptions } from "./jobs_mechanism.ts";
export { jobWake } from "./job_wake.ts";
export { jobOf, jobsOf } from "./jobs_of.ts";
export { jobsReport } from "./jobs_report.ts";
export {
  type JobEnd,
  JOBS_SOURCE,
  jobsProjection,
  type JobsSlice,
  type JobView,
  type SessionJobs,
  sessionJobs,
} from "./jobs_projection.ts";
