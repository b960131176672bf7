import { lineUuid } from "./claude_transcript.ts";
import { hooksProjection } from "./hooks_projection.ts";
import { sliceOf, type State } from "../state/state.ts";

/** What hooks are told about the session beyond its id, from the log. */
export interface HookSessionFacts {
  promptId?: string;
  effort?: string;
}

/**
 * A session's `prompt_id` and `effort` for its hooks, from the state. `prompt_id` names the main
 * agent's user prompt whose turn this is, by its number in the session (`upcoming`: the prompt
 * about to be recorded, as UserPromptSubmit hooks see it), the same on every run of the log.
 * `effort` is the level whose thinking budget the session records (none when thinking is off).
 * Pure.
 */
export function hookSessionFacts(
  state: State,
  session: string,
  upcoming = false,
): HookSessionFacts {
  const view = state.sessions.byId[session];
  if (view === undefined) return {};
  const prompts = sliceOf(state, hooksProjection)[session]?.prompts[view.mainAgent] ?? 0;
  const number = prompts + (upcoming ? 1 : 0);
  const effort = effortOf(view.thinkingBudget, view.maxTokens);
  return {
    ...(number === 0 ? {} : { promptId: lineUuid(session, -number, 0) }),
    ...(effort === undefined ? {} : { effort }),
  };
}

/** The effort level (cli/model_choice.ts's budgets) a thinking budget stands for. Pure. */
export function effortOf(budget: number | null, maxTokens: number): string | undefined {
  if (budget === null) return undefined;
  if (budget >= maxTokens - 1) return "max";
  if (budget >= 16_384) return "high";
  if (budget >= 8_192) return "medium";
  return "low";
}
