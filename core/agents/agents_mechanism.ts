import type { Mechanism } from "../mechanism.ts";
import { agentOf } from "../state/sessions.ts";
import type { AnyTool } from "../tools/tool.ts";
import type { PoolScope } from "../tools/tool_pool.ts";
import type { AgentDefinition } from "./agent_definition.ts";
import { agentTypesOf } from "./agent_set.ts";
import { childTools } from "./child_tools.ts";
import { readAgentFiles } from "./read_agent_files.ts";
import { createTaskTool } from "./task_tool.ts";

/**
 * Subagents (s06): the `task` tool, which starts a child agent of the session with a fresh
 * conversation and returns its final answer; the child's pool (its type's tools, never `task`
 * unless named) and its system prompt section (its type's prompt), read from its
 * `agent.spawned`. The definitions of `.claude/agents/*.md` and `~/.claude/agents/*.md` are read
 * when a session starts or resumes and recorded with it; the tool reads the recorded copies. A
 * session recorded without the `agents` feature (an old log, before rein recorded settings) gets
 * no `task` tool, so its requests replay unchanged. `agent.spawned` is recorded by the parent's call for the child:
 * replay feeds it at its place and re-drives the child from its own events.
 */
export function agentsMechanism(): Mechanism {
  return {
    name: "agents",
    feature: "agents",
    fedTypes: ["agent.spawned"],
    tools: (scope) => [taskToolFor(scope)],
    filterTools(scope, tools) {
      const spawn = spawnOf(scope);
      return spawn ? childTools(tools, spawn.tools) : tools;
    },
    sections(scope) {
      const text = spawnOf(scope)?.systemPrompt;
      // The agent-specific prompt comes last (design: prompt assembly's order).
      return text === undefined ? [] : [{ id: "agent", stability: 2, text }];
    },
    readFiles: readAgentFiles,
  };
}

function spawnOf(scope: PoolScope) {
  const view = scope.state.sessions.byId[scope.session];
  return view ? agentOf(view, scope.agent).spawn : null;
}

const tools = new WeakMap<readonly AgentDefinition[], AnyTool>();

/** The task tool over the session's types, one object per recorded set (its schema is cached). */
function taskToolFor(scope: PoolScope): AnyTool {
  const types = agentTypesOf(scope.state, scope.session);
  let tool = tools.get(types);
  if (!tool) {
    tool = createTaskTool(types);
    tools.set(types, tool);
  }
  return tool;
}
