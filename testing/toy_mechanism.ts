/**
 * A test-only mechanism, to show that a mechanism is local: "tally" declares its own event
 * (through {@link ExtensionPayloads}), a projection of it, a workspace-wide slice (every
 * session's tally together, in the catalog), a decider tool, a system prompt section, a gate
 * stage, a line for its event and what it closes, and joins a harness through
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

declare module "../events/event_types.ts" {
  interface ExtensionPayloads {
    /** The tally of a session went up by `by`, to `total`. */
    "tally.added": { by: number; total: number };
  }
}

/** The tally may not pass this. */
export const TALLY_LIMIT = 10;

/** The tally of each session, by session id. */
export const tallyProjection: Projection<Record<string, number>> = {
  key: "tally",
  canHandle: ["tally.added"],
  initial: () => ({}),
  evolve(totals, event: Envelope) {
    if (event.type === "tally.added") totals[event.session] = event.data.total;
    return totals;
  },
};

/** The tally of `session` now. Pure. */
export function tallyOf(state: State, session: string): number {
  return sliceOf(state, tallyProjection)[session] ?? 0;
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
  eventTypes: ["tally.added"],
  projection: tallyProjection,
  catalog: workspaceTallyProjection,
  tools: () => [tallyAddTool],
  render: (event) =>
    event.type === "tally.added"
      ? [renderedLine(`— tally +${event.data.by}, now ${event.data.total}`, "dim")]
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
