import { isAbsolute, relative, resolve } from "../../events/posix_path.ts";
import { createGlobTool } from "../../core/tools/glob.ts";
import { createGrepTool } from "../../core/tools/grep.ts";
import { createReadFileTool } from "../../core/tools/read_file.ts";
import type { AnyTool, ToolResult } from "../../core/tools/tool.ts";
import { initialState } from "../../core/state/state.ts";

/** What {@link fileTools} works in. */
export interface FileToolsPlace {
  workspace: string;
  log: string;
}

/**
 * rein's read-only file tools for an MCP client: read_file, glob and grep, confined to the
 * workspace as the agent's are (a path outside it is refused; the log, its folder and `.rein/`
 * are never read, and glob and grep leave them out).
 */
export function fileTools(place: FileToolsPlace): AnyTool[] {
  const { workspace, log } = place;
  const protectedPaths = [log, resolve(log, ".."), resolve(workspace, ".rein")];
  const deps = { workspace, protectedPaths, openPaths: [] };
  return [createReadFileTool(deps), createGlobTool(deps), createGrepTool(deps)];
}

/**
 * Runs one of {@link fileTools} for an MCP call (its input already checked against the tool's
 * schema), as the loop would run it for the workspace's main agent. A `path` that leads out of
 * the workspace by its name alone is refused before the tool looks at it, in the tool's words
 * (under `rein mcp serve`'s flags the process could not even resolve it).
 */
export function runFileTool(
  tool: AnyTool,
  input: unknown,
  workspace: string,
  signal: AbortSignal,
  callId: string,
): Promise<ToolResult> {
  const path = typeof input === "object" && input !== null && "path" in input
    ? input.path
    : undefined;
  if (typeof path === "string" && path.trim() !== "") {
    const lexical = isAbsolute(path) ? resolve(path) : resolve(workspace, path);
    const inside = relative(workspace, lexical);
    if (inside === ".." || inside.startsWith("../") || isAbsolute(inside)) {
      return Promise.resolve({
        content: `Path "${path}" is outside the workspace ${workspace}`,
        isError: true,
      });
    }
  }
  return tool.run(input, {
    signal,
    session: "mcp",
    agent: "mcp",
    callId,
    cwd: workspace,
    view: () => initialState(),
  });
}
