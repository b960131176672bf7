import type { Envelope, JobFinished, JobLost, JobStarted } from "../../events/event_types.ts";
import type { Projection } from "../state/projection.ts";

/** How a job ended, as the log says: its `job.finished` or its `job.lost`, with the seq. */
export type JobEnd =
  | ({ kind: "finished"; seq: number } & JobFinished)
  | ({ kind: "lost"; seq: number } & JobLost);

/** One background job of a session, as far as the log tells. */
export interface JobView extends JobStarted {
  /** The agent that started it: its end is that agent's arrival. */
  agent: string;
  /** seq of its `job.started`, and when that was appended (the envelope's `ts`). */
  startedSeq: number;
  startedAt: string;
  /** Its end; null while it runs (or while its process is gone and no resume has said so). */
  end: JobEnd | null;
  /** True once its end was put before the model (`arrival.injected` from this mechanism). */
  notified: boolean;
}

/** A session's jobs, in order of start. */
export interface SessionJobs {
  order: string[];
  byId: Record<string, JobView>;
}

/** Jobs by session id. */
export type JobsSlice = Record<string, SessionJobs>;

/** The `source` of the arrivals this mechanism puts before the model. */
export const JOBS_SOURCE = "jobs";

/**
 * The background jobs of each session: started (`job.started`, with the call that started
 * them), ended (`job.finished`, appended by the process that watched them, or `job.lost`, found at
 * a resume) and notified (`arrival.injected` from this mechanism). An end for a job the log never
 * started, or a second end, is ignored. A forked session starts with no jobs. Pure.
 */
export const jobsProjection: Projection<JobsSlice> = {
  key: "jobs",
  canHandle: ["job.started", "job.finished", "job.lost", "arrival.injected"],
  initial: () => ({}),
  evolve(slice, event: Envelope) {
    switch (event.type) {
      case "job.started": {
        const session = slice[event.session] ??= { order: [], byId: {} };
        if (session.byId[event.data.id]) return slice;
        session.order.push(event.data.id);
        session.byId[event.data.id] = {
          ...event.data,
          agent: event.agent,
          startedSeq: event.seq,
          startedAt: event.ts,
          end: null,
          notified: false,
        };
        return slice;
      }
      case "job.finished":
      case "job.lost": {
        const job = slice[event.session]?.byId[event.data.id];
        if (job && job.end === null) {
          job.end = event.type === "job.finished"
            ? { kind: "finished", seq: event.seq, ...event.data }
            : { kind: "lost", seq: event.seq, ...event.data };
        }
        return slice;
      }
      case "arrival.injected": {
        if (event.data.source !== JOBS_SOURCE) return slice;
        const job = slice[event.session]?.byId[event.data.key];
        if (job) job.notified = true;
        return slice;
      }
      default:
        return slice;
    }
  },
};

/** The jobs of `session`, in order of start (none when it has none). Pure. */
export function sessionJobs(slice: JobsSlice, session: string): JobView[] {
  const jobs = slice[session];
  return jobs ? jobs.order.flatMap((id) => jobs.byId[id] ?? []) : [];
}
