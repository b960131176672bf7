import type { Mechanism } from "./mechanism.ts";
import type { StageContext, StageHandlers } from "./loop/stages.ts";
import { hasFeature } from "./settings/session_features.ts";
import type { State } from "./state/state.ts";
import type { AnyTool } from "./tools/tool.ts";

/**
 * `mechanism` active only in sessions recorded with its `feature` (see `sessionFeatures`): in
 * another, it adds no tools, narrows no pool, adds no system prompt section or arrival, and its
 * stage handlers do nothing (each answers as a mechanism without that handler would). Its folds,
 * render lines, report, files and event types are its own whatever the session. A mechanism
 * without a feature is returned as it is. Pure.
 */
export function gatedByFeature(mechanism: Mechanism): Mechanism {
  const { feature } = mechanism;
  if (feature === undefined) return mechanism;
  const gated: Mechanism = { ...mechanism };
  const on = (scope: { state: State; session: string }) =>
    hasFeature(scope.state, scope.session, feature);
  const { tools, filterTools, sections, arrivals, stages } = mechanism;
  if (tools) gated.tools = (scope) => on(scope) ? tools(scope) : NO_TOOLS;
  if (filterTools) gated.filterTools = (scope, pool) => on(scope) ? filterTools(scope, pool) : pool;
  if (sections) gated.sections = (scope) => on(scope) ? sections(scope) : [];
  if (arrivals) gated.arrivals = (scope) => on(scope) ? arrivals(scope) : [];
  if (stages) {
    gated.stages = gatedStages(
      stages,
      (context) => on({ state: context.view(), session: context.session }),
    );
  }
  return gated;
}

const NO_TOOLS: readonly AnyTool[] = [];

/** What each stage answers when its handler does nothing (as composeStages reads it). */
const IDLE: { [K in keyof Required<StageHandlers>]: () => ReturnType<Required<StageHandlers>[K]> } =
  {
    beforePrompt: () => Promise.resolve({ events: [] }),
    beforeModel: () => Promise.resolve([]),
    afterModel: () => Promise.resolve({ events: [], continueTurn: false }),
    modelFailed: () => Promise.resolve([]),
    gateCall: () => Promise.resolve({ run: true }),
    afterCall: () => Promise.resolve([]),
    permissionRequest: () => Promise.resolve({}),
    stopAfterCalls: () => Promise.resolve(undefined),
    turnEnded: () => Promise.resolve([]),
    resumed: () => Promise.resolve([]),
    sessionEnding: () => Promise.resolve([]),
    compact: () =>
      Promise.resolve({
        compacted: false,
        reason: "this session was recorded without compaction",
        unavailable: true,
      }),
    beforeCompact: () => Promise.resolve({ events: [], instructions: [] }),
    afterCompact: () => Promise.resolve([]),
  };

/** `stages` whose handlers run only where `on` says so, and do nothing elsewhere. */
function gatedStages(
  stages: StageHandlers,
  on: (context: StageContext) => boolean,
): StageHandlers {
  const gated: Record<string, unknown> = {};
  for (const key of Object.keys(stages) as (keyof StageHandlers)[]) {
    const handler = stages[key] as ((...args: unknown[]) => Promise<unknown>) | undefined;
    if (handler === undefined) continue;
    const idle = IDLE[key];
    gated[key] = (context: StageContext, ...rest: unknown[]) =>
      on(context) ? handler.call(stages, context, ...rest) : idle();
  }
  return gated as StageHandlers;
}
