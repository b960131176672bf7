import type { ReinEvent } from "../../events/event_types.ts";
import { TEAM_LEAD } from "../mail/mail_recipients.ts";
import { catalogSliceOf } from "../state/catalog.ts";
import type { State } from "../state/state.ts";
import { rosterProjection, type TeammateEntry } from "../team/roster_projection.ts";
import { isLead, isTeammate } from "./protocols_of.ts";

/** The `source` of the reminder that puts the team back after a compaction. */
export const TEAM_SOURCE = "team";

/** The session's teammates in the roster, in spawn order (none where it is not folded). Pure. */
function teammatesIn(state: State, session: string): TeammateEntry[] {
  if (!Object.hasOwn(state.catalog, rosterProjection.key)) return [];
  const roster = catalogSliceOf(state.catalog, rosterProjection);
  return roster.order.flatMap((key) => {
    const entry = roster.byKey[key];
    return entry !== undefined && entry.session === session ? [entry] : [];
  });
}

/**
 * The team as `agent` (the lead or a teammate of `session`) should know it after its
 * conversation was compacted: the lead and each teammate, with its role and status, the agent
 * itself marked. None for an agent of no team (a session without teammates, a subagent). Pure.
 */
export function teamText(state: State, session: string, agent: string): string | undefined {
  const lead = isLead(state, session, agent);
  if (!lead && !isTeammate(state, session, agent)) return undefined;
  const teammates = teammatesIn(state, session);
  if (teammates.length === 0) return undefined;
  const you = (name: string) => name === agent ? " (you)" : "";
  const leadName = state.sessions.byId[session]?.mainAgent ?? "lead";
  const lines = [`- ${TEAM_LEAD}: the lead${you(leadName)}`];
  for (const entry of teammates) {
    const role = entry.role === null ? "" : ` (${entry.role})`;
    lines.push(`- ${entry.name}${role}: ${entry.status}${you(entry.name)}`);
  }
  return `Your team, as it stands after the compaction (write to a teammate with send_message ` +
    `to its name):\n${lines.join("\n")}`;
}

/** The reminder that puts the team back for `agent` after a compaction; none outside a team. */
export function teamReminder(state: State, session: string, agent: string): ReinEvent[] {
  const text = teamText(state, session, agent);
  return text === undefined
    ? []
    : [{ type: "reminder.added", data: { source: TEAM_SOURCE, text } }];
}
