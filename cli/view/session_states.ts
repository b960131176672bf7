import { readLog } from "../../events/read_log.ts";
import type { Envelope } from "../../events/event_types.ts";
import { evolve, type State } from "../../core/state/state.ts";
import { foldSessions } from "../../core/snapshots/mod.ts";
import { extendIndex } from "../../core/snapshots/snapshots.ts";
import type { LogIndex } from "../../core/snapshots/catalog_snapshot.ts";
import { indexPoint } from "../../core/snapshots/log_point.ts";
import { reinCatalogProjections } from "../../core/harness.ts";
import { costOf, totalCost } from "../../core/models/cost.ts";
import { STATE_PROJECTIONS } from "../state_sweep.ts";
import { foldError } from "../fold.ts";

/**
 * One point of an agent's cost and context, after one of its model answers: of all its models
 * (the agent's series), or of the model that answered (the agent-and-model series).
 */
export interface SeriesPoint {
  seq: number;
  agent: string;
  /** The model that gave the answer. */
  model: string;
  costUsd: number;
  contextTokens: number;
}

/** The key of an agent-and-model series: `lead · claude-sonnet-5-5`. */
export function seriesKey(agent: string, model: string): string {
  return `${agent} · ${model}`;
}

/** Points kept per agent; past it every other one is dropped (the chart stays small). */
const SERIES_LIMIT = 1_000;
/** Checkpoints of the state kept at most; past it every other one is dropped. */
const CHECKPOINTS = 64;

/** The workspace-wide slices folded, as `rein state` folds them. */
const CATALOG_PROJECTIONS = reinCatalogProjections();

/**
 * The states of one session of a log at any seq, for the page's scrubber: the fold `rein state
 * --at` does (`foldSessions` with every mechanism's projection and workspace-wide slice, from the
 * snapshots that hold), kept at a few checkpoints once a background pass over the session has
 * folded it, so a state at a seq costs the events from the checkpoint before it. The pass also
 * collects the session's seqs (to step one event) and each agent's cost and context after each
 * of its answers, read from the folded state. Reads the log only.
 */
export class SessionStates {
  readonly #checkpoints: State[] = [];
  /** The newest state folded (the log's end when last asked), advanced in place. */
  #latest: State | undefined;
  readonly #seqs: number[] = [];
  readonly #series = new Map<string, SeriesPoint[]>();
  readonly #byModel = new Map<string, SeriesPoint[]>();
  #built: Promise<void> | undefined;
  #closed = false;
  /** Resolves once the pass has its first checkpoint (the session's start), or has stopped. */
  #started: Promise<void> | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  /**
   * `firstSeq`: the seq of the session's `session.started`; `index`: places to start reading the
   * log from (a catalog fold's), extended as the log is read.
   */
  constructor(
    readonly path: string,
    readonly session: string,
    readonly firstSeq: number,
    private readonly index: LogIndex,
  ) {}

  /**
   * Start the background pass (once); resolves when it has folded the session to the log's end.
   * It runs beside the calls of {@link at} (which use its checkpoints as they come), never
   * touching a state they fold.
   */
  build(): Promise<void> {
    if (this.#built === undefined) {
      let started = () => {};
      this.#started = new Promise<void>((resolve) => started = resolve);
      this.#built = this.#pass(started).finally(started);
    }
    return this.#built;
  }

  /** Stop the background pass (it ends at its next event); the states asked for still come. */
  close(): void {
    this.#closed = true;
  }

  /** Whether the background pass has ended. */
  get ready(): boolean {
    return this.#latest !== undefined;
  }

  /** The session's seqs folded so far by the pass and since. */
  get seqs(): readonly number[] {
    return this.#seqs;
  }

  /** Each agent's cost and context over the session, by agent. */
  series(): Record<string, SeriesPoint[]> {
    return Object.fromEntries(this.#series);
  }

  /**
   * Each agent's cost and context per model it used, by {@link seriesKey}: the cost of that
   * model's usage alone, the context after each of that model's answers.
   */
  seriesByModel(): Record<string, SeriesPoint[]> {
    return Object.fromEntries(this.#byModel);
  }

  /**
   * `use` of the state of the log up to `seq`, the session in focus (its catalog as of `seq`);
   * the state is only valid during the call. Calls run one at a time.
   */
  at<T>(seq: number, use: (state: State) => T): Promise<T> {
    return this.#serial(async () => use(await this.#stateAt(seq)));
  }

  #serial<T>(run: () => Promise<T>): Promise<T> {
    const result = this.#queue.then(run);
    this.#queue = result.catch(() => {});
    return result;
  }

  async #stateAt(seq: number): Promise<State> {
    const latest = this.#latest;
    if (latest !== undefined && latest.lastSeq <= seq) {
      await this.#foldOn(latest, seq, true);
      return latest;
    }
    // The pass's first checkpoint costs what a fold from the snapshots costs: wait for it
    // rather than fold the same events twice at once.
    if (this.#checkpoints.length === 0 && this.#started !== undefined) await this.#started;
    const checkpoint = this.#checkpoints.findLast((state) => state.lastSeq <= seq);
    if (checkpoint === undefined) return await this.#foldAt(seq);
    const state = structuredClone(checkpoint);
    await this.#foldOn(state, seq, false);
    return state;
  }

  /** The state at `seq` folded as `rein state --at` folds it: snapshots, then the events after. */
  #foldAt(seq: number): Promise<State> {
    return foldSessions(this.path, {
      focus: [this.session],
      at: seq,
      projections: STATE_PROJECTIONS,
      catalogProjections: CATALOG_PROJECTIONS,
    });
  }

  /** Fold the log's events after `state.lastSeq` up to `upTo` into `state`. */
  async #foldOn(state: State, upTo: number, record: boolean): Promise<void> {
    if (upTo <= state.lastSeq) return;
    const start = await indexPoint(this.path, this.index, state.lastSeq);
    const read = readLog(this.path, {
      ...(Number.isFinite(upTo) ? { upTo } : {}),
      ...(start ? { start } : {}),
      onProgress: (at) => extendIndex(this.index, at),
    });
    const focus = new Set([this.session]);
    for await (const event of read) {
      if (event.seq <= state.lastSeq) continue;
      try {
        evolve(state, event, STATE_PROJECTIONS, focus, CATALOG_PROJECTIONS);
      } catch (error) {
        throw foldError(this.path, error, event);
      }
      if (record) this.#record(state, event);
    }
  }

