import { MemoryEventStore } from "../../events/memory_store.ts";
import type { Envelope, EnvelopeOf, EventType, NewEvent } from "../../events/event_types.ts";
import type { EventListener, EventStore } from "../../events/store.ts";
import { createHarness, type Harness } from "../harness.ts";
import { evolve } from "../state/state.ts";
import type { AgentLoop } from "../loop/agent_loop.ts";
import { AgentTape, comparable, isCancellation } from "./agent_tape.ts";
import { driveInput } from "./_drive_input.ts";
import { orderedStore } from "./_ordered_store.ts";
import { Diverged, ReadFailed, TapeEnded } from "./_replay_stops.ts";
import { servedEffects } from "./_served_effects.ts";
import type { Recorded } from "./recorded.ts";
import type { ReplayOrder } from "./replay_order.ts";
import type { Divergence, ReplayOptions, ReplayResult } from "./replay_result.ts";
import { mismatch, sameEvent, sameJson } from "./same_event.ts";

/** A run of one agent under replay: the process (epoch) it belongs to, and its cancel. */
interface AgentRun {
  agent: string;
  /** Index of the run's first event. */
  startIndex: number;
  /**
   * Index of the first event of the next process (a `session.resumed`), once it has been read;
   * undefined while none has (the process lasts to the session's end as far as it is read).
   */
  epochEnd: number | undefined;
  controller: AbortController;
  done: Promise<void>;
  active: boolean;
}

/**
 * One session's replay (see `replaySession`), in steps: open a harness whose store holds each
 * append until its turn in the recorded order and compares it with the recorded event, and whose
 * effects are served from the agents' tapes; then walk the recorded events, feeding those that
 * come from outside the loops and starting each agent's run at its input; then fold what a replay
 * that stopped short did not.
 */
export class SessionReplay {
  readonly order: ReplayOrder;
  readonly #recorded: Recorded;
  readonly #options: ReplayOptions;
  readonly #first: EnvelopeOf<"session.started">;
  /**
   * Each agent's tape, made at its first event once the harness says which events reach the
   * agents from outside their loops.
   */
  readonly #tapes = new Map<string, AgentTape>();
  /** Index of the recorded event being fed, while it is; how many were fed. */
  #feeding: number | undefined;
  #fedCount = 0;
  /** The session replayed: events of other sessions in its span are fed, never reproduced. */
  readonly #session: string;
  readonly #runs = new Map<string, AgentRun>();
  /** The indexes of the resumes that start a process (see {@link SessionReplay.#watchEpochs}). */
  readonly #resumes: number[] = [];
  /** The indexes of each teammate's resumes, which start a process of its own. */
  readonly #teammateResumes = new Map<string, number[]>();
  #divergence: Divergence | null = null;
  /** How many recorded events the harness has folded (in order), and the first that did not. */
  #folded = 0;
  #damaged: { event: Envelope; error: unknown } | null = null;
  /** Events handed to the store with their recorded event's data. */
  readonly #encoded = new WeakSet<NewEvent>();
  #raw: MemoryEventStore | undefined;
  readonly #loops = new Map<string, AgentLoop>();

  /** Replay `recorded` in `order`. Throws when its first event is not a session's start. */
  static async replay(
    recorded: Recorded,
    order: ReplayOrder,
    options: ReplayOptions,
  ): Promise<ReplayResult> {
    const first = recorded.at(0);
    if (first?.type !== "session.started") {
      if (recorded.failure) throw recorded.failure.error;
      throw new Error("Cannot replay: the session's first event is not session.started");
    }
    const replay = new SessionReplay(recorded, order, options, first);
    const live = await replay.#openHarness();
    const fed = replay.#tapeEvents(live);
    await replay.#drive(live, fed);
    return replay.#finish(live);
  }

  private constructor(
    recorded: Recorded,
    order: ReplayOrder,
    options: ReplayOptions,
    first: EnvelopeOf<"session.started">,
  ) {
    this.#recorded = recorded;
    this.order = order;
    this.#options = options;
    this.#first = first;
    this.#session = first.session;
    this.#watchEpochs();
  }

