import assert from "node:assert/strict";
import fc from "fast-check";
import type { Envelope } from "../../events/event_types.ts";
import { evolve, evolveFocused, initialState, type State } from "../state/state.ts";
import { mainAgentOf } from "../state/sessions.ts";
import type { Projection } from "../state/projection.ts";
import { todosProjection } from "../todos/todos_projection.ts";
import { permissionsProjection } from "../permissions/permissions_projection.ts";
import { hooksProjection } from "../hooks/hooks_projection.ts";
import { datesProjection } from "../environment/date_projection.ts";
import { memoryProjection } from "../memory/memory_projection.ts";
import { forkSources } from "./load_sessions.ts";
import { randomLog } from "../../testing/random_log.ts";

const PROJECTIONS: Projection[] = [
  todosProjection as Projection,
  permissionsProjection as Projection,
  hooksProjection as Projection,
  datesProjection as Projection,
  memoryProjection as Projection,
];

function fold(events: readonly Envelope[], focus: "all" | ReadonlySet<string>, from?: State) {
  const state = from ?? initialState(PROJECTIONS);
  for (const event of events) evolve(state, event, PROJECTIONS, focus);
  return state;
}

/** As a snapshot stores it and a later process reads it back. */
function stored<T>(value: T): T {
  return JSON.parse(JSON.stringify(value));
}

/** The parts of `state` that concern `ids`: their views and their mechanism entries. */
function sessionsOf(state: State, ids: readonly string[]) {
  return {
    views: ids.map((id) => state.sessions.byId[id]),
    entries: PROJECTIONS.map((p) =>
      ids.map((id) => (state.extensions[p.key] as Record<string, unknown>)[id])
    ),
  };
}

const logAndCut = randomLog().chain((events) =>
  fc.tuple(fc.constant(events), fc.nat({ max: events.length }))
);

Deno.test("a catalog snapshot plus the suffix folds to the catalog of the whole log", () => {
  fc.assert(fc.property(logAndCut, ([events, cut]) => {
    const whole = fold(events, new Set());
    const snapshot = stored(fold(events.slice(0, cut), new Set()));
    const resumed = fold(events.slice(cut), new Set(), snapshot);
    assert.deepEqual(stored(resumed.catalog), stored(whole.catalog));
    assert.equal(resumed.lastSeq, whole.lastSeq);
  }));
});

Deno.test("a session snapshot plus the suffix folds to the session's state in the whole log", () => {
  fc.assert(fc.property(logAndCut, fc.nat({ max: 3 }), ([events, cut], index) => {
    const id = `s${index}`;
    const whole = fold(events, "all");
    // The session as focused alone, snapshot at the cut (its fork sources folded with it). A
    // session that had not started by the cut is in no snapshot taken there: it is folded from
    // the log's start with its fork sources, as loadSessions does (those are known only once
    // the session has started, so a snapshot before it has not folded them).
    const catalog = fold(events.slice(0, cut), new Set()).catalog;
    const focus = new Set(forkSources(catalog, [id]));
    const started = catalog.byId[id] !== undefined;
    const snapshot = started ? stored(fold(events.slice(0, cut), focus)) : undefined;
    const later = fold(events, new Set()).catalog;
    const rest = new Set([...focus, ...forkSources(later, [id])]);
    const resumed = fold(started ? events.slice(cut) : events, rest, snapshot);
    assert.deepEqual(stored(sessionsOf(resumed, [id])), stored(sessionsOf(whole, [id])));
  }));
});

Deno.test("a session folded alone from its start matches the fold of every session", () => {
  fc.assert(fc.property(randomLog(), fc.nat({ max: 3 }), (events, index) => {
    const id = `s${index}`;
    const whole = fold(events, "all");
    const focus = new Set(forkSources(whole.catalog, [id]));
    const alone = initialState(PROJECTIONS);
    for (const event of events) {
      if (focus.has(event.session)) evolveFocused(alone, event, PROJECTIONS);
    }
    assert.deepEqual(stored(sessionsOf(alone, [id])), stored(sessionsOf(whole, [id])));
  }));
});

Deno.test("the catalog agrees with the full session views on every field they share", () => {
  fc.assert(fc.property(randomLog(), (events) => {
    const whole = fold(events, "all");
    assert.deepEqual(whole.catalog.order, whole.sessions.order);
    for (const id of whole.catalog.order) {
      const entry = whole.catalog.byId[id]!;
      const view = whole.sessions.byId[id]!;
      assert.deepEqual(
        {
          startedAt: entry.startedAt,
          model: entry.model,
          maxTokens: entry.maxTokens,
          workspace: entry.workspace,
          mainAgent: entry.mainAgent,
          forkedFrom: entry.forkedFrom,
          firstPrompt: entry.firstPrompt,
          status: entry.status,
          lastError: entry.lastError,
          usage: entry.usage,
          usageByModel: entry.usageByModel,
          rounds: entry.rounds,
          lastSeq: entry.lastSeq,
        },
        {
          startedAt: view.startedAt,
          model: view.model,
          maxTokens: view.maxTokens,
          workspace: view.workspace,
          mainAgent: view.mainAgent,
          forkedFrom: view.forkedFrom,
          firstPrompt: view.firstPrompt,
          status: view.status,
          lastError: view.lastError,
          usage: view.usage,
          usageByModel: view.usageByModel,
          rounds: mainAgentOf(view).rounds,
          lastSeq: view.lastSeq,
        },
      );
      assert.equal(entry.events, events.filter((e) => e.session === id).length);
    }
  }));
});

Deno.test("a fold that follows no session keeps no view and no mechanism entry", () => {
  fc.assert(fc.property(randomLog(), (events) => {
    const state = fold(events, new Set());
    assert.deepEqual(state.sessions, { byId: {}, order: [] });
    for (const p of PROJECTIONS) assert.deepEqual(state.extensions[p.key], p.initial());
  }));
});
