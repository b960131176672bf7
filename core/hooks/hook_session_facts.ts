import { lineUuid } from "./claude_transcript.ts";
import { hooksProjection } from "./hooks_projection.ts";
import { sliceOf, type State } from "../state/state.ts";
import type { Projection } from "../state/projection.ts";
import { jobsProjection } from "../jobs/jobs_projection.ts";
import { cronTableProjection } from "../cron/cron_table_projection.ts";
import type { CronTable } from "../cron/cron_table_projection.ts";

/** What hooks are told about the session beyond its id, from the log. */
export interface HookSessionFacts {
  promptId?: string;
  effort?: string;
}

/**
 * A session's `prompt_id` and `effort` for its hooks, from the state. `prompt_id` names the main
 * agent's user prompt whose turn this is, by its number in the session (`upcoming`: the prompt
 * about to be recorded, as UserPromptSubmit hooks see it), the same on every run of the log.
 * `effort` is the level whose thinking budget the session records (none when thinking is off).
 * Pure.
 */
export function hookSessionFacts(
  state: State,
  session: string,
  upcoming = false,
): HookSessionFacts {
  const view = state.sessions.byId[session];
  if (view === undefined) return {};
  const prompts = sliceOf(state, hooksProjection)[session]?.prompts[view.mainAgent] ?? 0;
  const number = prompts + (upcoming ? 1 : 0);
  const effort = effortOf(view.thinkingBudget, view.maxTokens);
  return {
    ...(number === 0 ? {} : { promptId: lineUuid(session, -number, 0) }),
    ...(effort === undefined ? {} : { effort }),
  };
}

/** The effort level (cli/model_choice.ts's budgets) a thinking budget stands for. Pure. */
export function effortOf(budget: number | null, maxTokens: number): string | undefined {
  if (budget === null) return undefined;
  if (budget >= maxTokens - 1) return "max";
  if (budget >= 16_384) return "high";
  if (budget >= 8_192) return "medium";
  return "low";
}

/** A running background job as a Stop hook's `background_tasks` lists it. */
export interface BackgroundTask {
  id: string;
  type: "bash";
  command: string;
  description?: string;
  status: "running";
}

/** A cron job of the session as a Stop hook's `session_crons` lists it. */
export interface SessionCronEntry {
  id: string;
  cron: string;
  prompt: string;
  recurring: boolean;
  durable: boolean;
}

/**
 * What a Stop hook is told is still going on: the session's background jobs that have not ended
 * (`background_tasks`) and the cron jobs that fire in it, durable ones and its own
 * (`session_crons`), from the state. Empty lists when the mechanisms are not wired. Pure.
 */
export function stopFacts(
  state: State,
  session: string,
): { backgroundTasks: BackgroundTask[]; sessionCrons: SessionCronEntry[] } {
  const jobs = sliceMaybe(state, jobsProjection)?.[session];
  const backgroundTasks: BackgroundTask[] = (jobs?.order ?? []).flatMap((id) => {
    const job = jobs?.byId[id];
    if (job === undefined || job.end !== null) return [];
    return [{
      id,
      type: "bash" as const,
      command: job.command,
      ...(job.description === undefined ? {} : { description: job.description }),
      status: "running" as const,
    }];
  });
  const table = Object.hasOwn(state.catalog, cronTableProjection.key)
    ? state.catalog[cronTableProjection.key] as CronTable
    : undefined;
  const sessionCrons = Object.values(table?.jobs ?? {})
    .filter((job) => job.durable || job.session === session)
    .map((job) => ({
      id: job.id,
      cron: job.cron,
      prompt: job.prompt,
      recurring: job.recurring,
      durable: job.durable,
    }));
  return { backgroundTasks, sessionCrons };
}

/** The slice of `projection`, or undefined when this harness does not fold it. */
export function sliceMaybe<Slice>(state: State, projection: Projection<Slice>): Slice | undefined {
  return projection.key in state.extensions ? sliceOf(state, projection) : undefined;
}
