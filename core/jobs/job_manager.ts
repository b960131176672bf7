import { join } from "../../events/posix_path.ts";
import type { JobEnding, JobFinished, JobStarted } from "../../events/event_types.ts";
import type { EventStore } from "../../events/store.ts";
import { drainPipes, type SpawnBash } from "../tools/bash_launcher.ts";
import { killGroup } from "../tools/kill_group.ts";
import { JobLog, type KeptSnapshot } from "./_job_log.ts";
import { OutputTail } from "./_output_tail.ts";

/** Where jobs' output goes, relative to the workspace. */
export const JOBS_DIRECTORY = ".rein/jobs";

/** What the job manager works with. */
export interface JobManagerDeps {
  workspace: string;
  /** Starts a command as the bash tool does (core/tools/bash_launcher.ts): same confinement. */
  spawn: SpawnBash;
  /** The log a job's end is appended to, from outside the loop. */
  log: () => EventStore;
  /** Monotonic milliseconds: a job's duration. */
  monotonicMs: () => number;
}

/** A job to start, and whose it is. */
export interface JobRequest {
  session: string;
  agent: string;
  callId: string;
  command: string;
  description?: string;
  timeoutMs: number;
  /** The most bytes of its output its log keeps (head and tail past it). */
  outputMaxBytes: number;
  /** Variables its shell sets (the session's, from its SessionStart hooks). */
  env?: Readonly<Record<string, string>>;
}

/** A job this process runs. */
interface LiveJob {
  session: string;
  /** What its log keeps so far. */
  output(): KeptSnapshot;
  stop(ending: JobEnding): void;
  /** The job's end, once it is in the log (undefined when it could not be recorded). */
  finished: Promise<JobFinished | undefined>;
  /** True once its `job.started` is in the log: its end may follow it. */
  recorded: boolean;
  markRecorded(): void;
  /** Its `job.started` will never be in the log: record no end. */
  abandon(): void;
}

/**
 * The background jobs this process runs: each a bash command started as the bash tool starts
 * one (in the same sandbox, in a process group of its own, dying with rein), its output written
 * to `.rein/jobs/<id>.log` within the job's output cap (`JobLog`: the head and tail of a longer
 * output, the middle cut, in bounded memory and on disk however fast the job writes), watched
 * until it ends by itself, is stopped, times out, or its session ends. The watcher then appends
 * `job.finished` to the log (under the log's lock, as any append; after the job's `job.started`,
 * which the call that started it records) with the exit code, the duration by the monotonic clock
 * (to the process's end, not to the log file's last write), the bytes written and cut, and the
 * last lines of output. Nothing here is read in replay: there the ends come from the log.
 */
export class JobManager {
  readonly #deps: JobManagerDeps;
  readonly #jobs = new Map<string, LiveJob>();
  #subscribed = false;
  /** Set by {@link close}: no job starts, and no end is appended, after it. */
  #closed = false;

  constructor(deps: JobManagerDeps) {
    this.#deps = deps;
  }

