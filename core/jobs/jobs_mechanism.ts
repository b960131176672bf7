import type { EventStore } from "../../events/store.ts";
import type { ReinEvent } from "../../events/event_types.ts";
import type { Arrival } from "../loop/arrivals.ts";
import type { StageContext } from "../loop/stages.ts";
import type { Mechanism } from "../mechanism.ts";
import { renderJobEvent, reportJobs } from "./jobs_render.ts";
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
import { jobWake } from "./job_wake.ts";

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
 * id at once (its log keeps at most the session's job output cap: past it, the head and tail,
 * and its results say how much was cut); job_output reads its output so far, job_stop kills it. A process watching each job
 * appends `job.finished` when it ends (an arrival from outside the loop, fed by replay where the
 * log has it), and the job's agent gets a `<task-notification>` with its next request (this
 * mechanism's `arrivals`); one it stopped itself gets none. When the agent is resumed after its
 * process died, its jobs without an end are recorded as `job.lost` (and notified as lost), never
 * started again; when its session ends, its jobs are stopped first, and when the harness closes,
 * every job it runs is stopped without an end recorded (a resume records it lost). Only sessions
 * recorded with the `jobs` feature have jobs (older logs replay with the bash they had), and only
 * agents that are not subagents (a subagent's job could outlive the subagent).
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
  const stop = createJobStopTool(jobs);
  // Sessions recorded before jobs' output was capped were told of no cap: told so again.
  const tools = {
    capped: [createJobOutputTool(jobs, options.workspace), stop],
    uncapped: [createJobOutputTool(jobs, options.workspace, false), stop],
  };
  const wrapped = {
    capped: new WeakMap<AnyTool, AnyTool>(),
    uncapped: new WeakMap<AnyTool, AnyTool>(),
  };
  const filtered = {
    capped: new WeakMap<readonly AnyTool[], readonly AnyTool[]>(),
    uncapped: new WeakMap<readonly AnyTool[], readonly AnyTool[]>(),
  };
  const background = (bash: AnyTool, kind: Capping): AnyTool => {
    let tool = wrapped[kind].get(bash);
    if (!tool) {
      tool = createBackgroundBashTool(bash, jobs, kind === "capped");
      wrapped[kind].set(bash, tool);
    }
    return tool;
  };
  return {
    name: "jobs",
    feature: "jobs",
    render: renderJobEvent,
    report: reportJobs,
    projection: jobsProjection,
    fedTypes: ["job.finished"],
    tools: (scope) => hasJobs(scope) ? tools[capping(scope)] : [],
    filterTools: (scope, pool) => {
      if (!hasJobs(scope)) return pool;
      const kind = capping(scope);
      // The pool asks with the same list again while its sources give the same tools.
      let kept = filtered[kind].get(pool);
      if (!kept) {
        kept = pool.map((tool) => tool.name === "bash" ? background(tool, kind) : tool);
        filtered[kind].set(pool, kept);
      }
      return kept;
    },
    arrivals: jobArrivals,
    wake: jobWake(jobArrivals),
    stages: {
      resumed: (context) => Promise.resolve(lostJobs(context)),
      async sessionEnding(context) {
        await jobs.stopAll(context.session);
        return [];
      },
    },
    close: () => jobs.close(),
  };
}

/** Whether a session's model is told of the job output cap: sessions recorded before it are not. */
type Capping = "capped" | "uncapped";

/** Whether `scope`'s session recorded a job output cap. Pure. */
function capping(scope: PoolScope): Capping {
  const settings = scope.state.sessions.byId[scope.session]?.settings?.jobs;
  return settings?.outputMaxBytes === undefined ? "uncapped" : "capped";
}

/**
 * Whether `scope`'s agent may run background jobs (in a session with the `jobs` feature, which
 * the harness checks): a subagent may not (its job could outlive it). Pure.
 */
function hasJobs(scope: PoolScope): boolean {
  const view = scope.state.sessions.byId[scope.session];
  return view !== undefined && agentOf(view, scope.agent).spawn === null;
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
