import type { Envelope } from "../../events/event_types.ts";
import { isLive } from "./roster.ts";
import { type Roster, rosterKey, type TeammateEntry } from "./roster_projection.ts";
import { MAX_LIVE_TEAMMATES } from "./spawn_teammate.ts";
import { TEAMMATE_NAME } from "./teammate_name.ts";

/**
 * The session feature of placing teammates on hosts (`spawn_teammate {host}`): sessions recorded
 * before it see `spawn_teammate` without `host`, as they ran.
 */
export const TEAM_HOSTS_FEATURE = "team_hosts";

/** The agent of a host's events and of its lease (`rein host`). */
export const HOST_AGENT = "host";

/** How a host may be named: a hostname's letters (`build-2.example`), at most 64. */
export const HOST_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** What a session id a host passes to `rein teammate --session` may be (no flag, no path). */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** The names a teammate may not have (a lead's, Claude Code's). */
const RESERVED = new Set(["main", "lead", "team-lead"]);

/** The session of host `name`'s events and of its lease. Pure. */
export function hostSession(name: string): string {
  return `host:${name}`;
}

/**
 * Whether `event` is a host's own (`host.joined`, `host.left` of a session `host:NAME`): an input
 * from the world, of no session a loop drives (replay feeds it, never re-drives it). Pure.
 */
export function isHostEvent(event: Envelope): boolean {
  return (event.type === "host.joined" || event.type === "host.left") &&
    event.session.startsWith("host:");
}

/** What a host sees of the world when it reconciles. */
export interface HostWorld {
  /** The workspace's roster, as folded from the shared log. */
  roster: Roster;
  /** Each session of the log (its `session.started`) and its lead (main agent). */
  leads: Readonly<Record<string, string>>;
  /** This host's name. */
  host: string;
  /** The teammates (roster keys) whose processes this host runs now. */
  running: ReadonlySet<string>;
  /** The sessions whose lead holds its lease now. */
  liveLeads: ReadonlySet<string>;
  /**
   * The sessions whose recorded settings carry a person's own hook commands (which run
   * unconfined, as that person's): not run here (the host's `--trust-hooks` passes none).
   */
  personalHooks?: ReadonlySet<string>;
}

/** A teammate a host starts, stops, or refuses to run. */
export interface HostTeammate {
  session: string;
  name: string;
}

/** What a host does to match the log. */
export interface HostPlan {
  /** Teammates to start, with which start of theirs it is (the roster's `starts`). */
  start: (HostTeammate & { restart: number })[];
  /** Teammates to stop (SIGTERM, then SIGKILL). */
  stop: HostTeammate[];
  /** Teammates placed here that it will not run, and why. */
  refused: (HostTeammate & { why: string })[];
}

/**
 * The sessions with a live teammate placed on `host`: whose leads' leases it reads before it
 * plans. Pure.
 */
export function placedSessions(roster: Roster, host: string): string[] {
  return [
    ...new Set(
      placedOn(roster, host).filter((entry) => isLive(entry.status)).map((entry) => entry.session),
    ),
  ];
}

/**
 * What host `world.host` does to run exactly the teammates the log places on it: each teammate
 * whose `agent.spawned` names this host, that is live in the roster (working, idle or waiting:
 * not stopped, not crashed), whose session is in the log and whose lead holds its lease, is
 * wanted; a wanted one not running is started, a running one no longer wanted (stopped in the
 * log, its lead gone) is stopped. Nothing the log says but a teammate's session and name reaches
 * the process it starts, and those are checked again here: a name that is no teammate name, a
 * session id that could be read as a flag, a folder outside the host's working copy (absolute,
 * or climbing out with `..`), or a session whose settings carry personal hook commands
 * (`world.personalHooks`) is refused; so is a teammate beyond {@link MAX_LIVE_TEAMMATES} run at
 * once. Pure.
 */
export function planHost(world: HostWorld): HostPlan {
  const plan: HostPlan = { start: [], stop: [], refused: [] };
  const wanted = new Set<string>();
  for (const entry of placedOn(world.roster, world.host)) {
    if (!isLive(entry.status)) continue;
    const lead = world.leads[entry.session];
    if (lead === undefined || !world.liveLeads.has(entry.session)) continue;
    const why = world.personalHooks?.has(entry.session)
      ? "its session's settings carry a person's own hook commands, which would run here " +
        "unconfined (rein host --trust-hooks runs them)"
      : refusal(entry, lead);
    const teammate = { session: entry.session, name: entry.name };
    if (why !== undefined) {
      plan.refused.push({ ...teammate, why });
      continue;
    }
    const key = rosterKey(entry.session, entry.name);
    if (!world.running.has(key) && world.running.size + plan.start.length >= MAX_LIVE_TEAMMATES) {
      plan.refused.push({
        ...teammate,
        why: `this host runs ${MAX_LIVE_TEAMMATES} teammates already, at most`,
      });
      continue;
    }
    wanted.add(key);
    if (!world.running.has(key)) plan.start.push({ ...teammate, restart: entry.starts });
  }
  for (const key of world.running) {
    if (wanted.has(key)) continue;
    const entry = world.roster.byKey[key];
    const at = key.lastIndexOf("/");
    plan.stop.push(
      entry === undefined
        ? { session: key.slice(0, at), name: key.slice(at + 1) }
        : { session: entry.session, name: entry.name },
    );
  }
  return plan;
}

/**
 * The live teammates of `sessions` placed on a host that is gone (`liveHosts` does not hold it:
 * its lease lapsed, or it never joined): their processes died with it, and nothing else records
 * it, so the lead's process records them crashed (a `-p` run does not wait on them). Pure.
 */
export function lostTeammates(
  roster: Roster,
  sessions: ReadonlySet<string>,
  liveHosts: ReadonlySet<string>,
): HostTeammate[] {
  return roster.order.flatMap((key) => {
    const entry = roster.byKey[key];
    if (entry === undefined || entry.host === null || !sessions.has(entry.session)) return [];
    if (!isLive(entry.status) || liveHosts.has(entry.host)) return [];
    return [{ session: entry.session, name: entry.name }];
  });
}

/** Why the host will not run `entry` (of the session led by `lead`), or undefined. Pure. */
function refusal(entry: TeammateEntry, lead: string): string | undefined {
  if (!SESSION_ID.test(entry.session)) return `its session id "${entry.session}" is not one`;
  if (!TEAMMATE_NAME.test(entry.name) || RESERVED.has(entry.name.toLowerCase())) {
    return `"${entry.name}" is no teammate name`;
  }
  if (entry.name === lead) return `"${entry.name}" is its session's lead`;
  if (!insideFolder(entry.cwd ?? "")) {
    return `its folder "${entry.cwd}" is outside this host's working copy`;
  }
  return undefined;
}

/**
 * Whether `folder`, relative to a host's working copy, stays inside it: not absolute, no `..`
 * part. Pure.
 */
export function insideFolder(folder: string): boolean {
  if (folder.startsWith("/")) return false;
  return folder.split("/").every((part) => part !== "..");
}

/** The teammates placed on `host`, in the order they were spawned. Pure. */
function placedOn(roster: Roster, host: string): TeammateEntry[] {
  return roster.order.flatMap((key) => {
    const entry = roster.byKey[key];
    return entry !== undefined && entry.host === host ? [entry] : [];
  });
}
