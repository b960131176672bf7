import { join } from "../../events/posix_path.ts";
import type { z } from "zod";
import { CappedOutput } from "../tools/_capped_output.ts";
import { formatNumber } from "../tools/_format.ts";
import { lazySchema } from "../tools/schema.ts";
import type { Tool, ToolCallContext, ToolResult, Zod } from "../tools/tool.ts";
import { formatBytes } from "./_format_bytes.ts";
import { jobStatus, jobSummary, outputCut } from "./job_notification.ts";
import type { JobManager } from "./job_manager.ts";
import { DEFAULT_JOB_OUTPUT_MAX_BYTES } from "./job_settings.ts";
import { jobOf, unknownJob } from "./jobs_of.ts";

/** How long job_output waits for a job to end, by default and at most. */
export const JOB_OUTPUT_DEFAULT_WAIT_MS = 30_000;
export const JOB_OUTPUT_MAX_WAIT_MS = 600_000;
const OUTPUT_MAX_CHARS = 30_000;

const FIELDS = {
  job_id: "The id of the background job (from the bash call that started it)",
  block: "Wait for the job to end before answering (default true)",
  timeout:
    `How long to wait, in milliseconds (default ${JOB_OUTPUT_DEFAULT_WAIT_MS}, max ${JOB_OUTPUT_MAX_WAIT_MS})`,
};

function inputSchema(z: Zod) {
  return z.strictObject({
    job_id: z.string().min(1).describe(FIELDS.job_id),
    block: z.boolean().optional().describe(FIELDS.block),
    timeout: z.number().int().min(0).max(JOB_OUTPUT_MAX_WAIT_MS).optional().describe(
      FIELDS.timeout,
    ),
  });
}

/** Input of the job_output tool (Claude Code's TaskOutput: `task_id` there). */
export type JobOutputInput = z.infer<ReturnType<typeof inputSchema>>;

/** The JSON Schema the model sees: what {@link inputSchema} gives (a test holds them together). */
export const JOB_OUTPUT_INPUT_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    job_id: { type: "string", description: FIELDS.job_id, minLength: 1 },
    block: { type: "boolean", description: FIELDS.block },
    timeout: {
      type: "integer",
      description: FIELDS.timeout,
      minimum: 0,
      maximum: JOB_OUTPUT_MAX_WAIT_MS,
    },
  },
  required: ["job_id"],
  additionalProperties: false,
};

const DESCRIPTION_HEAD =
  `Reads the output of a background job (a bash command run with run_in_background) so far, with its status, and its exit code once it has ended.
- By default it waits for the job to end, up to \`timeout\` ms (${
    JOB_OUTPUT_DEFAULT_WAIT_MS / 1000
  } s); with \`block: false\` it answers at once.
- You are notified when a job ends anyway: use this to look at a job's progress, or to wait for a job whose result you need before going on.
- Output beyond ${formatNumber(OUTPUT_MAX_CHARS)} characters is cut in the middle`;

/** As sessions recorded before jobs' output was capped were told (their requests must replay). */
const UNCAPPED_DESCRIPTION = `${DESCRIPTION_HEAD}; the whole output is in the job's log file.`;

const CAPPED_DESCRIPTION = `${DESCRIPTION_HEAD}; the job's log file keeps more: all of it up ` +
  `to the job output cap (${
    formatBytes(DEFAULT_JOB_OUTPUT_MAX_BYTES)
  } unless configured), past that its first and last part, the middle cut.`;

/**
 * Creates the job_output tool (Claude Code's TaskOutput): the output of one of the session's
 * background jobs so far (what its log keeps: from memory while it runs in this process, else
 * from its log file), with its status and, when its output was past its cap, how much was cut;
 * it first waits for the job to end unless told not to. `capped` tells the model of the cap (a
 * session recorded before jobs' output was capped was told of none). An effect tool: it reads
 * output that changes, so replay serves its recorded result.
 */
export function createJobOutputTool(
  jobs: JobManager,
  workspace: string,
  capped = true,
): Tool<JobOutputInput> {
  return {
    name: "job_output",
    description: capped ? CAPPED_DESCRIPTION : UNCAPPED_DESCRIPTION,
    schema: lazySchema(inputSchema),
    inputSchema: JOB_OUTPUT_INPUT_SCHEMA,
    kind: "effect",
    readOnly: true,
    claudeNames: ["TaskOutput", "BashOutput"],
    claudeFields: { job_id: "task_id" },
    permission: "read-only",
    summarize: (input) => input.job_id,
    run: (input, context) => readJob(jobs, workspace, input, context),
  };
}

async function readJob(
  jobs: JobManager,
  workspace: string,
  input: JobOutputInput,
  context: ToolCallContext,
): Promise<ToolResult> {
  const state = context.view();
  const before = jobOf(state, context.session, input.job_id);
  if (!before) return { content: unknownJob(state, context.session, input.job_id), isError: true };
  let retrieval = "success";
  if (before.end === null && (input.block ?? true)) {
    await jobs.wait(input.job_id, input.timeout ?? JOB_OUTPUT_DEFAULT_WAIT_MS, context.signal);
    if (context.signal.aborted) {
      return {
        content: `Stopped waiting for job ${input.job_id}: the turn was cancelled`,
        isError: true,
        cancelled: true,
      };
    }
  }
  const job = jobOf(context.view(), context.session, input.job_id) ?? before;
  if (job.end === null) retrieval = input.block ?? true ? "timeout" : "not_ready";
  const end = job.end;
  const live = end === null ? jobs.output(job.id) : undefined;
  const output = live === undefined
    ? await readLog(join(workspace, job.logPath))
    : render(new TextDecoder().decode(live.bytes));
  const cut = live !== undefined
    ? outputCut(job, live.outputBytes, live.droppedBytes)
    : end?.kind === "finished"
    ? outputCut(job, end.outputBytes, end.droppedBytes)
    : "";
  const lines = [
    `<retrieval_status>${retrieval}</retrieval_status>`,
    `<task_id>${job.id}</task_id>`,
    `<status>${jobStatus(job)}</status>`,
    ...(end?.kind === "finished" && end.exitCode !== null
      ? [`<exit_code>${end.exitCode}</exit_code>`]
      : []),
    `<summary>${jobSummary(job)}</summary>`,
    ...(cut === "" ? [] : [`<output_cut>${cut}</output_cut>`]),
    `<output>\n${output}\n</output>`,
  ];
  return { content: lines.join("\n") };
}

/** The log's text, cut in the middle past the cap; a note when there is none. */
async function readLog(path: string): Promise<string> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "(no output file)";
    return `(cannot read the output file: ${error instanceof Error ? error.message : error})`;
  }
  const capped = new CappedOutput(OUTPUT_MAX_CHARS);
  const decoder = new TextDecoder();
  try {
    for await (const chunk of file.readable) capped.append(decoder.decode(chunk, { stream: true }));
    capped.append(decoder.decode());
  } catch {
    // What was read is shown.
  }
  return shown(capped);
}

/** `text` cut in the middle past the cap; a note when there is none. */
function render(text: string): string {
  const capped = new CappedOutput(OUTPUT_MAX_CHARS);
  capped.append(text);
  return shown(capped);
}

function shown(capped: CappedOutput): string {
  const text = capped.render().trimEnd();
  return text === "" ? "(no output yet)" : text;
}
