import type { EventTable } from "./_payload.ts";

/**
 * A bash command started in the background (`bash` with `run_in_background`), recorded with the
 * result of the call that started it.
 */
export interface JobStarted {
  /** The job's id, unique in the workspace (`b3f9a1c2`); its output is `.rein/jobs/<id>.log`. */
  id: string;
  /** The bash call that started it. */
  callId: string;
  command: string;
  /** What the command does, as the model described it. */
  description?: string;
  /** The process the job runs as (bwrap, or the supervising bash): its process group's id. */
  pid: number;
  /** Where its output (stdout and stderr interleaved) is written, relative to the workspace. */
  logPath: string;
  /** When the job is killed if it has not ended. */
  timeoutMs: number;
  /**
   * The most bytes its log keeps: a longer output keeps its head and tail with the middle cut
   * (absent in logs recorded before jobs' output was capped).
   */
  outputMaxBytes?: number;
}

/**
 * How a job ended: by itself (`exited`), killed at its timeout, stopped by the model
 * (`job_stop`), or stopped because its session ended (the person left, the headless run ended).
 */
export type JobEnding = "exited" | "timed_out" | "stopped" | "session_ended";

/**
 * A job ended: appended by the process that watched it, from outside the agent's loop (an
 * arrival, fed by replay where the log has it). Its agent is the agent that started the job.
 */
export interface JobFinished {
  id: string;
  ending: JobEnding;
  /** The exit status; null when the process was killed by a signal. */
  exitCode: number | null;
  /** The signal that killed it, when one did (`SIGKILL`). */
  signal?: string;
  /** From its start to its end, by the watcher's monotonic clock. */
  durationMs: number;
  /** Bytes of output the job wrote (its log keeps them all unless `droppedBytes` says not). */
  outputBytes: number;
  /**
   * Bytes of its output cut from the middle of its log to keep it within its `outputMaxBytes`
   * (absent in logs recorded before jobs' output was capped).
   */
  droppedBytes?: number;
  /** The last lines of its output. */
  tail: string;
}

/**
 * A job that has no end in the log was found, when its agent was resumed, to have run in a
 * process that is gone: it died with that process, and what it did is unknown. Never restarted.
 */
export interface JobLost {
  id: string;
  pid: number;
  logPath: string;
}

/** Background jobs (s13). */
export interface JobEvents {
  "job.started": JobStarted;
  "job.finished": JobFinished;
  "job.lost": JobLost;
}

/** The event types of JobEvents, for validation on read. */
export const JOB_EVENTS: EventTable<JobEvents> = {
  "job.started": true,
  "job.finished": true,
  "job.lost": true,
};

/** The job settings a session records; see `SettingsSnapshot.jobs`. */
export interface JobSettings {
  /** How long a job may run when its call gives no timeout (`REIN_JOB_TIMEOUT_MS`). */
  timeoutMs: number;
  /**
   * The most bytes of a job's output its log keeps (`REIN_JOB_OUTPUT_MAX_BYTES`); absent in logs
   * recorded before jobs' output was capped.
   */
  outputMaxBytes?: number;
}
