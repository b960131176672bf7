import { isAbsolute, normalize } from "../../events/posix_path.ts";
import type { AgentSpawned } from "../../events/event_types.ts";
import { maxOutputOf, resolveModel } from "../models/catalogue.ts";
import type { AgentView } from "../state/sessions.ts";
import type { AgentDefinition } from "./agent_definition.ts";
import { reinToolNames } from "./child_tools.ts";

/** Model rounds a subagent may take when its definition sets no `maxTurns` (as s06). */
export const DEFAULT_SUBAGENT_TURNS = 30;

/** What a `task` call asks for. */
export interface TaskRequest {
  description: string;
  callId: string;
  /** A folder inside the parent's directory for the child, relative to it. */
  cwd?: string | undefined;
}

/**
 * The child's name in the log: unique per call, and saying what it is (`Explore@toolu_01…`), so
 * a resumed parent finds the child its call started. Pure.
 */
export function childAgentName(type: string, callId: string): string {
  return `${type}@${callId}`;
}

/**
 * The `agent.spawned` record of a child of `parent` of type `definition`: the definition's model
 * (an alias resolved; `inherit` or none: the parent's) with the parent's output limit, capped at
 * the model's; its tools in rein's names; its turn cap; its prompt. Pure. Throws for a model name
 * the catalogue refuses (an empty one, `[1m]` where there is no such window).
 */
export function planSpawn(
  definition: AgentDefinition,
  parent: AgentView,
  request: TaskRequest,
): AgentSpawned {
  const named = definition.model;
  const inherit = named === undefined || named === "inherit";
  const resolved = inherit ? undefined : resolveModel(named);
  const model = resolved === undefined
    ? parent.model
    : resolved.known
    ? resolved.info.id
    : resolved.id;
  const maxTokens = model === parent.model
    ? parent.maxTokens
    : Math.min(parent.maxTokens, maxOutputOf(model));
  return {
    parent: parent.name,
    callId: request.callId,
    type: definition.name,
    description: request.description,
    model,
    maxTokens,
    maxTurns: definition.maxTurns ?? DEFAULT_SUBAGENT_TURNS,
    ...(definition.tools === undefined ? {} : { tools: reinToolNames(definition.tools) }),
    ...(definition.mcpServers === undefined
      ? {}
      : { mcpServers: [...new Set(definition.mcpServers.map((server) => server.name))] }),
    ...(definition.systemPrompt === "" ? {} : { systemPrompt: definition.systemPrompt }),
    ...(definition.permissionMode === undefined
      ? {}
      : { permissionMode: definition.permissionMode }),
    ...(definition.path === undefined ? {} : { path: definition.path }),
    ...placeOf(parent, request.cwd),
  };
}

/**
 * The child's folder relative to the workspace: `given` (relative to the parent's folder) joined
 * to the parent's, or the parent's own. Pure: whether it exists and where it really leads is
 * checked by the tools that use it. Throws for a path that is absolute, leaves the parent's
 * folder, or enters `.git` or `.rein`.
 */
function placeOf(parent: AgentView, given: string | undefined): { cwd?: string } {
  const inherited = parent.place?.cwd ?? parent.spawn?.cwd ?? "";
  if (given === undefined || given === "" || given === ".") {
    return inherited === "" ? {} : { cwd: inherited };
  }
  if (isAbsolute(given) || given.includes("\0")) {
    throw new Error(`cwd "${given}" must be a folder relative to your directory`);
  }
  const inside = normalize(given).replace(/\/+$/, "");
  if (inside === ".." || inside.startsWith("../")) {
    throw new Error(`cwd "${given}" leads out of your directory`);
  }
  if (inside === ".") return inherited === "" ? {} : { cwd: inherited };
  const place = inherited === "" ? inside : `${inherited}/${inside}`;
  if (place.split("/").some((part) => /^\.(git|rein)$/i.test(part))) {
    throw new Error(`cwd "${given}" is inside .git or .rein, where agents do not work`);
  }
  return { cwd: place };
}