  /**
   * Start `request`'s command in the background; resolves once it runs, with what its
   * `job.started` records. Throws when it cannot be started (nothing is left running then).
   */
  async start(request: JobRequest): Promise<JobStarted> {
    const { workspace, spawn, monotonicMs } = this.#deps;
    if (this.#closed) throw new Error("Background jobs are closed: the harness is closing");
    this.#subscribe();
    await Deno.mkdir(join(workspace, JOBS_DIRECTORY), { recursive: true });
    const { id, file } = await createLogFile(join(workspace, JOBS_DIRECTORY));
    const logPath = `${JOBS_DIRECTORY}/${id}.log`;
    let spawned;
    try {
      spawned = await spawn(request.command, request.env);
    } catch (error) {
      file.close();
      await Deno.remove(join(workspace, logPath)).catch(() => {});
      throw error;
    }
    const began = monotonicMs();
    const { child } = spawned;
    let ending: JobEnding = "exited";
    let onRecorded: (recorded: boolean) => void = () => {};
    const recorded = new Promise<boolean>((resolve) => onRecorded = resolve);
    const tail = new OutputTail();
    const output = new JobLog(file, request.outputMaxBytes);
    const write = (chunk: Uint8Array) => {
      tail.push(chunk);
      output.push(chunk);
    };
    const readers = [child.stdout.getReader(), child.stderr.getReader()];
    const pumps = Promise.all(readers.map((reader) => pump(reader, write)));
    const kills: Promise<boolean>[] = [];
    const stop = (why: JobEnding) => {
      if (ending === "exited") ending = why;
      kills.push(killGroup(child.pid));
    };
    const timer = setTimeout(() => stop("timed_out"), request.timeoutMs);
    const started: JobStarted = {
      id,
      callId: request.callId,
      command: request.command,
      ...(request.description === undefined ? {} : { description: request.description }),
      pid: child.pid,
      logPath,
      timeoutMs: request.timeoutMs,
      outputMaxBytes: request.outputMaxBytes,
    };
    const finished = (async (): Promise<JobFinished | undefined> => {
      let status: Deno.CommandStatus;
      try {
        status = await child.status;
      } finally {
        clearTimeout(timer);
      }
      const durationMs = Math.round(monotonicMs() - began);
      // What it left running (unconfined, in its group) goes with it, as after a bash call.
      await Promise.all([killGroup(child.pid), drainPipes(pumps, readers), ...kills]);
      const kept = await output.close();
      await spawned.release();
      const end: JobFinished = {
        id,
        ending,
        exitCode: status.signal ? null : status.code,
        ...(status.signal ? { signal: status.signal } : {}),
        durationMs,
        outputBytes: output.totalBytes,
        droppedBytes: kept.droppedBytes,
        tail: tail.text(),
      };
      try {
        if (!(await recorded) || this.#closed) return undefined;
        await this.#deps.log().append([{
          type: "job.finished",
          data: end,
          session: request.session,
          agent: request.agent,
        }], { sync: true });
        return end;
      } catch {
        // The log is closed or failed: the end is lost with it, and a resume says so.
        return undefined;
      } finally {
        this.#jobs.delete(id);
      }
    })();
    const live: LiveJob = {
      session: request.session,
      output: () => output.snapshot(),
      stop,
      finished,
      recorded: false,
      markRecorded: () => {
        live.recorded = true;
        onRecorded(true);
      },
      abandon: () => onRecorded(false),
    };
    this.#jobs.set(id, live);
    return started;
  }

  /** Whether job `id` runs in this process. */
  isRunning(id: string): boolean {
    return this.#jobs.has(id);
  }

  /** What job `id`'s log keeps so far, while it runs in this process. */
  output(id: string): KeptSnapshot | undefined {
    return this.#jobs.get(id)?.output();
  }

  /**
   * Wait until job `id` has ended and its end is in the log, at most `ms`; resolves with the
   * end, or undefined when the time ran out, `signal` aborted, or the job does not run here.
   */
  async wait(id: string, ms: number, signal: AbortSignal): Promise<JobFinished | undefined> {
    const job = this.#jobs.get(id);
    if (!job) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort = () => {};
    const out = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), ms);
      onAbort = () => resolve(undefined);
      signal.addEventListener("abort", onAbort, { once: true });
    });
    try {
      return await Promise.race([job.finished, out]);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
    }
  }

  /** Stop job `id` (its whole process group) and wait for its end to be in the log. */
  async stop(id: string, ending: JobEnding = "stopped"): Promise<JobFinished | undefined> {
    const job = this.#jobs.get(id);
    if (!job) return undefined;
    job.stop(ending);
    return await job.finished;
  }

  /**
   * Stop every job of `session` (it is ending) and wait for their ends to be in the log, so the
   * session's end comes after them. Called between turns: a job whose start is not in the log by
   * then (its call was never recorded) gets no end either.
   */
  async stopAll(session: string): Promise<void> {
    const jobs = [...this.#jobs.values()].filter((job) => job.session === session);
    for (const job of jobs) {
      job.stop("session_ended");
      if (!job.recorded) job.abandon();
    }
    await Promise.all(jobs.map((job) => job.finished));
  }

  /**
   * Stop every job this process runs (the harness is closing) and wait for their watchers to be
   * done, appending no end: a job that outlives its process has none either, and a resume records
   * it lost. No job starts after. Never throws.
   */
  async close(): Promise<void> {
    this.#closed = true;
    const jobs = [...this.#jobs.values()];
    for (const job of jobs) {
      job.stop("session_ended");
      job.abandon();
    }
    await Promise.all(jobs.map((job) => job.finished.catch(() => undefined)));
  }

  /** Its `job.started` reaching the log lets a job's end follow it. */
  #subscribe(): void {
    if (this.#subscribed) return;
    this.#subscribed = true;
    this.#deps.log().subscribe((event) => {
      if (event.type === "job.started") this.#jobs.get(event.data.id)?.markRecorded();
    });
  }
}

/** A new log file under `directory` with a fresh job id (`b` and 8 hex digits). */
async function createLogFile(directory: string): Promise<{ id: string; file: Deno.FsFile }> {
  for (let attempt = 0;; attempt++) {
    const bytes = crypto.getRandomValues(new Uint8Array(4));
    const id = `b${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
    try {
      const file = await Deno.open(join(directory, `${id}.log`), { write: true, createNew: true });
      return { id, file };
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists) || attempt >= 5) throw error;
    }
  }
}

/** Read a pipe to its end into `write`; a cancelled or broken pipe ends it. Never throws. */
async function pump(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  write: (chunk: Uint8Array) => void,
): Promise<void> {
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) return;
      write(value);
    }
  } catch {
    // What was read is kept.
  }
}
