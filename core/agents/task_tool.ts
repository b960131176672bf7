import type { z } from "zod";
import type { TurnResult } from "../loop/run_turn.ts";
import { lastAssistantText } from "../state/conversation.ts";
import type { AgentView } from "../state/sessions.ts";
import { lazySchema } from "../tools/schema.ts";
import type { Tool, ToolCallContext, ToolResult, Zod } from "../tools/tool.ts";
import type { AgentDefinition } from "./agent_definition.ts";
import { DEFAULT_AGENT_TYPE } from "./built_in_agents.ts";
import { TASK_TOOL } from "./child_tools.ts";
import { childAgentName, planSpawn } from "./plan_spawn.ts";
import { spawnRefusal } from "./spawn_limits.ts";

/** The input's zod schema, built on the tool's first call (zod is not loaded at start-up). */
function inputSchema(z: Zod) {
  return z.strictObject({
    description: z.string().describe("A short (3-5 word) description of the task"),
    prompt: z.string().min(1).describe("The task for the agent to perform, with all it needs"),
    subagent_type: z.string().optional().describe(
      `The type of agent to start (default: ${DEFAULT_AGENT_TYPE})`,
    ),
  });
}

/** Input of the task tool (Claude Code's Task / Agent). */
export type TaskInput = z.infer<ReturnType<typeof inputSchema>>;

/** The JSON Schema the model sees; `task_tool_test.ts` checks it equals the zod schema's. */
export const TASK_INPUT_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    description: { type: "string", description: "A short (3-5 word) description of the task" },
    prompt: {
      type: "string",
      description: "The task for the agent to perform, with all it needs",
      minLength: 1,
    },
    subagent_type: {
      type: "string",
      description: `The type of agent to start (default: ${DEFAULT_AGENT_TYPE})`,
    },
  },
  required: ["description", "prompt"],
  additionalProperties: false,
};

/** The tool's description, listing the subagent types the session has. Pure. */
export function taskDescription(types: readonly AgentDefinition[]): string {
  const lines = types.map((type) => {
    const tools = type.tools === undefined ? "all tools but task" : type.tools.join(", ");
    return `- ${type.name}: ${type.description} (Tools: ${tools})`;
  });
  return `Starts a subagent: another agent with a fresh conversation and its own tools, which works on the task on its own and returns only its final answer. Use it for searches and investigations that would fill your context with files and output, and for independent pieces of work.

Available agent types:
${lines.join("\n")}

- Give the agent everything it needs in \`prompt\`: it sees none of your conversation, and it cannot ask you questions.
- Several task calls in one answer run at the same time; start independent agents together.
- Its answer is not shown to the user: tell the user what matters from it.`;
}

/**
 * The task tool (Claude Code's Task / Agent) over the session's subagent `types`: starts a child
 * agent of the session (a sibling loop, named after the call) with a fresh conversation, records
 * its `agent.spawned` (model, tools, turn cap, prompt), runs its turn to the end and returns its
 * final text with a line on its rounds and usage. A call over the caps of `spawnRefusal` (depth,
 * calls per answer) gets an error result and starts nothing. Composite: replay serves its result and
 * re-drives the child from the child's own events. Run again for a call whose intent a dead
 * process left open, it continues the child from the log (nothing the child completed runs
 * again) or, when the child had finished, returns its answer. Never throws.
 */
export function createTaskTool(types: readonly AgentDefinition[]): Tool<TaskInput> {
  return {
    name: TASK_TOOL,
    description: taskDescription(types),
    schema: lazySchema(inputSchema),
    inputSchema: TASK_INPUT_SCHEMA,
    kind: "composite",
    readOnly: false,
    claudeNames: ["Task", "Agent"],
    specifierFields: ["subagent_type"],
    // A subagent does nothing itself: each of its calls passes the gate.
    permission: "read-only",
    concurrent: true,
    guidance: "Hand searches that need many reads, and independent pieces of work, to a " +
      "subagent with task; start several at once when they do not depend on each other.",
    summarize: (input) => `${input.subagent_type ?? DEFAULT_AGENT_TYPE}: ${input.description}`,
    run: (input, context) => runTask(input, context, types),
  };
}

async function runTask(
  input: TaskInput,
  context: ToolCallContext,
  types: readonly AgentDefinition[],
): Promise<ToolResult> {
  if (!context.sibling) {
    return { content: "Subagents cannot run here: no agent loop drives this call", isError: true };
  }
  const typeName = input.subagent_type ?? DEFAULT_AGENT_TYPE;
  const name = childAgentName(typeName, context.callId);
  const view = context.view().sessions.byId[context.session];
  const parent = view?.agents[context.agent];
  if (!view || !parent) return { content: "The calling agent is not in the log", isError: true };
  const known = view.agents[name];
  if (known?.spawn == null) {
    const refusal = spawnRefusal(view, context.agent, context.callId);
    if (refusal !== null) return { content: refusal, isError: true };
  }
  const child = context.sibling(name);
  const run = { signal: context.signal };
  let result: TurnResult | null;
  if (known?.spawn == null) {
    const definition = types.find((type) => type.name === typeName);
    if (!definition) {
      return {
        content: `Unknown subagent_type "${typeName}". Available types: ` +
          types.map((type) => type.name).join(", "),
        isError: true,
      };
    }
    let spawned;
    try {
      spawned = planSpawn(definition, parent, { callId: context.callId, ...input });
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return { content: `Cannot start a ${typeName} agent: ${why}`, isError: true };
    }
    await child.record([{ type: "agent.spawned", data: spawned }]);
    result = await child.prompt(input.prompt, { ...run, maxTurns: spawned.maxTurns });
  } else if (known.messages.length === 0) {
    // The process died between the spawn and the prompt.
    result = await child.prompt(input.prompt, { ...run, maxTurns: known.spawn.maxTurns });
  } else if (child.hasUnfinishedWork) {
    const maxTurns = Math.max(known.spawn.maxTurns - known.rounds, 0);
    result = await child.resume("continue", undefined, { ...run, maxTurns });
  } else result = null; // it had finished when the process died: its answer is in the log
  return taskResult(child.conversation, result);
}

/** The parent's tool result for a child that ran (`result`; null: it finished earlier). Pure. */
export function taskResult(child: AgentView, result: TurnResult | null): ToolResult {
  const spawn = child.spawn;
  const answer = lastAssistantText(child).trim();
  const usage = child.usage;
  const tokens = usage.input_tokens + usage.cache_creation_input_tokens +
    usage.cache_read_input_tokens;
  const rounds = child.rounds === 1 ? "1 round" : `${child.rounds} rounds`;
  const line = `[${spawn?.type ?? "subagent"} agent: ${rounds}, ${tokens} input and ` +
    `${usage.output_tokens} output tokens]`;
  const reason = result?.reason ?? (child.status === "idle" ? "completed" : child.status);
  switch (reason) {
    case "completed":
      return { content: `${answer || "(the agent gave no final text)"}\n\n${line}` };
    case "max_turns":
    case "max_budget":
      return {
        content: `${answer || "(no final text)"}\n\n${line}\nThe agent stopped before it ` +
          `finished: ${result?.message ?? child.lastError ?? reason}`,
      };
    case "cancelled":
      return {
        content: `The agent was cancelled by the user\n\n${line}`,
        isError: true,
        cancelled: true,
      };
    default:
      return {
        content: `The agent failed: ${result?.message ?? child.lastError ?? reason}\n\n${line}`,
        isError: true,
      };
  }
}
