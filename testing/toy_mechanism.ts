/**
 * A test-only mechanism, to show that a mechanism is local: "tally" declares its own event
 * (through {@link ExtensionPayloads}), a projection of it, a workspace-wide slice (every
 * session's tally together, in the catalog), a decider tool, a system prompt section, a gate
 * stage, a line for its event and what it closes, a wake source (someone outside asks an idle
 * agent to add to the tally: `tally.asked`, fed in replay), and joins a harness through
 * `createHarness({mechanisms})` alone — no edit to the loop, the request builder or replay.
 *
 * @module
 */
import { z } from "zod";
import type { Envelope } from "../events/event_types.ts";
import type { Mechanism } from "../core/mechanism.ts";
import { type CatalogProjection, catalogSliceOf } from "../core/state/catalog.ts";
import type { Projection } from "../core/state/projection.ts";
import { renderedLine } from "../core/state/rendered_line.ts";
import { sliceOf, type State } from "../core/state/state.ts";
import type { Tool } from "../core/tools/tool.ts";
import type { PoolScope } from "../core/tools/tool_pool.ts";
import type { Arrival } from "../core/loop/arrivals.ts";

declare module "../events/event_types.ts" {
  interface ExtensionPayloads {
    /** The tally of a session went up by `by`, to `total`. */
    "tally.added": { by: number; total: number };
    /** Someone outside the agent's loop asked it to add `by` (it reaches the agent as an arrival). */
    "tally.asked": { by: number };
  }
}

/** The tally may not pass this. */
export const TALLY_LIMIT = 10;

/** What the tally mechanism folds of each session. */
export interface TallySlice {
  /** The tally of each session, by session id. */
  totals: Record<string, number>;
  /** Asks not yet put before their agent, by session id, in log order. */
  asked: Record<string, { agent: string; by: number; seq: number }[]>;
}

/** The tally source of arrivals (its `arrival.injected` events). */
const TALLY_SOURCE = "tally";

/** The tally of each session, and what the session's agents were asked to add. */
export const tallyProjection: Projection<TallySlice> = {
  key: "tally",
  canHandle: ["tally.added", "tally.asked", "arrival.injected"],
  initial: () => ({ totals: {}, asked: {} }),
  evolve(slice, event: Envelope) {
    if (event.type === "tally.added") slice.totals[event.session] = event.data.total;
    if (event.type === "tally.asked") {
      (slice.asked[event.session] ??= []).push({
        agent: event.agent,
        by: event.data.by,
        seq: event.seq,
      });
    }
    if (event.type === "arrival.injected" && event.data.source === TALLY_SOURCE) {
      const asked = slice.asked[event.session] ?? [];
      slice.asked[event.session] = asked.filter((ask) => `${ask.seq}` !== event.data.key);
    }
    return slice;
  },
};

/** The tally of `session` now. Pure. */
export function tallyOf(state: State, session: string): number {
  return sliceOf(state, tallyProjection).totals[session] ?? 0;
}

/** What `scope`'s agent was asked to add and has not been told yet. Pure. */
function tallyAsks(scope: PoolScope): Arrival[] {
  const asked = sliceOf(scope.state, tallyProjection).asked[scope.session] ?? [];
  return asked.filter((ask) => ask.agent === scope.agent).map((ask) => ({
    source: TALLY_SOURCE,
    key: `${ask.seq}`,
    seq: ask.seq,
    text: `Please add ${ask.by} to the tally.`,
  }));
}

/** What every session of the workspace added together, and how many additions that took. */
export interface WorkspaceTally {
  total: number;
  additions: number;
}

/** The workspace's tally: a workspace-wide slice, folded from every session's events. */
export const workspaceTallyProjection: CatalogProjection<WorkspaceTally> = {
  key: "tally",
  canHandle: ["tally.added"],
  initial: () => ({ total: 0, additions: 0 }),
  evolve(slice, event: Envelope) {
    if (event.type === "tally.added") {
      slice.total += event.data.by;
      slice.additions += 1;
    }
    return slice;
  },
};

/** The workspace's tally now (every session's). Pure. */
export function workspaceTallyOf(state: State): WorkspaceTally {
  return catalogSliceOf(state.catalog, workspaceTallyProjection);
}

const schema = z.object({ by: z.number().int().positive().describe("How much to add") });

/** A decider tool: its result and its event are a pure function of its input and the state. */
export const tallyAddTool: Tool<z.infer<typeof schema>> = {
  name: "tally_add",
  description: "Adds to the session's tally and says the new total.",
  schema,
  kind: "decider",
  readOnly: false,
  guidance: "Use tally_add to count things the user asks you to count.",
  summarize: (input) => `+${input.by}`,
  run(input, context) {
    const total = tallyOf(context.view(), context.session) + input.by;
    return Promise.resolve({
      content: `Tally is now ${total}`,
      events: [{ type: "tally.added", data: { by: input.by, total } }],
    });
  },
};

/** The tally mechanism, as a harness registers it. */
export const tallyMechanism: Mechanism = {
  name: "tally",
  eventTypes: ["tally.added", "tally.asked"],
  projection: tallyProjection,
  fedTypes: ["tally.asked"],
  arrivals: tallyAsks,
  // An ask that reaches the idle agent wakes it for a turn on it.
  wake: {
    pending: (scope) => tallyAsks(scope).map(({ source, key, seq }) => ({ source, key, seq })),
  },
  catalog: workspaceTallyProjection,
  tools: () => [tallyAddTool],
  render: (event) =>
    event.type === "tally.added"
      ? [renderedLine(`— tally +${event.data.by}, now ${event.data.total}`, "dim")]
      : event.type === "tally.asked"
      ? [renderedLine(`— asked to add ${event.data.by} to the tally`, "dim")]
      : undefined,
  sections(scope) {
    const total = tallyOf(scope.state, scope.session);
    const workspace = workspaceTallyOf(scope.state).total;
    return [
      ...(total === 0 ? [] : [{ id: "tally", stability: 2, text: `Tally so far: ${total}` }]),
      ...(workspace === total
        ? []
        : [{ id: "tally-workspace", stability: 2, text: `Workspace total: ${workspace}` }]),
    ];
  },
  stages: {
    gateCall(context, call) {
      const by = (call.input as { by?: unknown })?.by;
      if (call.name !== "tally_add" || typeof by !== "number") {
        return Promise.resolve({ run: true });
      }
      const total = tallyOf(context.view(), context.session);
      if (total + by <= TALLY_LIMIT) return Promise.resolve({ run: true });
      return Promise.resolve({
        run: false,
        outcome: "denied",
        reason: `the tally would pass ${TALLY_LIMIT} (it is ${total})`,
      });
    },
  },
};