  /** The background pass: the session from its start to the log's end, with checkpoints. */
  async #pass(started: () => void): Promise<void> {
    const state = await this.#foldAt(this.firstSeq);
    if (this.#closed) return;
    this.#record(state, undefined);
    this.#checkpoints.push(structuredClone(state));
    started();
    let every = 2_000;
    let last = state.lastSeq;
    const start = await indexPoint(this.path, this.index, state.lastSeq);
    const read = readLog(this.path, {
      ...(start ? { start } : {}),
      onProgress: (at) => extendIndex(this.index, at),
    });
    const focus = new Set([this.session]);
    for await (const event of read) {
      if (this.#closed) return;
      if (event.seq <= state.lastSeq) continue;
      try {
        evolve(state, event, STATE_PROJECTIONS, focus, CATALOG_PROJECTIONS);
      } catch (error) {
        throw foldError(this.path, error, event);
      }
      this.#record(state, event);
      if (event.seq - last >= every) {
        last = event.seq;
        this.#checkpoints.push(structuredClone(state));
        if (this.#checkpoints.length > CHECKPOINTS) {
          const kept = this.#checkpoints.filter((_, i) => i % 2 === 0);
          this.#checkpoints.splice(0, this.#checkpoints.length, ...kept);
          every *= 2;
        }
      }
    }
    this.#latest = state;
  }

  /** Note the session's event `event` (undefined: its start, already folded into `state`). */
  #record(state: State, event: Envelope | undefined): void {
    if (event === undefined) {
      this.#seqs.push(state.lastSeq);
      return;
    }
    if (event.session !== this.session) return;
    this.#seqs.push(event.seq);
    if (event.type !== "model.responded") return;
    const agent = state.sessions.byId[this.session]?.agents[event.agent];
    if (agent === undefined) return;
    // The fold counts an answer's usage under the agent's model as it stands then.
    const model = agent.model;
    const base = { seq: event.seq, agent: event.agent, model, contextTokens: agent.contextTokens };
    const usage = agent.usageByModel[model];
    addPoint(this.#series, event.agent, { ...base, costUsd: totalCost(agent.usageByModel) });
    addPoint(this.#byModel, seriesKey(event.agent, model), {
      ...base,
      costUsd: usage === undefined ? 0 : costOf(model, usage),
    });
  }
}

/** Add `point` to the series `key` of `series`, dropping every other point past the limit. */
function addPoint(series: Map<string, SeriesPoint[]>, key: string, point: SeriesPoint): void {
  const points = series.get(key) ?? [];
  points.push(point);
  if (points.length > SERIES_LIMIT) {
    const kept = points.filter((_, i) => i % 2 === 0 || i === points.length - 1);
    points.splice(0, points.length, ...kept);
  }
  series.set(key, points);
}
