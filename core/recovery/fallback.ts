import type { ReinEvent } from "../../events/event_types.ts";
import type { StageHandlers } from "../loop/stages.ts";
import { agentOf } from "../state/sessions.ts";
import type { State } from "../state/state.ts";

/** Overloaded (529) failures in a row on one request after which the fallback model is used. */
export const FALLBACK_AFTER = 3;

/**
 * Error recovery beyond retrying (s11): after {@link FALLBACK_AFTER} overloaded failures in a
 * row, an agent whose session has a fallback model switches to it for the rest of the turn, and
 * back when the turn ends. Both switches are `model.switched` events, decided from the state
 * alone, so replay makes the same decisions.
 */
export const fallbackStages: StageHandlers = {
  modelFailed(context) {
    return Promise.resolve(fallBack(context.view(), context.session, context.agent));
  },
  turnEnded(context) {
    return Promise.resolve(restore(context.view(), context.session, context.agent));
  },
};

/** The switch to the fallback model, when it is due. Pure. */
export function fallBack(state: State, session: string, agent: string): ReinEvent[] {
  const view = state.sessions.byId[session];
  if (!view?.fallbackModel) return [];
  const own = agentOf(view, agent);
  if (own.overloadedInARow < FALLBACK_AFTER || own.model === view.fallbackModel) return [];
  return [{
    type: "model.switched",
    data: {
      model: view.fallbackModel,
      maxTokens: own.maxTokens,
      from: own.model,
      reason: "fallback",
    },
  }];
}

/** The switch back to the model a turn fell back from, at its end. Pure. */
export function restore(state: State, session: string, agent: string): ReinEvent[] {
  const view = state.sessions.byId[session];
  if (!view) return [];
  const own = agentOf(view, agent);
  if (!own.fellBackFrom) return [];
  return [{
    type: "model.switched",
    data: {
      model: own.fellBackFrom.model,
      maxTokens: own.fellBackFrom.maxTokens,
      from: own.model,
      reason: "restore",
    },
  }];
}
