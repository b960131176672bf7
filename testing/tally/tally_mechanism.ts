import type { Mechanism } from "../../core/mechanism.ts";
import { renderedLine } from "../../core/state/rendered_line.ts";
import type { AnyTool } from "../../core/tools/tool.ts";
import { tallyAddTool } from "./tally_add.ts";
import { tallyEnabled } from "./tally_enabled.ts";
import { TALLY_EVENT_TYPES } from "./tally_extension.ts";
import { tallyPeekTool } from "./tally_peek.ts";
import { tallyAsks, tallyOf, tallyProjection } from "./tally_projection.ts";
import { renderTally } from "./tally_render.ts";
import { type TallyOn, tallyWake } from "./tally_wake.ts";
import { workspaceTallyOf, workspaceTallyProjection } from "./workspace_tally.ts";

/** The tally may not pass this. */
export const TALLY_LIMIT = 10;

const TOOLS: readonly AnyTool[] = [tallyAddTool, tallyPeekTool];
const NO_TOOLS: readonly AnyTool[] = [];

/** How the tally is made. */
export interface TallyOptions {
  /**
   * Tell the model the workspace's total too (a system prompt section from the workspace-wide
   * slice, other sessions' events). Off for rein: `replay --verify` re-drives a session from its
   * own events alone, so such a section in a session after another's additions would not replay.
   */
  workspaceSection?: boolean;
}

/**
 * The tally, active in the sessions `on` says: its tools, system prompt sections, arrivals,
 * wake-ups and gate. Its folds (the session's tally and the workspace's), render lines and report
 * are its own whatever the session.
 */
export function createTallyMechanism(on: TallyOn, options: TallyOptions = {}): Mechanism {
  return {
    name: "tally",
    eventTypes: TALLY_EVENT_TYPES,
    projection: tallyProjection,
    catalog: workspaceTallyProjection,
    fedTypes: ["tally.asked"],
    arrivals: (scope) => on(scope.state, scope.session) ? tallyAsks(scope) : [],
    // An ask that reaches an idle agent wakes it for a turn on it.
    wake: tallyWake(on),
    tools: (scope) => on(scope.state, scope.session) ? TOOLS : NO_TOOLS,
    // TallyAdd and TallyPeek, for permission rules, hook matchers and agent definitions.
    toolFacts: TOOLS,
    render: renderTally,
    report(state, { session }) {
      const workspace = workspaceTallyOf(state);
      if (!on(state, session) && workspace.additions === 0) return [];
      return [{
        title: "tally",
        lines: [
          renderedLine(`session: ${tallyOf(state, session)}`),
          renderedLine(`workspace: ${workspace.total} in ${workspace.additions} additions`),
        ],
      }];
    },
    sections(scope) {
      if (!on(scope.state, scope.session)) return [];
      const total = tallyOf(scope.state, scope.session);
      const workspace = options.workspaceSection ? workspaceTallyOf(scope.state).total : total;
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
        const state = context.view();
        if (!on(state, context.session)) return Promise.resolve({ run: true });
        const total = tallyOf(state, context.session);
        if (total + by <= TALLY_LIMIT) return Promise.resolve({ run: true });
        return Promise.resolve({
          run: false,
          outcome: "denied",
          reason: `the tally would pass ${TALLY_LIMIT} (it is ${total})`,
        });
      },
    },
  };
}

/**
 * The tally as rein registers it: on in the sessions whose settings enable it
 * (`"tally": { "enabled": true }`, see `tallyEnabled`), so it changes nothing for the others.
 */
export const tallyMechanism: Mechanism = createTallyMechanism(tallyEnabled);

/**
 * The tally on in every session, telling the model the workspace's total, as the tests of a
 * harness register it through `createHarness`.
 */
export const tallyEverywhere: Mechanism = createTallyMechanism(() => true, {
  workspaceSection: true,
});
