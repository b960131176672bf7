import type { z } from "zod";
import { sessionEnvOf } from "../tools/session_env.ts";
import { baseInputSchema } from "../tools/_base_input_schema.ts";
import { BASH_DESCRIPTION, type BashInput, bashInputSchema } from "../tools/bash.ts";
import { lazySchema } from "../tools/schema.ts";
import { toolFacts } from "../tools/tool_names.ts";
import type { Tool, ToolCallContext, ToolResult, Zod } from "../tools/tool.ts";
import { formatDuration } from "./job_notification.ts";
import type { JobManager } from "./job_manager.ts";
import { formatBytes } from "./_format_bytes.ts";
import { DEFAULT_JOB_OUTPUT_MAX_BYTES, DEFAULT_JOB_TIMEOUT_MS } from "./job_settings.ts";

const BACKGROUND_FIELD =
  "Run the command in the background: the call returns a job id at once, and you are told when " +
  "the command ends";

function inputSchema(z: Zod) {
  return bashInputSchema(z).extend({
    run_in_background: z.boolean().optional().describe(BACKGROUND_FIELD),
  });
}

/** Input of bash in a session with background jobs. */
export type BackgroundBashInput = z.infer<ReturnType<typeof inputSchema>>;

/** The JSON Schema the model sees: bash's, and `run_in_background` (a test holds them together). */
export const BACKGROUND_BASH_INPUT_SCHEMA: Record<string, unknown> = (() => {
  const base = baseInputSchema("bash");
  return {
    ...base,
    properties: {
      ...base.properties as Record<string, unknown>,
      run_in_background: { type: "boolean", description: BACKGROUND_FIELD },
    },
  };
})();

/** As sessions recorded before jobs' output was capped were told (their requests must replay). */
const UNCAPPED_DESCRIPTION = description("");

const CAPPED_DESCRIPTION = description(
  ` (up to the job output cap, ${
    formatBytes(DEFAULT_JOB_OUTPUT_MAX_BYTES)
  } unless configured; past it the log keeps its first and last part, the middle cut)`,
);

function description(cap: string): string {
  return `${BASH_DESCRIPTION}
- For a command that takes long (a build, a test suite, a server) while you go on with other work, set \`run_in_background: true\`: the call returns at once with a job id, the command's output goes to \`.rein/jobs/<id>.log\`${cap}, and when it ends you get a <task-notification> with its status, exit code and last lines of output. Do not poll it with sleep: read its output so far with job_output when you need it, and stop it with job_stop. A background command runs in the same sandbox as any other, is killed after \`timeout\` ms when you give one (otherwise after the workspace's job timeout, 30 minutes unless configured), and is stopped when the session ends.`;
}

/**
 * bash with `run_in_background` (Claude Code's field): without the flag, `bash` runs the call;
 * with it, the command starts as a background job (`JobManager`) in the same sandbox, and the call
 * returns its id at once, recording `job.started` with its result. `capped` tells the model of
 * the job output cap (a session recorded before jobs' output was capped was told of none). An
 * effect tool: replay serves the recorded result and never starts anything.
 */
export function createBackgroundBashTool(
  bash: Tool<BashInput>,
  jobs: JobManager,
  capped = true,
): Tool<BackgroundBashInput> {
  return {
    name: bash.name,
    description: capped ? CAPPED_DESCRIPTION : UNCAPPED_DESCRIPTION,
    schema: lazySchema(inputSchema),
    inputSchema: BACKGROUND_BASH_INPUT_SCHEMA,
    kind: "effect",
    readOnly: false,
    ...toolFacts(bash),
    guidance: "Run commands that take long (builds, test suites, servers) with bash's " +
      "run_in_background and keep working: you are notified when they end.",
    summarize: (input) => `${bash.summarize(input)}${input.run_in_background ? " &" : ""}`,
    run(input, context) {
      const { run_in_background: background, ...call } = input;
      return background ? startJob(jobs, call, context) : bash.run(call, context);
    },
  };
}

async function startJob(
  jobs: JobManager,
  input: BashInput,
  context: ToolCallContext,
): Promise<ToolResult> {
  const settings = context.view().sessions.byId[context.session]?.settings?.jobs;
  const timeoutMs = input.timeout ?? settings?.timeoutMs ?? DEFAULT_JOB_TIMEOUT_MS;
  const outputMaxBytes = settings?.outputMaxBytes ?? DEFAULT_JOB_OUTPUT_MAX_BYTES;
  try {
    const started = await jobs.start({
      session: context.session,
      agent: context.agent,
      callId: context.callId,
      command: input.command,
      ...(input.description === undefined ? {} : { description: input.description }),
      timeoutMs,
      outputMaxBytes,
      env: sessionEnvOf(context.view(), context.session),
    });
    return {
      content: `Command running in the background with ID: ${started.id}. Its output is being ` +
        `written to ${started.logPath} (at most ${formatBytes(outputMaxBytes)} kept: past that, ` +
        "its first and last part, the middle cut). You will be notified when it ends; it is " +
        "killed if it " +
        `runs longer than ${formatDuration(timeoutMs)}. Read its output so far with job_output, ` +
        "stop it with job_stop.",
      events: [{ type: "job.started", data: started }],
    };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { content: `Cannot start the command in the background: ${why}`, isError: true };
  }
}
