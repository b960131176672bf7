import type { z } from "zod";
import type { CronRead } from "../../events/event_types.ts";
import { lazySchema } from "../tools/schema.ts";
import type { Tool, ToolResult, Zod } from "../tools/tool.ts";
import { NO_READING, readingOf } from "./cron_read.ts";
import { describeJob } from "./describe_job.ts";

const inputSchema = lazySchema((z: Zod) =>
  z.strictObject({
    id: z.string().min(1).describe("The job id schedule_cron returned (list_crons shows them)"),
  })
);

/** Input of cancel_cron (Claude Code's CronDelete). */
export type CancelCronInput = z.infer<Awaited<ReturnType<typeof inputSchema>>>;

/** The JSON Schema the model sees. */
export const CANCEL_CRON_INPUT_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    id: {
      type: "string",
      description: "The job id schedule_cron returned (list_crons shows them)",
      minLength: 1,
    },
  },
  required: ["id"],
  additionalProperties: false,
};

/**
 * Creates cancel_cron (Claude Code's CronDelete): records `cron.cancelled` for a job this session
 * sees. A decider over its call's reading.
 */
export function createCancelCronTool(): Tool<CancelCronInput> {
  return {
    name: "cancel_cron",
    description: "Cancels a scheduled cron job (schedule_cron) by its id: it will not run again.",
    schema: inputSchema,
    inputSchema: CANCEL_CRON_INPUT_SCHEMA,
    kind: "decider",
    readOnly: false,
    claudeNames: ["CronDelete"],
    permission: "read-only",
    summarize: (input) => input.id,
    run(input, context) {
      const read = readingOf(context);
      return Promise.resolve(read === undefined ? NO_READING : cancelJob(input.id, read));
    },
  };
}

/** The outcome of cancelling job `id` on `read`: the event, or an error naming the jobs. Pure. */
export function cancelJob(id: string, read: CronRead): ToolResult {
  const job = read.jobs.find((candidate) => candidate.id === id.trim());
  if (job === undefined) {
    const ids = read.jobs.map((candidate) => candidate.id);
    return {
      content: `No cron job "${id}"` +
        (ids.length === 0 ? ": none are scheduled" : `. Scheduled jobs: ${ids.join(", ")}`),
      isError: true,
    };
  }
  return {
    content: `Cancelled job ${job.id}: ${describeJob(job)}`,
    events: [{ type: "cron.cancelled", data: { id: job.id } }],
  };
}
