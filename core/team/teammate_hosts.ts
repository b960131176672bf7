import type { State } from "../state/state.ts";
import { rosterOf } from "./roster.ts";

/**
 * Which hosts (`rein host`) are live: the lead's window on their leases. Present only where the
 * log is one that several machines share (PostgreSQL); absent, a teammate cannot be placed.
 */
export interface TeammateHosts {
  /** Whether the host whose events and lease are of session `session` holds its lease now. */
  live(session: string): Promise<boolean>;
}

/**
 * Where `spawn_teammate {host}` places a teammate: `host` when a `host.joined` of that name is in
 * the log and its host holds its lease now, else an error naming it and the live hosts. `hosts`
 * absent (the log is a JSONL file one machine has) refuses every host. Never throws.
 */
export async function placeTeammate(
  host: string,
  state: State,
  hosts: TeammateHosts | undefined,
): Promise<{ host: string } | { error: string }> {
  if (hosts === undefined) {
    return {
      error: `Cannot place a teammate on host "${host}": this session's log is a file on this ` +
        "machine; hosts share a PostgreSQL log (rein --store postgres://… here, and " +
        "rein host --store postgres://… on the other machine)",
    };
  }
  const known = Object.values(rosterOf(state).hosts).filter((entry) => !entry.left);
  const live: string[] = [];
  for (const entry of known) {
    if (await hosts.live(entry.session).catch(() => false)) live.push(entry.name);
  }
  if (live.includes(host)) return { host };
  const listed = live.length === 0
    ? "no host is live (start rein host --store postgres://… on the other machine)"
    : `the live hosts are ${live.join(", ")}`;
  const known_ = known.some((entry) => entry.name === host);
  return {
    error: `${known_ ? "Host" : "Unknown host"} "${host}"${
      known_ ? " is not running (its lease lapsed)" : ""
    }: ${listed}`,
  };
}
