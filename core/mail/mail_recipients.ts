import type { State } from "../state/state.ts";

/** The name Claude Code gives the lead in mail (`SendMessage {to: "team-lead"}`). */
export const TEAM_LEAD = "team-lead";

/** An agent mail can reach, and the addresses that name it. */
export interface MailRecipient {
  /** Its agent name in the log. */
  name: string;
  /** What a sender may write as `to` for it: its name, and for the lead `team-lead` and `lead`. */
  addresses: readonly string[];
}

/**
 * The agents of `session` that mail can reach now, the session's main agent (the lead) first:
 * the lead (addressed as `team-lead`, `lead`, `main` or its own name), and every other agent of
 * the session whose turn is under way (a subagent while its `task` call runs; one that has
 * finished never runs again, so nothing would read its mail), and every live teammate of the
 * team roster (working, idle or waiting: an idle one is woken by its mail). Pure.
 */
export function mailRecipients(state: State, session: string): MailRecipient[] {
  const view = state.sessions.byId[session];
  if (view === undefined) return [];
  const lead = view.mainAgent;
  const recipients: MailRecipient[] = [{
    name: lead,
    addresses: [...new Set([TEAM_LEAD, "lead", "main", lead])],
  }];
  const teammates = liveTeammateNames(state, session);
  for (const agent of Object.values(view.agents)) {
    if (agent.name === lead || agent.spawn === null) continue;
    if (agent.status !== "unfinished" && !teammates.has(agent.name)) continue;
    recipients.push({ name: agent.name, addresses: [agent.name] });
  }
  return recipients;
}

/** The part of the team roster (core/team's workspace-wide slice `team`) mail reads. */
interface RosterSlice {
  byKey: Record<string, { session: string; name: string; status: string } | undefined>;
}

/** Roster statuses of a teammate whose process runs or will run again. */
const LIVE = new Set(["working", "idle", "waiting"]);

/**
 * The session's live teammates (working, idle or waiting) by the roster's slice, read by its
 * shape: core/team imports mail, so mail cannot import it back. None without a roster. Pure.
 */
function liveTeammateNames(state: State, session: string): Set<string> {
  const roster = state.catalog?.["team"] as RosterSlice | undefined;
  const names = new Set<string>();
  for (const entry of Object.values(roster?.byKey ?? {})) {
    if (entry?.session === session && LIVE.has(entry.status)) names.add(entry.name);
  }
  return names;
}

/** How the name of an agent is shown to others in mail: the lead as `team-lead`. Pure. */
export function mailName(state: State, session: string, agent: string): string {
  return state.sessions.byId[session]?.mainAgent === agent ? TEAM_LEAD : agent;
}

/** Where a piece of mail goes: the agents' names, or why it cannot be sent. */
export type Addressed = { recipients: string[] } | { error: string };

/**
 * The agents `to` names in `session` for mail from `from` (see {@link mailRecipients}): one
 * agent (its exact address, else the only one whose address matches ignoring case), or for `*`
 * every agent mail can reach but the sender. An unknown name, an empty one, or a broadcast with
 * nobody to reach is an error naming the agents there are. Pure.
 */
export function addressMail(state: State, session: string, from: string, to: string): Addressed {
  const known = mailRecipients(state, session);
  const names = known.map((recipient) => recipient.addresses[0]).join(", ");
  const address = to.trim();
  if (address === "") {
    return { error: `Missing recipient: "to" must name an agent (${names}) or be "*"` };
  }
  if (address === "*") {
    const everyone = known.filter((recipient) => recipient.name !== from);
    if (everyone.length > 0) return { recipients: everyone.map((recipient) => recipient.name) };
    return { error: `Nobody to send to: "*" reaches every other live agent, and there is none` };
  }
  const exact = known.find((recipient) => recipient.addresses.includes(address));
  if (exact !== undefined) return { recipients: [exact.name] };
  const lower = address.toLowerCase();
  const loose = known.filter((recipient) =>
    recipient.addresses.some((name) => name.toLowerCase() === lower)
  );
  if (loose.length === 1) return { recipients: [loose[0]!.name] };
  return { error: `Unknown recipient "${address}": the agents mail can reach are ${names}` };
}
