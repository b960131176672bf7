import { formatDuration, jobLabel, jobStatus } from "./job_notification.ts";
import type { JobView } from "./jobs_projection.ts";

/**
 * `/jobs`: the session's background jobs, one line each (id, status, how long it ran or has been
 * running, whether its log cut its output, what it is, its log file), newest last. `elapsedMs` gives a running job's time so far
 * (display only: nothing is decided on it). Pure.
 */
export function jobsReport(jobs: readonly JobView[], elapsedMs: (job: JobView) => number): string {
  if (jobs.length === 0) return "No background jobs in this session";
  return jobs.map((job) => {
    const end = job.end;
    const status = jobStatus(job);
    const detail = end === null
      ? `${formatDuration(elapsedMs(job))} so far`
      : end.kind === "lost"
      ? `outcome unknown, pid ${end.pid}`
      : [
        end.exitCode === null ? end.signal ?? "killed" : `exit ${end.exitCode}`,
        end.ending === "timed_out" ? "timed out" : undefined,
        end.ending === "session_ended" ? "stopped with its session" : undefined,
        (end.droppedBytes ?? 0) > 0 ? "output cut" : undefined,
        formatDuration(end.durationMs),
      ].filter(Boolean).join(", ");
    return `${job.id}  ${status.padEnd(9)} ${detail.padEnd(24)} ${jobLabel(job)}  ${job.logPath}`;
  }).join("\n");
}
