import { composeStages, type StageContext } from "../core/loop/stages.ts";
import type { State } from "../core/state/state.ts";

const unexpected = (what: string) => () => Promise.reject(new Error(`${what}: not expected here`));

/**
 * What a stage handler sees, for a mechanism's unit test: agent "lead" of session "s1" over
 * `state`. Recording does nothing; readings of the world, model calls and request assembly fail
 * unless the test gives them in `overrides`.
 */
export function testStageContext(
  state: State,
  overrides: Partial<StageContext> = {},
): StageContext {
  return {
    session: "s1",
    agent: "lead",
    view: () => state,
    signal: new AbortController().signal,
    observe: unexpected("observe"),
    observeMaybe: unexpected("observeMaybe"),
    waitFor: unexpected("waitFor"),
    record: () => Promise.resolve(),
    askModel: unexpected("askModel"),
    stages: composeStages([]),
    nextRequest: () => {
      throw new Error("nextRequest: not expected here");
    },
    ...overrides,
  };
}
