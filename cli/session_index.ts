import { isHostEvent } from "../core/team/host_plan.ts";
import type { Envelope } from "../events/event_types.ts";
import { readLog } from "../events/read_log.ts";

/** Where one session's events are in a log. */
export interface IndexedSession {
  id: string;
  /** seq of the session's first event, and of its `session.started` (null when it has none). */
  firstSeq: number;
  startedSeq: number | null;
  lastSeq: number;
  /** How many events the session has. */
  events: number;
}

/** The sessions of a log, in order of their first event, and its last seq. */
export interface LogIndex {
  lastSeq: number;
  sessions: IndexedSession[];
}

/** How to read a log with {@link indexLog}. */
export interface IndexLogOptions {
  /** Read only up to this seq. */
  upTo?: number | undefined;
  /** Receives the reader's one-line notices (an unterminated last line). */
  onNotice?: (message: string) => void;
  /** Every event read, in seq order (for a fold that is small whatever the log's length). */
  onEvent?: (event: Envelope) => void;
}

/**
 * Read the log at `path` once and note where each session's events are (a host's own events,
 * `isHostEvent`, are of none), keeping a few numbers
 * per session and no event. Throws what `readLog` throws (`LogCorruptionError`,
 * `LogVersionError`, `Deno.errors.NotFound`) and what `onEvent` throws.
 */
export async function indexLog(path: string, options: IndexLogOptions = {}): Promise<LogIndex> {
  const byId = new Map<string, IndexedSession>();
  let lastSeq = 0;
  const reading = readLog(path, {
    ...(options.upTo === undefined ? {} : { upTo: options.upTo }),
    ...(options.onNotice ? { onNotice: options.onNotice } : {}),
  });
  for await (const event of reading) {
    lastSeq = event.seq;
    options.onEvent?.(event);
    // A host's events (rein host) are of no session: the world, fed to the sessions in replay.
    if (isHostEvent(event)) continue;
    let session = byId.get(event.session);
    if (session === undefined) {
      session = { id: event.session, firstSeq: event.seq, startedSeq: null, lastSeq: 0, events: 0 };
      byId.set(event.session, session);
    }
    if (event.type === "session.started") session.startedSeq ??= event.seq;
    session.lastSeq = event.seq;
    session.events++;
  }
  return { lastSeq, sessions: [...byId.values()] };
}

/**
 * The sessions of `index` that started (`session.started`), in order of start, as the fold lists
 * them. Pure.
 */
export function startedSessions(index: LogIndex): IndexedSession[] {
  return index.sessions.filter((s) => s.startedSeq !== null)
    .sort((a, b) => (a.startedSeq ?? 0) - (b.startedSeq ?? 0));
}

/**
 * The id among `ids` that is `prefix` or the only one starting with it. Throws, naming the
 * prefix, when none or several do. Pure.
 */
export function sessionByPrefix(ids: readonly string[], prefix: string): string {
  if (ids.includes(prefix)) return prefix;
  const matches = ids.filter((id) => id.startsWith(prefix));
  if (matches.length === 1 && matches[0]) return matches[0];
  if (matches.length === 0) throw new Error(`No session "${prefix}" in the log`);
  throw new Error(`Session prefix "${prefix}" is ambiguous: ${matches.join(", ")}`);
}
