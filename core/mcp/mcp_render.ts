import type { Envelope, McpServerState } from "../../events/event_types.ts";
import { type RenderedLine, renderedLine, type ReportSection } from "../state/rendered_line.ts";
import type { State } from "../state/state.ts";
import { mcpViewOf } from "./mcp_view.ts";

/**
 * MCP events as the REPL and `-p`'s progress show them: servers kept from starting (and why),
 * entries that could not be read, and each server's state when it changes (`⏺ MCP everything:
 * connected, 13 tools`, failed or pending with the reason). Undefined for another mechanism's
 * event. Pure.
 */
export function renderMcpEvent(event: Envelope): readonly RenderedLine[] | undefined {
  if (event.type === "mcp.configured") {
    const kept = event.data.servers.filter((s) => !s.enabled);
    return [
      ...(event.data.problems ?? []).map((problem) => renderedLine(`⏺ ${problem}`, "yellow")),
      ...kept.map((s) =>
        renderedLine(`⏺ MCP ${s.name} (${s.scope}) not started: ${s.reason ?? "disabled"}`, "dim")
      ),
    ];
  }
  if (event.type === "mcp.observed") return event.data.servers.map(serverLine);
  return undefined;
}

/** A session's MCP servers as `rein state` prints them. Pure. */
export function reportMcp(state: State, context: { session: string }): ReportSection[] {
  const view = mcpViewOf(state, context.session);
  if (view === undefined || view.configured.length === 0) return [];
  const lines = view.configured.map((entry) => {
    const state = view.servers[entry.name];
    const status = !entry.enabled
      ? `disabled: ${entry.reason ?? ""}`
      : state === undefined
      ? "starting"
      : describeState(state);
    return renderedLine(`${entry.name} (${entry.scope}, ${entry.transport}) ${status}`);
  });
  return [{ title: "mcp", lines }];
}

function serverLine(state: McpServerState): RenderedLine {
  const style = state.status === "connected" ? "dim" : "yellow";
  return renderedLine(`⏺ MCP ${state.name}: ${describeState(state)}`, style);
}

/** `connected, 13 tools` / `failed: reason` / `pending: reason`. */
export function describeState(state: McpServerState): string {
  if (state.status !== "connected") return `${state.status}: ${state.reason ?? ""}`;
  const tools = state.tools?.length ?? 0;
  const restarted = state.reason ? ` (${state.reason})` : "";
  return `connected, ${tools} tool${tools === 1 ? "" : "s"}${restarted}`;
}
