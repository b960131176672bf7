import type { Envelope, EventPayloads } from "../../events/event_types.ts";
import { MemoryEventStore } from "../../events/memory_store.ts";
import { protocolsProjection } from "../protocols/mod.ts";
import { evolve, initialState, type State } from "../state/state.ts";
import { rosterProjection } from "../team/mod.ts";
import { questionsProjection } from "./questions_projection.ts";

const PROJECTIONS = [questionsProjection, protocolsProjection];
const CATALOG = [rosterProjection];

/** An `agent.spawned` of teammate alice (in `mode` when given). Test helper. */
export function aliceSpawned(mode?: string): EventPayloads["agent.spawned"] {
  return {
    parent: "lead",
    callId: "toolu_spawn",
    type: "teammate",
    description: "a teammate",
    model: "claude-test",
    maxTokens: 1000,
    maxTurns: 50,
    teammate: { prompt: "work", ...(mode === undefined ? {} : { mode }) },
  };
}

/** A process on a shared in-memory log: its store and the state its listener folds. */
export interface Process {
  store: MemoryEventStore;
  state: () => State;
}

function folding(make: (onEvent: (event: Envelope) => void) => MemoryEventStore): Process {
  const state = initialState(PROJECTIONS, CATALOG);
  const store = make((event) => evolve(state, event, PROJECTIONS, "all", CATALOG));
  return { store, state: () => state };
}

/**
 * The lead's process and a teammate's on one log, which holds session s1 started by the lead
 * with teammate alice spawned (in `mode`). Test helper.
 */
export async function leadAndTeammate(mode?: string): Promise<{ lead: Process; alice: Process }> {
  const clock = () => new Date("2026-11-29T09:00:00.000Z");
  const lead = folding((onEvent) => new MemoryEventStore({ clock, onEvent }));
  await lead.store.append([
    {
      type: "session.started",
      session: "s1",
      agent: "lead",
      data: {
        model: "claude-test",
        workspace: "/work/project",
        startedAt: "2026-11-29T09:00:00.000Z",
        maxTokens: 1000,
        platform: "linux x86_64",
      },
    },
    { type: "agent.spawned", session: "s1", agent: "alice", data: aliceSpawned(mode) },
  ]);
  const alice = folding((onEvent) => lead.store.connect({ clock, onEvent }));
  return { lead, alice };
}
