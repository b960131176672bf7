import type { AnyTool, ToolCallContext } from "../tools/tool.ts";
import { spawnTeammate, type TeammateStarter } from "./spawn_teammate.ts";
import { TEAMMATE_MODES } from "./spawn_teammate_tool.ts";

/** The fields Claude Code's `Agent` has for a teammate (CC 2.1), added to `task`'s schema. */
const TEAMMATE_FIELDS: Record<string, unknown> = {
  name: {
    type: "string",
    description: "Name for the spawned agent: makes it a teammate, addressable via " +
      "send_message, that works in its own process and stays until it is shut down",
  },
  mode: {
    type: "string",
    enum: [...TEAMMATE_MODES],
    description: 'A teammate\'s permission mode ("plan": its plan needs your approval)',
  },
  model: { type: "string", description: "A teammate's model (sonnet, opus, haiku)" },
};

const wrapped = new WeakMap<AnyTool, WeakMap<TeammateStarter | typeof NONE, AnyTool>>();
const NONE = {};

/**
 * The `task` tool (Claude Code's `Task`/`Agent`) with Claude Code's `name`, `mode` and `model`:
 * a call with a `name` spawns a teammate of that name (its `description` its role,
 * `subagent_type` its type; see `spawnTeammate`) instead of running a subagent; without one it
 * is `task` as it was (a `mode` or `model` alone is ignored, as for a subagent). One object per
 * `task` tool and starter.
 */
export function teammateTask(task: AnyTool, start: TeammateStarter | undefined): AnyTool {
  let byStarter = wrapped.get(task);
  if (byStarter === undefined) wrapped.set(task, byStarter = new WeakMap());
  const known = byStarter.get(start ?? NONE);
  if (known !== undefined) return known;
  const { schema: _zod, ...rest } = task;
  const schema = task.inputSchema ?? {};
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const tool: AnyTool = {
    ...rest,
    inputSchema: { ...schema, properties: { ...properties, ...TEAMMATE_FIELDS } },
    run(input: Record<string, unknown>, context: ToolCallContext) {
      const { name, mode, model, ...plain } = input;
      if (typeof name !== "string") return task.run(plain, context);
      return spawnTeammate(
        {
          name,
          prompt: String(plain.prompt ?? ""),
          ...(typeof plain.description === "string" ? { role: plain.description } : {}),
          ...(typeof plain.subagent_type === "string" ? { type: plain.subagent_type } : {}),
          ...(typeof model === "string" ? { model } : {}),
          ...(typeof mode === "string" ? { mode } : {}),
        },
        context,
        start,
      );
    },
  };
  byStarter.set(start ?? NONE, tool);
  return tool;
}
