import type { MessagesRequest } from "../effects/model_client.ts";
import { agentOf } from "../state/sessions.ts";
import type { State } from "../state/state.ts";
import type { ToolPool } from "../tools/tool_pool.ts";
import { buildRequest } from "./request_body.ts";
import { buildSystemPrompt, type SystemSection } from "./system_prompt.ts";

/**
 * The request for `agent`'s next round in `session`, from the state alone: its model and limits,
 * the system prompt (with its pool's guidance and the mechanisms' sections), its pool's tool
 * definitions, and its conversation. Pure: replay rebuilds the same bytes from the log. Throws if
 * the session is not in the state.
 */
export function assembleRequest(
  state: State,
  session: string,
  agent: string,
  pool: ToolPool,
  sections: readonly SystemSection[] = [],
): MessagesRequest {
  const view = state.sessions.byId[session];
  if (!view) throw new Error(`No session "${session}" in the log`);
  const own = agentOf(view, agent);
  return buildRequest({
    model: own.model,
    maxTokens: own.maxTokens,
    system: buildSystemPrompt({
      // An agent moved into a worktree (or started in one with `rein -w`) is told it works there.
      workspace: own.place === null || own.place.cwd === ""
        ? view.workspace
        : `${view.workspace}/${own.place.cwd}`,
      clockAtStart: view.clockAtStart,
      platform: view.platform,
      model: own.model,
      tools: pool.tools,
      sections,
      instructions: view.systemPrompt,
      appended: view.appendSystemPrompt,
    }),
    tools: pool.definitions,
    messages: own.messages,
    thinkingBudget: view.thinkingBudget,
  });
}
