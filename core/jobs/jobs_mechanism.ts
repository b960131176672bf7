import type { EventStore } from "../../events/store.ts";
import type { ReinEvent } from "../../events/event_types.ts";
import type { Arrival } from "../loop/arrivals.ts";
import type { StageContext } from "../loop/stages.ts";
import type { Mechanism } from "../mechanism.ts";
import { agentOf } from "../state/sessions.ts";
import type { BashSandbox } from "../tools/bash.ts";
import { bashLauncher } from "../tools/bash_launcher.ts";
import type { AnyTool } from "../tools/tool.ts";
import type { PoolScope } from "../tools/tool_pool.ts";
import { createBackgroundBashTool } from "./background_bash.ts";
import { JobManager } from "./job_manager.ts";
import { jobNotification } from "./job_notification.ts";
import { createJobOutputTool } from "./job_output_tool.ts";
import { createJobStopTool } from "./job_stop_tool.ts";
import { jobsOf } from "./jobs_of.ts";
import { JOBS_SOURCE, jobsProjection } from "./jobs_projection.ts";

/** What the jobs mechanism is wired with. */
export interface JobsOptions {
  workspace: string;
  /** The sandbox jobs run in: bash's. */
  sandbox?: BashSandbox | PromiseLike<BashSandbox | undefined>;
  /** The harness's log, for a job's end appended from outside the loop. */
  log: () => EventStore;
  monotonicMs: () => number;
}

/**
 * Background jobs (s13): bash's `run_in_background` starts a command as a job and returns its
 * id at once; job_output reads its output so far, job_stop kills it. A process watching each job
 * appends `job.finished` when it ends (an arrival from outside the loop, fed by replay where the
 * log has it), and the job's agent gets a `<task-notification>` with its next request (this
 * mechanism's `arrivals`); one it stopped itself gets none. When the agent is resumed after its
 * process died, its jobs without an end are recorded as `job.lost` (and notified as lost), never
 * started again; when its session ends, its jobs are stopped first. Only sessions recorded with
 * job settings have jobs (older logs replay with the bash they had), and only agents that are not
 * subagents (a subagent's job could outlive the subagent).
 */
export function jobsMechanism(options: JobsOptions): Mechanism {
  const jobs = new JobManager({
    workspace: options.workspace,
    spawn: bashLauncher({
      workspace: options.workspace,
      ...(options.sandbox ? { sandbox: options.sandbox } : {}),
    }),
    log: options.log,
    monotonicMs: options.monotonicMs,
  });
  const tools = [createJobOutputTool(jobs, options.workspace), createJobStopTool(jobs)];
  const wrapped = new WeakMap<AnyTool, AnyTool>();
  const filtered = new WeakMap<readonly AnyTool[], readonly AnyTool[]>();
  const background = (bash: AnyTool): AnyTool => {
    let tool = wrapped.get(bash);
    if (!tool) wrapped.set(bash, tool = createBackgroundBashTool(bash, jobs));
    return tool;
  };
  return {
    name: "jobs",
    projection: jobsProjection,
    fedTypes: ["job.finished"],
    tools: (scope) => hasJobs(scope) ? tools : [],
    filterTools: (scope, pool) => {
      if (!hasJobs(scope)) return pool;
      // The pool asks with the same list again while its sources give the same tools.
      let kept = filtered.get(pool);
      if (!kept) {
        kept = pool.map((tool) => tool.name === "bash" ? background(tool) : tool);
        filtered.set(pool, kept);
      }
      return kept;
    },
    arrivals: jobArrivals,
    stages: {
      resumed: (context) => Promise.resolve(lostJobs(context)),
      async sessionEnding(context) {
        await jobs.stopAll(context.session);
        return [];
      },
    },
  };
}

/** Whether `scope`'s agent may run background jobs. Pure. */
function hasJobs(scope: PoolScope): boolean {
  const view = scope.state.sessions.byId[scope.session];
  return view?.settings?.jobs !== undefined && agentOf(view, scope.agent).spawn === null;
}

/**
 * The `<task-notification>`s `scope`'s agent has not had yet: its jobs that ended (by themselves,
 * at their timeout, with their session, or lost) except those it stopped. Pure.
 */
export function jobArrivals(scope: PoolScope): Arrival[] {
  return jobsOf(scope.state, scope.session).flatMap((job) => {
    const end = job.end;
    if (job.agent !== scope.agent || end === null || job.notified) return [];
    if (end.kind === "finished" && end.ending === "stopped") return [];
    return [{ source: JOBS_SOURCE, key: job.id, seq: end.seq, text: jobNotification(job) }];
  });
}

/**
 * The agent's jobs that have no end as it is resumed: they ran in the process that died (it was
 * the only one running this agent), and died with it. Pure over the state.
 */
function lostJobs(context: StageContext): ReinEvent[] {
  return jobsOf(context.view(), context.session).flatMap((job) =>
    job.agent === context.agent && job.end === null
      ? [{ type: "job.lost" as const, data: { id: job.id, pid: job.pid, logPath: job.logPath } }]
      : []
  );
}
