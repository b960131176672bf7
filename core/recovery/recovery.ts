import type { Mechanism } from "../mechanism.ts";
import { fallBack, restore } from "./fallback.ts";
import { afterOutputLimit } from "./output_limit.ts";

/**
 * Error recovery beyond retrying (s11), as one mechanism: the fallback model for an overloaded
 * one, the full output limit and then continuations for an answer cut off at the limit, and the
 * return to the turn's model when it ends. Every decision is a pure function of the state,
 * recorded as events, so replay decides the same.
 */
export const recoveryMechanism: Mechanism = {
  name: "recovery",
  stages: {
    modelFailed: (context) =>
      Promise.resolve(fallBack(context.view(), context.session, context.agent)),
    afterModel: (context, reply) =>
      Promise.resolve(afterOutputLimit(context.view(), context.session, context.agent, reply)),
    turnEnded: (context) =>
      Promise.resolve(restore(context.view(), context.session, context.agent)),
  },
};
