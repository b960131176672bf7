import type { ReinEvent } from "../../events/event_types.ts";
import { maxOutputOf } from "../models/catalogue.ts";
import { agentOf } from "../state/sessions.ts";
import type { State } from "../state/state.ts";

/** Overloaded (529) failures in a row on one request after which the fallback model is used. */
export const FALLBACK_AFTER = 3;

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
      maxTokens: Math.min(own.maxTokens, maxOutputOf(view.fallbackModel)),
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