  /**
   * A process starts at a resume of an agent the person drives; a subagent continued by its
   * parent's composite call after that resume records its own, inside the same process (a
   * subagent's first event is its agent.spawned). A teammate (an agent.spawned with `teammate`)
   * runs in a process of its own: its resume starts a process for it alone.
   */
  #watchEpochs(): void {
    const children = new Set<string>();
    this.#recorded.onRead((event, index) => {
      if (event.session !== this.#session) return;
      if (event.type === "agent.spawned") {
        children.add(event.agent);
        if (event.data.teammate !== undefined) this.#teammateResumes.set(event.agent, []);
      } else if (event.type === "session.resumed") {
        const own = this.#teammateResumes.get(event.agent);
        if (own !== undefined) own.push(index);
        else if (!children.has(event.agent)) this.#resumes.push(index);
      }
    });
  }

  /** Whether the event at `index` (read already) belongs to the process of `run`. */
  #inEpoch(run: AgentRun, index: number): boolean {
    if (!Number.isFinite(index)) return false;
    // Events are read in order: once a later resume is found, every earlier one is known.
    run.epochEnd ??= Math.min(
      this.#resumes.find((r) => r > run.startIndex) ?? Infinity,
      this.#teammateResumes.get(run.agent)?.find((r) => r > run.startIndex) ?? Infinity,
    );
    if (run.epochEnd === Infinity) run.epochEnd = undefined;
    return index < (run.epochEnd ?? Infinity);
  }

  /** Whether the event at `index` belongs to the process of `agent`'s run, when it has one. */
  within(agent: string, index: number): boolean {
    const run = this.#runs.get(agent);
    return run ? this.#inEpoch(run, index) : Number.isFinite(index);
  }

  /** The tape of `agent`, reading on to its first event; undefined when it has none. */
  tapeOf(agent: string): AgentTape | undefined {
    let tape = this.#tapes.get(agent);
    while (tape === undefined && this.#recorded.more()) tape = this.#tapes.get(agent);
    return tape;
  }

  /** Keep the first divergence found and stop every waiting run. */
  #record(found: Divergence): void {
    this.#divergence ??= found;
    this.order.stop(new Diverged());
  }

  #diverge(found: Divergence): never {
    this.#record(found);
    throw new Diverged();
  }

  /** The recorded event `agent` must produce next, or a crash/divergence when there is none. */
  expected(agent: string, produced: string): { event: Envelope; index: number } {
    if (this.#divergence) throw new Diverged();
    const tape = this.tapeOf(agent);
    if (!tape) {
      return this.#diverge({
        seq: null,
        recorded: null,
        replayed: produced,
        reason: `the replayed loop produced ${produced} for agent ${agent}, which the log never ` +
          "recorded in this session",
      });
    }
    const event = tape.next();
    const index = tape.nextIndex();
    if (event && this.within(agent, index)) return { event, index };
    // Past the agent's recorded events in this process: it died here, unless its turn had
    // ended, in which case the log is complete and the loop is doing something new.
    if (tape.last()?.type !== "turn.ended") throw new TapeEnded();
    return this.#diverge({
      seq: event?.seq ?? null,
      recorded: event ? comparable(event) : null,
      replayed: produced,
      reason: `the replayed loop produced ${produced} for agent ${agent} after its turn ended, ` +
        "which the log does not have",
    });
  }

  /** The recorded event at `index`; undefined past the session's end, null if let go of. */
  recordedAt(index: number): Envelope | undefined | null {
    try {
      return this.#recorded.at(index);
    } catch (error) {
      if (error instanceof RangeError) return null;
      throw error;
    }
  }

  /**
   * The first index replay must still hold: the one after the last event of each agent whose run
   * is under way, which a stage of that agent may wait for (`StageContext.waitFor`).
   */
  #held(): number {
    let held = Infinity;
    for (const [agent, run] of this.#runs) {
      if (run.active) held = Math.min(held, (this.#tapes.get(agent)?.lastIndex() ?? -1) + 1);
    }
    return held;
  }

  /** The error for a loop that waits for `what` where the log has `next`. */
  stuck(next: Envelope, what: string): Error {
    if (next.type === "session.resumed") return new TapeEnded();
    this.#record({
      seq: next.seq,
      recorded: comparable(next),
      replayed: null,
      reason: `the replayed loop waits for ${what} where the log has ${next.type}`,
    });
    return new Diverged();
  }

  /**
   * The recorded event `event` reproduces (or is fed as), or undefined at a divergence. The
   * harness folds the recorded one: its seq is the log's, not the replay store's (which numbers
   * one session's events alone), so what a mechanism derives from seqs (an arrival's) is what the
   * recorded run derived.
   */
  #accept(event: Envelope): Envelope | undefined {
    if (this.#divergence) return undefined;
    if (this.#feeding !== undefined) {
      const index = this.#feeding;
      this.#feeding = undefined;
      const fed = this.#recorded.at(index) as Envelope;
      if (fed.session === this.#session) {
        this.#fedCount += 1;
        this.#options.onEvent?.(fed);
      }
      this.order.done(index);
      return fed;
    }
    const tape = this.tapeOf(event.agent);
    const want = tape?.next();
    if (!tape || !want || !sameEvent(want, event)) {
      this.#record({
        seq: want?.seq ?? null,
        recorded: want ? comparable(want) : null,
        replayed: comparable(event),
        reason: want ? mismatch(want, event) : `the log has no more events of ${event.agent}`,
      });
      return undefined;
    }
    const index = tape.nextIndex();
    tape.advance();
    this.#options.onEvent?.(want);
    if (isCancellation(tape.next())) this.#runs.get(event.agent)?.controller.abort();
    this.order.done(index);
    return want;
  }

  /**
   * `events` with the data of each that is its recorded event's, as JSON, replaced by that data:
   * the store keeps those as they are instead of writing them out and reading them back, and
   * `#accept` finds them equal at once. Where the match is not the event `#accept` will compare
   * with, nothing changes but the cost: the data are the same JSON.
   */
  #withRecordedData(events: readonly NewEvent[]): NewEvent[] {
    const offsets = events.length > 1 ? new Map<string, number>() : undefined;
    return events.map((event) => {
      const offset = offsets?.get(event.agent) ?? 0;
      offsets?.set(event.agent, offset + 1);
      const want = this.tapeOf(event.agent)?.peek(offset);
      if (
        want?.type !== event.type || want.session !== event.session ||
        want.agent !== event.agent || !sameJson(event.data, want.data)
      ) return event;
      const { type, session, agent } = event;
      const same = { type, session, agent, data: want.data } as NewEvent;
      this.#encoded.add(same);
      return same;
    });
  }

  /** The harness the session is re-driven through, on the served effects and a held store. */
  #openHarness(): Promise<Harness> {
    const startedAt = Date.parse(this.#first.data.startedAt);
    const clock = () => new Date(startedAt);
    return createHarness({
      openStore: (onEvent, { eventTypes }) => this.#openStore(onEvent, eventTypes, clock),
      workspace: this.#first.data.workspace,
      effects: servedEffects(this, clock),
      ...(this.#options.mechanisms ? { mechanisms: this.#options.mechanisms } : {}),
      ...(this.#options.start ? { start: this.#options.start } : {}),
    });
  }

  /**
   * A store in memory whose appends wait for their turn in the recorded order, and whose every
   * event is compared with the recorded one, which the harness folds instead.
   */
  #openStore(
    onEvent: EventListener,
    eventTypes: readonly string[],
    clock: () => Date,
  ): EventStore {
    const raw = new MemoryEventStore({
      // The replay folds each event as it is appended, and holds none of them after that.
      keep: false,
      clock,
      eventTypes,
      onEvent: (event) => {
        const recordedEvent = this.#accept(event);
        if (!recordedEvent) return;
        try {
          onEvent(recordedEvent);
        } catch (error) {
          this.#damaged ??= { event: recordedEvent, error };
          throw error;
        }
        this.#folded += 1;
      },
      isEncoded: (event) => this.#encoded.has(event),
    });
    this.#raw = raw;
    return orderedStore(raw, (events) => this.#withRecordedData(events), async (events) => {
      const head = events[0];
      if (!head) return;
      const { index } = this.expected(head.agent, head.type);
      await this.order.before(index);
      if (this.#divergence) throw new Diverged();
    }, () => {
      if (this.#divergence) throw new Diverged();
    });
  }

  /**
   * Put each recorded event, as it is read, on its agent's tape, except the events the loops
   * never produce (the mechanisms' `fedTypes` and `fedEvent`: they are fed at their places).
   * Returns which those are.
   */
  #tapeEvents(live: Harness): (event: Envelope) => boolean {
    const types = new Set<EventType>(live.mechanisms.flatMap((m) => m.fedTypes ?? []));
    const told = live.mechanisms.flatMap((m) => m.fedEvent ? [m.fedEvent] : []);
    // Another session's event (a process that ran at the same time, on the same workspace-wide
    // task graph) is the world to this one: fed at its place, as its process found it.
    const fed = (event: Envelope) =>
      event.session !== this.#session || types.has(event.type) ||
      told.some((isFed) => isFed(event));
    const readOn = () => this.#recorded.more();
    this.#recorded.onRead((event, index) => {
      if (fed(event)) return;
      let tape = this.#tapes.get(event.agent);
      if (tape === undefined) this.#tapes.set(event.agent, tape = new AgentTape(readOn));
      tape.add(event, index);
    });
    return fed;
  }

  /**
   * Walk the recorded events in order: feed those from outside the loops, let a running agent
   * reproduce its own, and start an idle agent's run at its next input.
   */
  async #drive(live: Harness, fed: (event: Envelope) => boolean): Promise<void> {
    const recorded = this.#recorded;
    while (!this.#divergence && !recorded.failure) {
      const index = this.order.progress + 1;
      recorded.release(Math.min(index, this.#held()));
      const event = recorded.at(index);
      if (!event) break;
      const run = this.#runs.get(event.agent);
      if (fed(event)) {
        const { type, data, session, agent } = event;
        // Its data are the recorded event's: the store keeps them as they are.
        const fedEvent = { type, data, session, agent } as NewEvent;
        this.#encoded.add(fedEvent);
        this.#feeding = index;
        await (this.#raw as MemoryEventStore).append([fedEvent]);
      } else if (run?.active && this.#inEpoch(run, index)) {
        // Its run reproduces it. That may be the run just started for it (a resume): another
        // run's end wakes this loop before that run has appended its first event.
        await this.order.changed();
      } else if (run?.active) {
        await run.done; // the previous process's run ends at the resume
      } else {
        this.#start(live, event.agent, index);
        await this.order.changed();
      }
    }
    await Promise.all([...this.#runs.values()].map((run) => run.done));
  }

  /** Start the run of `agent` whose first event is at `index`. */
  #start(live: Harness, agent: string, index: number): void {
    const tape = this.tapeOf(agent) as AgentTape;
    const input = tape.nextInput();
    const controller = new AbortController();
    const startEvent = this.#recorded.at(index) as Envelope;
    const run: AgentRun = {
      agent,
      startIndex: index,
      epochEnd: undefined,
      controller,
      done: Promise.resolve(),
      active: true,
    };
    this.#runs.set(agent, run);
    const options = {
      signal: controller.signal,
      maxTurns: null,
      ...(this.#options.onText ? { onText: this.#options.onText } : {}),
    };
    const work = async () => {
      const loops = { live, loops: this.#loops };
      if (await driveInput(loops, agent, tape, input, options)) return;
      this.#diverge({
        seq: startEvent.seq,
        recorded: comparable(startEvent),
        replayed: null,
        reason: `the log has ${startEvent.type} where the replayed agent ${agent} was idle`,
      });
    };
    run.done = work().catch((error) => {
      if (
        !(error instanceof Diverged) && !(error instanceof TapeEnded) &&
        !(error instanceof ReadFailed) && !this.#recorded.failure
      ) {
        this.#record({
          seq: null,
          recorded: null,
          replayed: null,
          reason: `the replayed loop failed: ${error instanceof Error ? error.message : error}`,
        });
      }
    }).finally(() => {
      run.active = false;
      this.order.nudge();
    });
  }

  /**
   * The result. A replay that stopped short has not folded the rest of the session: fold it (the
   * root fold, which reads every payload), so that a damaged one there is reported as such
   * rather than behind the divergence it caused.
   */
  #finish(live: Harness): ReplayResult {
    const tapes = [...this.#tapes.values()];
    const matched = this.#fedCount + tapes.reduce((sum, tape) => sum + tape.cursor, 0);
    const recorded = this.#recorded;
    if (this.#damaged === null && !recorded.failure) {
      for (let event = recorded.at(this.#folded); event; event = recorded.at(++this.#folded)) {
        try {
          evolve(live.state, event, [], live.focused);
        } catch (error) {
          this.#damaged = { event, error };
          break;
        }
      }
    }
    const { session } = this.#first;
    return { session, matched, divergence: this.#divergence, damaged: this.#damaged };
  }
}
