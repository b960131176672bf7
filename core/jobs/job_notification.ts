import { formatNumber } from "../tools/_format.ts";
import { formatBytes } from "./_format_bytes.ts";
import type { JobView } from "./jobs_projection.ts";

/** A job's state in Claude Code's words (`killed`: stopped or timed out), and `lost`. */
export type JobStatus = "running" | "completed" | "failed" | "killed" | "lost";

/** The state of `job` now. Pure. */
export function jobStatus(job: JobView): JobStatus {
  const end = job.end;
  if (end === null) return "running";
  if (end.kind === "lost") return "lost";
  if (end.ending !== "exited") return "killed";
  return end.exitCode === 0 ? "completed" : "failed";
}

/** What a job is called: its description, else its command's first line, shortened. Pure. */
export function jobLabel(job: Pick<JobView, "command" | "description">): string {
  const text = job.description?.trim() || job.command.trim().split("\n")[0] || job.command;
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/**
 * One sentence on how `job` stands: `Background command "Run the tests" completed (exit code 0)
 * in 2.1s`, `… failed with exit code 1 after 2.1s`, `… timed out after 30s and was killed`,
 * `… was lost: …`. Pure.
 */
export function jobSummary(job: JobView): string {
  const what = `Background command "${jobLabel(job)}"`;
  const end = job.end;
  if (end === null) return `${what} is running`;
  if (end.kind === "lost") {
    return `${what} was lost: it ran in a rein process that ended before it did (pid ` +
      `${end.pid}), so its outcome is unknown; it was not started again`;
  }
  const took = formatDuration(end.durationMs);
  const code = end.exitCode === null
    ? `signal ${end.signal ?? "unknown"}`
    : `exit code ${end.exitCode}`;
  switch (end.ending) {
    case "exited":
      return end.exitCode === 0
        ? `${what} completed (${code}) in ${took}`
        : `${what} failed with ${code} after ${took}`;
    case "timed_out":
      return `${what} timed out after ${formatDuration(job.timeoutMs)} and was killed`;
    case "stopped":
      return `${what} was stopped after ${took}`;
    case "session_ended":
      return `${what} was stopped after ${took}, when its session ended`;
  }
}

/**
 * The `<task-notification>` the model gets when `job` has ended, in Claude Code's shape (task id,
 * the call that started it, its output file, status, a summary), with the last lines of its
 * output. Pure.
 */
export function jobNotification(job: JobView): string {
  const lines = [
    "<task-notification>",
    `<task-id>${job.id}</task-id>`,
    `<tool-use-id>${job.callId}</tool-use-id>`,
    `<output-file>${job.logPath}</output-file>`,
    `<status>${jobStatus(job)}</status>`,
    `<summary>${escapeXml(jobSummary(job))}</summary>`,
  ];
  const end = job.end;
  const cut = end?.kind === "finished" ? outputCut(job, end.outputBytes, end.droppedBytes) : "";
  if (cut !== "") lines.push(`<output-cut>${cut}</output-cut>`);
  if (end?.kind === "finished" && end.tail !== "") {
    lines.push(`<output-tail>\n${end.tail}\n</output-tail>`);
  }
  lines.push("</task-notification>");
  if (end?.kind === "finished" && end.outputBytes > 0) {
    lines.push(
      cut === ""
        ? `Read the whole output with job_output or read_file: ${job.logPath}`
        : `Read what its log kept (the first and last part) with job_output or read_file: ` +
          job.logPath,
    );
  }
  return lines.join("\n");
}

/**
 * The sentence saying that `job`'s log did not keep all of its output, when it did not: `It
 * wrote 1.8 GiB (1,932,735,283 bytes) of output; its log keeps at most 4 MiB, its first and last
 * part: 1,928,540,979 bytes were cut between them`; "" when nothing was cut. Pure.
 */
export function outputCut(
  job: Pick<JobView, "outputMaxBytes">,
  outputBytes: number,
  droppedBytes: number | undefined,
): string {
  if (droppedBytes === undefined || droppedBytes <= 0) return "";
  const cap = job.outputMaxBytes === undefined
    ? ""
    : ` at most ${formatBytes(job.outputMaxBytes)},`;
  return `It wrote ${formatBytes(outputBytes)} (${formatNumber(outputBytes)} bytes) of output; ` +
    `its log keeps${cap} its first and last part: ${formatNumber(droppedBytes)} bytes were cut ` +
    "between them";
}

/** `850ms`, `2.1s`, `3m 12s`, `30m`. Pure. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const seconds = Math.round(ms / 1000);
  const rest = seconds % 60;
  return `${Math.floor(seconds / 60)}m${rest === 0 ? "" : ` ${rest}s`}`;
}

function escapeXml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}
