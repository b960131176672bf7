import type { Envelope } from "../events/event_types.ts";

/** One session as {@link sweepSessions} handles it. */
export interface SweepUnit {
  id: string;
  /** seq of the session's first event to hand over, and of its last. */
  start: number;
  end: number;
  /** What handling it costs while it is open, in events (its event count, usually). */
  weight: number;
}

/** What a unit leaves once its last event is in: what it still holds, and its output. */
export interface SweepReady {
  /** Weight still held until `emit` has run (0 when only its output, as bytes, is left). */
  weight: number;
  emit(): Promise<void> | void;
}

/** The consumer of one unit's events, opened when the sweep takes the unit up. */
export interface SweepSink {
  add(event: Envelope): void;
  /**
   * Called after the unit's last event. `inOrder`: every unit before it has been emitted, so
   * its output may be written at once (its `emit` runs right after).
   */
  close(inOrder: boolean): SweepReady | Promise<SweepReady>;
}

/** How {@link sweepSessions} reads and handles a log. */
export interface SweepOptions {
  /**
   * The log's events in seq order, from event `from` at the latest (the first unit the pass
   * takes starts there; events before it are skipped); called once per pass.
   */
  read(from: number): AsyncIterable<Envelope> | Promise<AsyncIterable<Envelope>>;
  open(unit: SweepUnit): SweepSink;
  /** Weight that may be open or waiting at once; one unit is always taken, whatever its weight. */
  budget: number;
  /** Every event each pass reads, before it reaches a sink (a pass may re-read events). */
  onRead?: (event: Envelope) => void;
}

/**
 * Hand each session's events to its own sink and emit the sessions in the order of `units`
 * (sorted by `start`), holding at most `budget` weight at once: a unit is opened at its first
 * event, closed at its last and emitted once every unit before it has been. Sessions that run
 * one after the other take one pass over the log; when units that overlap (a session resumed
 * much later) would hold more than the budget, the units after them wait for another pass, which
 * starts reading again. Throws what the reader, a sink or an emit throws, and an `Error` when a
 * pass ends before a unit's last event (the log changed while it was read).
 */
export async function sweepSessions(
  units: readonly SweepUnit[],
  options: SweepOptions,
): Promise<void> {
  let next = 0;
  while (next < units.length) {
    const after = await sweepPass(units, next, options);
    if (after === next) {
      throw new Error(`The log changed while it was read: session ${units[next]?.id} is gone`);
    }
    next = after;
  }
}

/** One pass, from the unit at `next`; returns the index of the first unit it did not emit. */
async function sweepPass(
  units: readonly SweepUnit[],
  first: number,
  { read, open, budget, onRead }: SweepOptions,
): Promise<number> {
  const from = units[first]?.start ?? Infinity;
  const sinks = new Map<string, { index: number; sink: SweepSink }>();
  const ready = new Map<number, SweepReady>();
  let next = first;
  let taken = first;
  let held = 0;
  let deferring = false;
  const emitReady = async () => {
    for (let done = ready.get(next); done !== undefined; done = ready.get(next)) {
      ready.delete(next);
      held -= done.weight;
      await done.emit();
      next++;
    }
  };
  for await (const event of await read(from)) {
    onRead?.(event);
    if (event.seq < from) continue;
    for (let unit = units[taken]; !deferring && unit !== undefined && unit.start <= event.seq;) {
      if (taken > next && held + unit.weight > budget) {
        deferring = true;
        break;
      }
      sinks.set(unit.id, { index: taken, sink: open(unit) });
      held += unit.weight;
      unit = units[++taken];
    }
    const current = sinks.get(event.session);
    if (current !== undefined && event.seq <= (units[current.index]?.end ?? 0)) {
      const unit = units[current.index] as SweepUnit;
      current.sink.add(event);
      if (event.seq === unit.end) {
        sinks.delete(event.session);
        const done = await current.sink.close(current.index === next);
        held += done.weight - unit.weight;
        ready.set(current.index, done);
        await emitReady();
      }
    }
    if (deferring && sinks.size === 0) break;
  }
  if (sinks.size > 0) {
    const [id] = sinks.keys();
    throw new Error(`The log changed while it was read: session ${id} ended early`);
  }
  await emitReady();
  return next;
}
