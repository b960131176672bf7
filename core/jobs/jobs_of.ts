import { sliceOf, type State } from "../state/state.ts";
import { jobsProjection, type JobView, sessionJobs } from "./jobs_projection.ts";

/**
 * The background jobs of `session`, in order of start. Pure. Throws if the state was folded
 * without the jobs projection (a harness without the jobs mechanism).
 */
export function jobsOf(state: State, session: string): JobView[] {
  return sessionJobs(sliceOf(state, jobsProjection), session);
}

/** Job `id` of `session`, or undefined. Pure. */
export function jobOf(state: State, session: string, id: string): JobView | undefined {
  return sliceOf(state, jobsProjection)[session]?.byId[id];
}

/** What the model is told when it names a job the session does not have. Pure. */
export function unknownJob(state: State, session: string, id: string): string {
  const ids = jobsOf(state, session).map((job) => job.id);
  return ids.length === 0
    ? `No background job "${id}": none was started in this session`
    : `No background job "${id}" in this session. Its jobs: ${ids.join(", ")}`;
}
