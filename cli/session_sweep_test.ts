import assert from "node:assert/strict";
import type { Envelope } from "../events/event_types.ts";
import { sweepSessions, type SweepUnit } from "./session_sweep.ts";

/** A log whose event `i` (seq i + 1) belongs to session `sessions[i]`. */
function logOf(sessions: string): Envelope[] {
  return [...sessions].map((session, i) => ({
    v: 2,
    seq: i + 1,
    ts: "2026-11-22T00:00:00.000Z",
    type: "turn.started",
    session,
    agent: "lead",
    data: { roundsBefore: 0, maxTurns: null },
  }));
}

/** The units of `log`, in order of first event. */
function unitsOf(log: readonly Envelope[]): SweepUnit[] {
  const units = new Map<string, SweepUnit>();
  for (const event of log) {
    const unit = units.get(event.session);
    if (unit) {
      unit.end = event.seq;
      unit.weight++;
    } else {units.set(event.session, {
        id: event.session,
        start: event.seq,
        end: event.seq,
        weight: 1,
      });}
  }
  return [...units.values()];
}

/** Sweep `sessions` with `budget`; what was emitted, passes read, and the most weight held. */
async function sweep(sessions: string, budget: number) {
  const log = logOf(sessions);
  const emitted: string[] = [];
  let passes = 0;
  let open = 0;
  let mostOpen = 0;
  await sweepSessions(unitsOf(log), {
    budget,
    read: async function* () {
      passes++;
      yield* log;
    },
    open: (unit) => {
      const seen: number[] = [];
      open += unit.weight;
      mostOpen = Math.max(mostOpen, open);
      return {
        add: (event) => seen.push(event.seq),
        close: () => {
          open -= unit.weight;
          return { weight: 0, emit: () => void emitted.push(`${unit.id}:${seen.join(",")}`) };
        },
      };
    },
  });
  return { emitted, passes, mostOpen };
}

Deno.test("sessions one after the other are swept in one pass, one at a time", async () => {
  const { emitted, passes, mostOpen } = await sweep("aaabbbcc", 3);
  assert.deepEqual(emitted, ["a:1,2,3", "b:4,5,6", "c:7,8"]);
  assert.equal(passes, 1);
  assert.equal(mostOpen, 3);
});

Deno.test("a session resumed later is emitted first, with all its events", async () => {
  const { emitted, passes } = await sweep("aabbccaa", 100);
  assert.deepEqual(emitted, ["a:1,2,7,8", "b:3,4", "c:5,6"]);
  assert.equal(passes, 1);
});

Deno.test("interleaved sessions past the budget wait for another pass, and still come in order", async () => {
  const { emitted, passes, mostOpen } = await sweep("abcabcabc", 3);
  assert.deepEqual(emitted, ["a:1,4,7", "b:2,5,8", "c:3,6,9"]);
  assert.equal(passes, 3);
  assert.equal(mostOpen, 3);
});

Deno.test("a session larger than the budget is still taken, alone", async () => {
  const { emitted, mostOpen } = await sweep("aaaaab", 2);
  assert.deepEqual(emitted, ["a:1,2,3,4,5", "b:6"]);
  assert.equal(mostOpen, 5);
});

Deno.test("a log that lost a session's events since it was indexed is an error, not a hang", async () => {
  const log = logOf("aab");
  await assert.rejects(
    sweepSessions([...unitsOf(log), { id: "c", start: 4, end: 5, weight: 2 }], {
      budget: 10,
      read: async function* () {
        yield* log;
      },
      open: () => ({ add() {}, close: () => ({ weight: 0, emit() {} }) }),
    }),
    /The log changed while it was read: session c/,
  );
});
