import type { Envelope } from "../../events/event_types.ts";
import { type RenderedLine, renderedLine, type ReportSection } from "../state/rendered_line.ts";
import { formatCost } from "../models/cost.ts";
import type { State } from "../state/state.ts";
import { teammateCost, teammatesOf } from "./roster.ts";
import type { Roster, TeammateEntry } from "./roster_projection.ts";

/**
 * The line the REPL and `-p`'s progress show for a teammate's start, its process's start, exit
 * and stop; undefined for another mechanism's events (a subagent's `agent.spawned` too). Pure.
 */
export function renderTeamEvent(event: Envelope): readonly RenderedLine[] | undefined {
  switch (event.type) {
    case "agent.spawned": {
      const teammate = event.data.teammate;
      if (teammate === undefined) return undefined;
      const role = teammate.role === undefined ? "" : ` (${teammate.role})`;
      const host = teammate.host === undefined ? "" : ` on host ${teammate.host}`;
      return [renderedLine(`⚑ teammate ${event.agent}${role} spawned${host}`, "cyan")];
    }
    case "host.joined":
      return [
        renderedLine(
          `⚑ host ${event.data.name} joined (${event.data.folder}): it runs teammates placed on it`,
          "cyan",
        ),
      ];
    case "host.left":
      return [renderedLine(`⚑ host ${event.session.replace(/^host:/, "")} left`, "dim")];
    case "agent.started":
      return [
        renderedLine(
          `⚑ ${event.agent} ${event.data.restart === 0 ? "started" : "restarted"} ` +
            `(pid ${event.data.process.pid})`,
          "dim",
        ),
      ];
    case "agent.exited": {
      const how = event.data.signal ?? `code ${event.data.code}`;
      return [renderedLine(`⚑ ${event.agent} exited unexpectedly (${how})`, "yellow")];
    }
    case "agent.stopped":
      return [
        renderedLine(
          `⚑ ${event.agent} stopped (${event.data.reason.replace("_", " ")})`,
          event.data.reason === "crashed" ? "red" : "dim",
        ),
      ];
    default:
      return undefined;
  }
}

/**
 * One teammate as `rein team` and `rein state` list it: `alice (reviewer): idle, claude-…, plan,
 * pid 41, last bash npm test`. Pure.
 */
export function teammateLine(entry: TeammateEntry): string {
  const parts: string[] = [entry.status, entry.model];
  if (entry.mode !== null) parts.push(`mode ${entry.mode}`);
  if (entry.host !== null) parts.push(`on host ${entry.host}`);
  if (entry.cwd !== null) parts.push(`in ${entry.cwd}`);
  if (entry.process !== null) parts.push(`pid ${entry.process.pid}`);
  if (entry.exits.length > 0) parts.push(`${entry.exits.length} unexpected exits`);
  const { usage } = entry;
  const tokens = usage.input_tokens + usage.output_tokens + usage.cache_creation_input_tokens +
    usage.cache_read_input_tokens;
  if (tokens > 0) parts.push(`${tokens} tokens, ${formatCost(teammateCost(entry))}`);
  if (entry.lastAction !== null) parts.push(`last ${entry.lastAction}`);
  const role = entry.role === null ? "" : ` (${entry.role})`;
  return `${entry.name}${role}: ${parts.join(", ")}`;
}

/**
 * The workspace's roster as `rein state` lists it after the sessions, one line per teammate
 * (`<session> alice (reviewer): idle, …`). Pure.
 */
export function teamLines(roster: Roster): string[] {
  return roster.order.flatMap((key) => {
    const entry = roster.byKey[key];
    return entry === undefined ? [] : [`${entry.session} ${teammateLine(entry)}`];
  });
}

/**
 * The `team` section of a session's report: its teammates, when the state holds the
 * workspace's roster (a harness's state; `rein state` lists the roster once, after the
 * sessions, with {@link teamLines}). Pure.
 */
export function reportTeam(state: State, session: string): readonly ReportSection[] {
  if (!Object.hasOwn(state.catalog, "team")) return [];
  const teammates = teammatesOf(state, session);
  if (teammates.length === 0) return [];
  return [{ title: "team", lines: teammates.map((entry) => renderedLine(teammateLine(entry))) }];
}
