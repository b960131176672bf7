import type { z } from "zod";
import type { CronRead, CronScheduled } from "../../events/event_types.ts";
import { lazySchema } from "../tools/schema.ts";
import type { Tool, ToolResult, Zod } from "../tools/tool.ts";
import { NO_READING, readingOf } from "./cron_read.ts";
import { describeJob } from "./describe_job.ts";
import { parseSchedule } from "./schedule.ts";

/** Jobs a session may see at once (durable ones and its own), as Claude Code allows. */
export const MAX_CRON_JOBS = 50;

const inputSchema = lazySchema((z: Zod) =>
  z.strictObject({
    cron: z.string().min(1).describe(
      'When to run: a standard 5-field cron expression in local time, "M H DoM Mon DoW" ' +
        '("*/5 * * * *" = every 5 minutes, "0 9 * * 1-5" = weekdays at 9:00, "30 14 28 2 *" = ' +
        'Feb 28 at 14:30), or an ISO 8601 local time for one run ("2026-11-23T14:30")',
    ),
    prompt: z.string().min(1).describe("The prompt to run at each of those times"),
    recurring: z.boolean().optional().describe(
      "true (default): run at every time of the schedule until cancelled. false: run once, at " +
        'the next time, then forget the job: for "remind me at X" with the minute and hour pinned',
    ),
    durable: z.boolean().optional().describe(
      "true: keep the job for the workspace: it survives this session and rein restarts, and " +
        "runs in whichever rein session is open here (or `rein daemon`). false (default): the " +
        "job ends with this session",
    ),
  })
);

/** Input of schedule_cron (Claude Code's CronCreate). */
export type ScheduleCronInput = z.infer<Awaited<ReturnType<typeof inputSchema>>>;

/** The JSON Schema the model sees: what {@link inputSchema} gives (a test holds them together). */
export const SCHEDULE_CRON_INPUT_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    cron: {
      type: "string",
      description: 'When to run: a standard 5-field cron expression in local time, "M H DoM ' +
        'Mon DoW" ("*/5 * * * *" = every 5 minutes, "0 9 * * 1-5" = weekdays at 9:00, "30 14 ' +
        '28 2 *" = Feb 28 at 14:30), or an ISO 8601 local time for one run ("2026-11-23T14:30")',
      minLength: 1,
    },
    prompt: {
      type: "string",
      description: "The prompt to run at each of those times",
      minLength: 1,
    },
    recurring: {
      type: "boolean",
      description: "true (default): run at every time of the schedule until cancelled. false: " +
        'run once, at the next time, then forget the job: for "remind me at X" with the minute ' +
        "and hour pinned",
    },
    durable: {
      type: "boolean",
      description: "true: keep the job for the workspace: it survives this session and rein " +
        "restarts, and runs in whichever rein session is open here (or `rein daemon`). false " +
        "(default): the job ends with this session",
    },
  },
  required: ["cron", "prompt"],
  additionalProperties: false,
};

const description =
  `Schedules a prompt to run later, once or on a cron schedule (Claude Code's CronCreate). When its time comes and rein is idle, the prompt runs as a new turn, shown as "[Scheduled] <prompt>"; when rein is busy, it reaches you with your next request.

Times are whole minutes in local time. Nothing runs while rein is not running: a job whose times were missed runs once, marked late, when rein is next running in this workspace.

Use it for reminders ("remind me at 14:30 to check the deploy": recurring false, minute and hour pinned) and for recurring checks ("every morning at 9, look at the open PRs"). Returns the job id, which cancel_cron takes; list_crons shows the jobs.`;

/**
 * Creates schedule_cron (Claude Code's CronCreate): records `cron.scheduled` for a valid schedule
 * whose next time is still to come. A decider: it decides on its input and the reading its call
 * recorded (`cron.read`: the clock, the time zone, the jobs already there), so replay runs it
 * again and `--verify` checks it. An invalid expression gets an error result with croner's
 * reason.
 */
export function createScheduleCronTool(): Tool<ScheduleCronInput> {
  return {
    name: "schedule_cron",
    description,
    schema: inputSchema,
    inputSchema: SCHEDULE_CRON_INPUT_SCHEMA,
    kind: "decider",
    readOnly: false,
    claudeNames: ["CronCreate"],
    // It only changes the schedule: what a job's prompt does passes the gate when it runs.
    permission: "read-only",
    summarize: (input) => `${input.cron}: ${input.prompt}`,
    async run(input, context) {
      const read = readingOf(context);
      if (read === undefined) return NO_READING;
      return await scheduleJob(input, read, `${context.session}\n${context.callId}`);
    },
  };
}

/**
 * The outcome of scheduling `input` on `read`: the event and a message, or an error. `seed`
 * makes the job's id (the session and the call). Pure but for hashing.
 */
export async function scheduleJob(
  input: ScheduleCronInput,
  read: CronRead,
  seed: string,
): Promise<ToolResult> {
  const parsed = parseSchedule(input.cron, read.timeZone);
  if (!parsed.ok) return { content: `Not scheduled: ${parsed.reason}`, isError: true };
  const now = new Date(read.now);
  const next = parsed.schedule.next(now);
  if (next === null) {
    return {
      content: `Not scheduled: "${input.cron}" has no time after now (${read.now})` +
        (parsed.once ? ": give a time in the future" : ""),
      isError: true,
    };
  }
  if (read.jobs.length >= MAX_CRON_JOBS) {
    return {
      content: `Not scheduled: ${read.jobs.length} jobs are scheduled already, the most ` +
        `allowed (${MAX_CRON_JOBS}). Cancel some with cancel_cron first`,
      isError: true,
    };
  }
  const taken = new Set(read.jobs.map((job) => job.id));
  let id = await shortHash(seed);
  for (let n = 1; taken.has(id); n++) id = await shortHash(`${seed}\n${n}`);
  const job: CronScheduled = {
    id,
    cron: input.cron.trim(),
    prompt: input.prompt,
    recurring: parsed.once ? false : input.recurring ?? true,
    durable: input.durable ?? false,
    timeZone: read.timeZone,
    scheduledAt: read.now,
  };
  return {
    content: `Scheduled job ${id}: ${describeJob(job)}; next run at ${next.toISOString()}. ` +
      "Cancel it with cancel_cron",
    events: [{ type: "cron.scheduled", data: job }],
  };
}

/** Eight hex digits of the SHA-256 of `text`. */
async function shortHash(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest).slice(0, 4), (b) => b.toString(16).padStart(2, "0"))
    .join("");
}
