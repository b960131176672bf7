import type { z } from "zod";
import type { CronRead } from "../../events/event_types.ts";
import { lazySchema } from "../tools/schema.ts";
import type { Tool, ToolResult, Zod } from "../tools/tool.ts";
import { NO_READING, readingOf } from "./cron_read.ts";
import { describeJob } from "./describe_job.ts";
import { nextTime } from "./due_firings.ts";

const inputSchema = lazySchema((z: Zod) => z.strictObject({}));

/** Input of list_crons (Claude Code's CronList): none. */
export type ListCronsInput = z.infer<Awaited<ReturnType<typeof inputSchema>>>;

/** The JSON Schema the model sees. */
export const LIST_CRONS_INPUT_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {},
  additionalProperties: false,
};

/**
 * Creates list_crons (Claude Code's CronList): the jobs this session sees (durable ones and its
 * own) with their ids, schedules, prompts and next runs. A decider over its call's reading.
 */
export function createListCronsTool(): Tool<ListCronsInput> {
  return {
    name: "list_crons",
    description: "Lists the scheduled cron jobs (schedule_cron) that run in this session: the " +
      "workspace's durable jobs and this session's own, with their ids, schedules, prompts and " +
      "next run times.",
    schema: inputSchema,
    inputSchema: LIST_CRONS_INPUT_SCHEMA,
    kind: "decider",
    readOnly: true,
    claudeNames: ["CronList"],
    permission: "read-only",
    summarize: () => "",
    run(_input, context) {
      const read = readingOf(context);
      return Promise.resolve(read === undefined ? NO_READING : listJobs(read));
    },
  };
}

/** The jobs of `read`, one per line, or that there are none. Pure. */
export function listJobs(read: CronRead): ToolResult {
  if (read.jobs.length === 0) return { content: "No cron jobs are scheduled" };
  const now = new Date(read.now);
  const lines = read.jobs.map((job) => {
    const next = nextTime(job, now);
    const last = job.lastFired === null ? "" : `; last run for ${job.lastFired}`;
    return `- ${job.id}: ${describeJob(job)}; next run ${
      next === null ? "none" : `at ${next.toISOString()}`
    }${last}`;
  });
  const count = read.jobs.length === 1 ? "1 cron job" : `${read.jobs.length} cron jobs`;
  return { content: `${count} (now ${read.now}):\n${lines.join("\n")}` };
}
