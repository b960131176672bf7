import type { CronScheduled } from "../../events/event_types.ts";

/**
 * A job in one line for the model and the person: its schedule and time zone, whether it recurs
 * and whether it is kept for the workspace, and its prompt (shortened). Pure.
 */
export function describeJob(job: CronScheduled): string {
  const prompt = job.prompt.length > 80 ? `${job.prompt.slice(0, 79)}…` : job.prompt;
  const when = job.recurring ? "recurring" : "once";
  const kept = job.durable ? "durable (kept for the workspace)" : "for this session";
  return `"${job.cron}" (${job.timeZone}), ${when}, ${kept}: ${JSON.stringify(prompt)}`;
}
