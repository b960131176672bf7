import { checkLog } from "../events/check_log.ts";
import { type SnapshotCoverage, snapshotCoverage } from "../core/snapshots/mod.ts";
import type { CommandIo } from "./io.ts";
import { count } from "./log_check.ts";
import { assertLogExists } from "./log_commands.ts";

/** Events and bytes of one kind of line. */
interface Tally {
  events: number;
  bytes: number;
}

/** Per session: events, its last one, and whether it was resumed or forked. */
interface SessionTally extends Tally {
  lastSeq: number;
  resumed: boolean;
  forked: boolean;
}

/**
 * `rein log stats [log]`: the log's size, its events by type and by agent (count and bytes), its
 * sessions, lines that are not readable events, and the snapshots stored beside it and how far
 * they reach. One streaming pass that keeps a few numbers per type, agent and session; reads the
 * log without its lock and never writes it. Returns 0.
 */
export async function logStatsCommand(path: string, io: CommandIo): Promise<number> {
  await assertLogExists(path);
  const byType = new Map<string, Tally>();
  const byAgent = new Map<string, Tally>();
  const sessions = new Map<string, SessionTally>();
  let size = 0;
  let events = 0;
  let problems = 0;
  for await (const { raw, event, problem } of checkLog(path)) {
    size += raw.length;
    if (problem !== undefined) problems++;
    if (event === undefined) continue;
    events++;
    add(byType, event.type, raw.length);
    add(byAgent, event.agent, raw.length);
    let session = sessions.get(event.session);
    if (session === undefined) {
      session = { events: 0, bytes: 0, lastSeq: 0, resumed: false, forked: false };
      sessions.set(event.session, session);
    }
    session.events++;
    session.bytes += raw.length;
    session.lastSeq = event.seq;
    if (event.type === "session.resumed") session.resumed = true;
    if (event.type === "session.started" && event.data.forkedFrom) session.forked = true;
  }
  const out = (line: string) => io.stdout.write(`${line}\n`);
  out(
    `"${path}": ${megabytes(size)}, ${count(events, "event")} in ${
      count(sessions.size, "session")
    }`,
  );
  out(
    problems === 0
      ? "problems   none line by line (`rein log check` checks the payloads too)"
      : `problems   ${count(problems, "line")} with a problem: see \`rein log check\``,
  );
  out("");
  table(out, "events by type", byType);
  out("");
  table(out, "events by agent", byAgent);
  out("");
  out(sessionSummary(sessions));
  out("");
  out(await snapshotSummary(path, size, sessions));
  return 0;
}

function add(tallies: Map<string, Tally>, key: string, bytes: number): void {
  const tally = tallies.get(key);
  if (tally) {
    tally.events++;
    tally.bytes += bytes;
  } else tallies.set(key, { events: 1, bytes });
}

/** Rows of `tallies`, most events first. */
function table(out: (line: string) => void, title: string, tallies: Map<string, Tally>): void {
  const rows = [...tallies].sort((a, b) => b[1].events - a[1].events);
  const width = Math.max(title.length - 2, ...rows.map(([key]) => key.length));
  out(`${title.padEnd(width + 2)}  ${"events".padStart(11)}  ${"bytes".padStart(10)}`);
  for (const [key, { events, bytes }] of rows) {
    out(
      `  ${key.padEnd(width)}  ${events.toLocaleString("en-US").padStart(11)}  ${
        megabytes(bytes).padStart(10)
      }`,
    );
  }
}

function sessionSummary(sessions: Map<string, SessionTally>): string {
  const all = [...sessions].sort((a, b) => a[1].events - b[1].events);
  const largest = all.at(-1);
  const median = all[Math.floor(all.length / 2)];
  const resumed = all.filter(([, s]) => s.resumed).length;
  const forks = all.filter(([, s]) => s.forked).length;
  if (largest === undefined || median === undefined) return "sessions   none";
  return `sessions   ${count(all.length, "session")}, ${resumed} resumed, ` +
    `${count(forks, "fork")}; events per session: median ${median[1].events}, largest ` +
    `${largest[1].events} (${largest[0]}, ${megabytes(largest[1].bytes)})`;
}

/**
 * The snapshots beside the log: each catalog snapshot (how much of the log it covers, so how
 * much a start folds after it), then the sessions' snapshots summed up: valid ones (and how many
 * reach their session's last event), stale ones (other fold code) and invalid ones.
 */
async function snapshotSummary(
  path: string,
  size: number,
  sessions: Map<string, SessionTally>,
): Promise<string> {
  const snapshots = await snapshotCoverage(path);
  if (snapshots.length === 0) return "snapshots  none";
  const catalogs = snapshots.filter((s) => s.kind === "catalog");
  const single = snapshots.filter((s) => s.kind === "session");
  const lines = [
    `snapshots  ${count(catalogs.length, "catalog snapshot")}, newest first; ` +
    `${count(single.length, "session snapshot")}`,
  ];
  for (const s of catalogs) {
    const reach = size === 0 ? 100 : (s.offset / size) * 100;
    lines.push(
      `  seq ${s.seq} at byte ${s.offset} (${reach.toFixed(1)}% of the log, ` +
        `${megabytes(Math.max(0, size - s.offset))} after it), ${count(s.sessions, "session")}, ` +
        `taken ${s.takenAt}, ${trust(s)}: "${s.path}"`,
    );
  }
  if (single.length > 0) {
    const valid = single.filter((s) => s.valid);
    const current = valid.filter((s) => s.seq >= (sessions.get(s.session ?? "")?.lastSeq ?? 0));
    const stale = single.filter((s) => !s.fingerprintMatches).length;
    lines.push(
      `  sessions: ${valid.length} valid (${current.length} up to the session's last event) ` +
        `for ${count(sessions.size, "session")}, ${stale} stale (taken by other fold code), ` +
        `${single.length - valid.length - stale} invalid (do not match the log)`,
    );
  }
  return lines.join("\n");
}

/** Whether a snapshot is trusted, and why not. Pure. */
function trust(s: SnapshotCoverage): string {
  return s.valid
    ? "valid"
    : s.fingerprintMatches
    ? "invalid (does not match the log)"
    : "stale (taken by other fold code)";
}

function megabytes(bytes: number): string {
  if (bytes < 1e6) return `${(bytes / 1e3).toFixed(1)} kB`;
  return `${(bytes / 1e6).toFixed(1)} MB`;
}
