import type { z } from "zod";
import { lazySchema } from "../tools/schema.ts";
import type { Tool, ToolCallContext, ToolResult, Zod } from "../tools/tool.ts";
import { jobLabel, jobSummary } from "./job_notification.ts";
import type { JobManager } from "./job_manager.ts";
import { jobOf, unknownJob } from "./jobs_of.ts";

const JOB_ID = "The id of the background job to stop";

function inputSchema(z: Zod) {
  return z.strictObject({ job_id: z.string().min(1).describe(JOB_ID) });
}

/** Input of the job_stop tool (Claude Code's TaskStop: `task_id` there). */
export type JobStopInput = z.infer<ReturnType<typeof inputSchema>>;

/** The JSON Schema the model sees: what {@link inputSchema} gives (a test holds them together). */
export const JOB_STOP_INPUT_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: { job_id: { type: "string", description: JOB_ID, minLength: 1 } },
  required: ["job_id"],
  additionalProperties: false,
};

const description =
  "Stops a background job (a bash command run with run_in_background): kills the command and " +
  "every process it started. What it wrote stays in its log file. No notification follows for " +
  "a job you stop: this call's result says how it ended.";

/**
 * Creates the job_stop tool (Claude Code's TaskStop): kills one of the session's running
 * background jobs and waits until its end is recorded. An effect tool: replay serves its result.
 */
export function createJobStopTool(jobs: JobManager): Tool<JobStopInput> {
  return {
    name: "job_stop",
    description,
    schema: lazySchema(inputSchema),
    inputSchema: JOB_STOP_INPUT_SCHEMA,
    kind: "effect",
    readOnly: false,
    // It stops only a job the agent started.
    claudeNames: ["TaskStop", "KillShell", "KillBash"],
    claudeFields: { job_id: "task_id" },
    permission: "read-only",
    summarize: (input) => input.job_id,
    run: (input, context) => stopJob(jobs, input, context),
  };
}

async function stopJob(
  jobs: JobManager,
  input: JobStopInput,
  context: ToolCallContext,
): Promise<ToolResult> {
  const state = context.view();
  const job = jobOf(state, context.session, input.job_id);
  if (!job) return { content: unknownJob(state, context.session, input.job_id), isError: true };
  if (job.end !== null || !jobs.isRunning(job.id)) {
    return { content: `Job ${job.id} is not running: ${jobSummary(job)}`, isError: true };
  }
  const end = await jobs.stop(job.id);
  const stopped = jobOf(context.view(), context.session, job.id) ?? job;
  const lines = [
    end === undefined ? `Stopped job ${job.id} (${jobLabel(job)})` : jobSummary(stopped),
  ];
  if (end && end.tail !== "") lines.push(`Last output:\n${end.tail}`);
  return { content: lines.join("\n\n") };
}
