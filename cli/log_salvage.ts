import { dirname, join } from "../events/posix_path.ts";
import { checkLog, type LogProblem } from "../events/check_log.ts";
import { cutLog } from "../events/cut_log.ts";
import type { CommandIo } from "./io.ts";
import { count } from "./log_check.ts";
import { assertLogExists } from "./log_commands.ts";
import { checkedLines, describeProblem } from "./log_problems.ts";
import { pruneSnapshots } from "../core/snapshots/mod.ts";

/** Set-aside lines listed one by one; past this many, the rest are summed up by session. */
const LISTED = 40;

/**
 * `rein log salvage [log]`: keep the events before the log's first problem as the log and set the
 * rest aside, losing nothing: the whole file is backed up beside itself, the lines from the first
 * problem on are saved to `<log>.set-aside-<time>.jsonl`, and the kept prefix replaces the log by a
 * rename (never a rewrite in place); snapshots that no longer fit it are removed. Holds the log's
 * lock throughout, and refuses while a rein process holds it or runs a session of the log, or when
 * the first problem is a line from a newer rein (upgrade instead). Prints which lines, seqs, types
 * and sessions were set aside. Returns 0 when salvaged or clean, 1 when refused.
 */
export async function logSalvageCommand(
  path: string,
  io: CommandIo,
  clock: () => Date = () => new Date(),
): Promise<number> {
  await assertLogExists(path);
  const running = await runningSession(path);
  if (running !== undefined) {
    throw new Error(
      `Cannot salvage "${path}": ${running} is running in another rein process; ` +
        "let it finish (or stop it), then salvage",
    );
  }
  using file = await Deno.open(path, { read: true, write: true });
  if (!(await file.tryLock(true))) {
    throw new Error(
      `Cannot salvage "${path}": another rein process is writing to it; try again when it is done`,
    );
  }
  let first: LogProblem | undefined;
  for await (const { problem } of checkedLines(path)) {
    if (problem !== undefined) {
      first = problem;
      break;
    }
  }
  if (first === undefined) {
    io.stdout.write(`Nothing to salvage: "${path}" has no problems\n`);
    return 0;
  }
  if (first.kind === "newer") {
    throw new Error(
      `Cannot salvage "${path}": ${describeProblem(first)}. Upgrade rein to read it; salvaging ` +
        "would set aside events a newer rein can read",
    );
  }
  io.stdout.write(`First problem: ${describeProblem(first)}\n`);
  const cut = await cutLog(path, file, first.offset, clock().toISOString().replaceAll(":", "-"));
  io.stdout.write(
    `Backed up the whole log to "${cut.backup}"\n` +
      `Kept ${count(first.line - 1, "event")} (lines 1–${first.line - 1}) as "${path}"\n` +
      `Set aside lines ${first.line} on (${cut.setAsideBytes} bytes) in "${cut.setAside}":\n`,
  );
  await reportSetAside(cut.setAside, first.line, io);
  const pruned = await pruneSnapshots(path, clock(), { sessions: true });
  if (pruned.length > 0) {
    io.stdout.write(`Removed ${count(pruned.length, "snapshot")} that no longer fit the log\n`);
  }
  io.stdout.write(
    "rein reads the log again as it is now; a session that lost events continues from its last " +
      "kept one\n",
  );
  return 0;
}

/** List the lines of the set-aside file (line `firstLine` of the log was its first line). */
async function reportSetAside(setAside: string, firstLine: number, io: CommandIo): Promise<void> {
  const bySession = new Map<string, { events: number; first: number; last: number }>();
  let lines = 0;
  let damaged = 0;
  for await (const { raw, event, problem } of checkLog(setAside)) {
    lines++;
    const line = firstLine + raw.number - 1;
    if (event === undefined) {
      damaged++;
      if (lines <= LISTED) io.stdout.write(`  line ${line}: not an event (${problem?.reason})\n`);
      continue;
    }
    const seen = bySession.get(event.session);
    if (seen) {
      seen.events++;
      seen.last = event.seq;
    } else bySession.set(event.session, { events: 1, first: event.seq, last: event.seq });
    if (lines <= LISTED) {
      io.stdout.write(
        `  line ${line}: seq ${event.seq} ${event.type} (session ${event.session}, ` +
          `${event.agent})\n`,
      );
    }
  }
  if (lines > LISTED) io.stdout.write(`  … and ${count(lines - LISTED, "more line")}\n`);
  io.stdout.write(
    `Set aside ${count(lines - damaged, "event")} and ${count(damaged, "line")} that ` +
      `${damaged === 1 ? "is" : "are"} not an event`,
  );
  io.stdout.write(bySession.size === 0 ? "\n" : ", by session:\n");
  for (const [id, { events, first, last }] of bySession) {
    io.stdout.write(`  ${id}: ${count(events, "event")}, seq ${first}–${last}\n`);
  }
}

/**
 * A session of the log that a live rein process is running ("session ID (pid N)"), or undefined:
 * a session's lease (see `SessionLease`) that cannot be locked is held by a live process.
 */
async function runningSession(logPath: string): Promise<string | undefined> {
  const dir = join(dirname(logPath), "leases");
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(dir));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  for (const entry of entries) {
    if (!entry.isFile || !entry.name.endsWith(".lock")) continue;
    const lease = join(dir, entry.name);
    using file = await Deno.open(lease, { read: true, write: true });
    if (await file.tryLock(true)) continue;
    const session = decodeURIComponent(entry.name.split(".")[0] ?? entry.name);
    const pid = (await Deno.readTextFile(lease).catch(() => "")).trim();
    return `session ${session}${pid ? ` (pid ${pid})` : ""}`;
  }
  return undefined;
}
