import type { Envelope, EventPayloads, ReinEvent } from "../../events/event_types.ts";
import { evolve, initialState, type State } from "../state/state.ts";
import { protocolsProjection } from "./protocol_projection.ts";

/** The projections a protocols test folds. */
export const PROJECTIONS = [protocolsProjection];

/** An `agent.spawned` of a teammate (in `mode` when given), for tests. */
export function teammateSpawned(mode?: string): EventPayloads["agent.spawned"] {
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

/**
 * A state folded from events given as `[agent, event]` in session s1 (lead first, then a
 * teammate alice in `mode`), then `more`. Test helper.
 */
export function protocolState(
  mode: string | undefined,
  more: readonly (readonly [string, ReinEvent])[] = [],
  teams = false,
): State {
  const state = initialState(PROJECTIONS);
  let seq = 0;
  const fold = (agent: string, event: ReinEvent) => {
    seq += 1;
    evolve(
      state,
      { v: 2, seq, ts: "2026-11-29T06:00:00.000Z", session: "s1", agent, ...event } as Envelope,
      PROJECTIONS,
    );
  };
  fold("lead", {
    type: "session.started",
    data: {
      model: "claude-test",
      workspace: "/work/project",
      startedAt: "2026-11-29T06:00:00.000Z",
      maxTokens: 1000,
      platform: "linux x86_64",
      ...(teams
        ? {
          settings: {
            sources: [],
            flags: {},
            home: "/nonexistent-home",
            interactive: false,
            env: { CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS: "1" },
            features: ["teams"],
          },
        }
        : {}),
    },
  });
  fold("alice", { type: "agent.spawned", data: teammateSpawned(mode) });
  for (const [agent, event] of more) fold(agent, event);
  return state;
}

/** Fold `events` (a tool result's) into `state` as `agent`'s. Test helper. */
export function foldAs(state: State, agent: string, events: readonly ReinEvent[] = []): State {
  for (const event of events) {
    evolve(
      state,
      {
        v: 2,
        seq: state.lastSeq + 1,
        ts: "2026-11-29T06:00:00.000Z",
        session: "s1",
        agent,
        ...event,
      } as Envelope,
      PROJECTIONS,
    );
  }
  return state;
}
