import type { Envelope, EnvelopeOf } from "../../events/event_types.ts";
import type { ReportContext } from "../mechanism.ts";
import { type RenderedLine, renderedLine, type ReportSection } from "../state/rendered_line.ts";
import type { State } from "../state/state.ts";
import { formatDuration } from "./job_notification.ts";
import { jobsOf } from "./jobs_of.ts";
import { jobsReport } from "./jobs_report.ts";

/**
 * A background job's end as the REPL shows it: `⏺ Job b1 ended: exit code 0 · 2.1s` (dim when it
 * succeeded), or lost with its pid and log. The job's command is in its call's line above (or in
 * `/jobs`). Undefined for another mechanism's event; nothing for a job's start. Pure.
 */
export function renderJobEvent(event: Envelope): readonly RenderedLine[] | undefined {
  switch (event.type) {
    case "job.started":
      return [];
    case "job.finished":
    case "job.lost":
      return [jobLine(event)];
    default:
      return undefined;
  }
}

/**
 * A session's background jobs as `rein state` prints them (see `jobsReport`): a job still running
 * is shown to have run up to the session's last event. None when the session started none. Pure.
 */
export function reportJobs(state: State, context: ReportContext): ReportSection[] {
  const jobs = jobsOf(state, context.session);
  if (jobs.length === 0) return [];
  const report = jobsReport(jobs, (job) => Date.parse(context.at) - Date.parse(job.startedAt));
  return [{ title: "jobs", lines: report.split("\n").map((line) => renderedLine(line)) }];
}

function jobLine(event: EnvelopeOf<"job.finished" | "job.lost">): RenderedLine {
  if (event.type === "job.lost") {
    const { id, pid, logPath } = event.data;
    return renderedLine(
      `⏺ Job ${id} lost: outcome unknown (its rein process ended; pid ${pid}, ` +
        `log ${logPath})`,
      "yellow",
    );
  }
  const { id, ending, exitCode, signal, durationMs } = event.data;
  const code = exitCode === null ? `killed by ${signal ?? "a signal"}` : `exit code ${exitCode}`;
  const how = {
    exited: code,
    timed_out: `timed out, ${code}`,
    stopped: "stopped",
    session_ended: "stopped with the session",
  }[ending];
  const line = `⏺ Job ${id} ended: ${how} · ${formatDuration(durationMs)}`;
  return renderedLine(line, ending === "exited" && exitCode === 0 ? "dim" : "yellow");
}
